import DataConnectEmulator
import DataConnectWire
import Foundation
import Testing

/// `POST /emulator/configure`: an emulator started with no backend loads one while running, as the SDKs'
/// integration suites ask it to (no `Content-Type`, a stray byte after the JSON body), and reloads it on request.
@Suite(.on(.sqlite))  // the /emulator/configure endpoint
struct ConfigureEndpointTests {
    static let listMovies = """
        {"name": "projects/p/locations/l/services/movies/connectors/movies", "operationName": "listMovies", "variables": {}}
        """

    static let countBody = """
        {"name": "projects/p/locations/l/services/movies/connectors/movies", "operationName": "CountMoviesForConfigure",
         "variables": {}}
        """

    /// A copy of the movies backend in a temporary folder, so a test may change it.
    static func copyOfMovies() throws -> String {
        let target = NSTemporaryDirectory() + "configure-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: Backend.movies.directory, toPath: target)
        return target
    }

    /// `POST path` with `body` exactly as given and no `Content-Type`.
    static func post(_ port: UInt16, _ path: String, _ body: String) throws -> RawHTTPResult {
        let bytes = Array(body.utf8)
        return try rawExchange(
            port: port,
            Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(bytes.count)\r\n\r\n".utf8)
                + bytes)
    }

    static func executeQuery(_ port: UInt16, service: String = "movies") throws -> RawHTTPResult {
        try post(
            port, "/v1/projects/p/locations/l/services/\(service)/connectors/movies:executeQuery", listMovies)
    }

    static func startEmpty() throws -> Emulator {
        let emulator = try Emulator(options: Emulator.Options(backend: nil, port: 0, readers: 1, threads: 2))
        try emulator.start()
        return emulator
    }

    @Test func anEmulatorWithoutBackendWaitsThenServesWhatIsConfigured() throws {
        // given: an emulator serving nothing
        let emulator = try Self.startEmpty()
        defer { emulator.stop() }
        #expect(!emulator.isConfigured)
        let info = try rawExchange(port: emulator.port, "GET /emulator/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(info.json["services"] == .array([]))
        let early = try Self.executeQuery(emulator.port)
        #expect(early.status == 400)
        #expect(early.errorStatus == "FAILED_PRECONDITION")
        #expect(early.errorMessage.contains("/emulator/configure"))

        // when: configured as the iOS SDK's integration suite does it
        let configured = try Self.post(
            emulator.port, "/emulator/configure",
            #"{"service_id": "movies", "config_directory": "\#(Backend.movies.directory)", "use_dummy": true}"# + "}")

        // then
        #expect(configured.status == 200, "\(configured)")
        #expect(configured.json["message"]?.stringValue?.contains("movies") == true)
        #expect(emulator.isConfigured)
        let served = try Self.executeQuery(emulator.port)
        #expect(served.status == 200, "\(served)")
        #expect(served.json["data"]?["movies"]?.arrayValue != nil)
        let after = try rawExchange(port: emulator.port, "GET /emulator/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(after.json["services"]?[0]?["serviceId"] == "movies")
    }

    @Test func configuringAgainReloadsTheChangedFolder() throws {
        // given
        let folder = try Self.copyOfMovies()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let emulator = try Self.startEmpty()
        defer { emulator.stop() }
        #expect(
            try Self.post(emulator.port, "/emulator/configure", #"{"config_directory": "\#(folder)"}"#).status == 200)
        let unknown = try Self.post(
            emulator.port, "/v1/projects/p/locations/l/services/movies/connectors/movies:executeQuery",
            Self.countBody)
        #expect(unknown.status == 404 || unknown.status == 400, "\(unknown)")

        // when: a new operation is added and the service configured again
        try "query CountMoviesForConfigure @auth(level: PUBLIC) { movies_aggregate: movies { _count } }\n".write(
            toFile: folder + "/connector/configure_added.gql", atomically: true, encoding: .utf8)
        let again = try Self.post(emulator.port, "/emulator/configure", #"{"config_directory": "\#(folder)"}"#)

        // then
        #expect(again.status == 200, "\(again)")
        let counted = try Self.post(
            emulator.port, "/v1/projects/p/locations/l/services/movies/connectors/movies:executeQuery",
            Self.countBody)
        #expect(counted.status == 200, "\(counted)")
        #expect(counted.json["data"]?["movies_aggregate"]?[0]?["_count"]?.intValue != nil)
    }

    @Test func badRequestsAreRefusedAndTheServedServiceStays() throws {
        // given: an emulator serving the movies backend
        let emulator = try Self.startEmpty()
        defer { emulator.stop() }
        let directory = Backend.movies.directory
        #expect(
            try Self.post(emulator.port, "/emulator/configure", #"{"config_directory": "\#(directory)"}"#).status
                == 200)
        let broken = NSTemporaryDirectory() + "configure-broken-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: broken + "/schema", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: broken) }
        try "specVersion: v1\nserviceId: broken\nlocation: l\nschema:\n  source: ./schema\n".write(
            toFile: broken + "/dataconnect.yaml", atomically: true, encoding: .utf8)
        try "type Movie @table { title: Strin! }\n".write(
            toFile: broken + "/schema/schema.gql", atomically: true, encoding: .utf8)

        // when
        let cases: [(body: String, status: Int, code: String, mentions: String)] = [
            ("{", 400, "INVALID_ARGUMENT", "configure"),
            ("[1]", 400, "INVALID_ARGUMENT", "object"),
            (#"{"config_directory": 5}"#, 400, "INVALID_ARGUMENT", "config_directory"),
            (#"{"service_id": "other", "config_directory": "\#(directory)"}"#, 400, "INVALID_ARGUMENT", "other"),
            (#"{"config_directory": "/nonexistent/folder"}"#, 400, "FAILED_PRECONDITION", "/nonexistent/folder"),
            (#"{"config_directory": "\#(broken)"}"#, 400, "FAILED_PRECONDITION", "Strin"),
            // Nothing listens on port 1: the database cannot be reached, and the one served stays.
            (#"{"connectionString": "postgresql://u@127.0.0.1:1/db"}"#, 400, "FAILED_PRECONDITION", "127.0.0.1:1"),
        ]
        for item in cases {
            let answer = try Self.post(emulator.port, "/emulator/configure", item.body)
            // then: a clear refusal
            #expect(answer.status == item.status, "\(item.body): \(answer)")
            #expect(answer.errorStatus == item.code, "\(item.body): \(answer)")
            #expect(answer.errorMessage.contains(item.mentions), "\(item.body): \(answer.errorMessage)")
        }
        // and the movies service is still served
        #expect(try Self.executeQuery(emulator.port).status == 200)
        let get = try rawExchange(port: emulator.port, "GET /emulator/configure HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(get.status == 400)
    }
}
