import DataConnectEmulator
import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// The emulator over real HTTP as a browser reaches it: DNS rebinding (a foreign `Host`), pages of other
/// origins (`Origin`), CORS preflights, and the clients that send neither header.
@Suite(.on(.sqlite))  // the HTTP Host and Origin policy
struct HostAndOriginTests {
    static let connectorPath = "/v1/projects/p/locations/l/services/movies/connectors/movies"
    static let servicePath = "/v1/projects/p/locations/l/services/movies"

    /// A request as written on the wire; `Connection: close` so the answer ends with the connection.
    static func request(
        _ method: String, _ path: String, host: String?, headers: [(String, String)] = [], body: String? = nil
    ) -> String {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        if let host { text += "Host: \(host)\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        return text + "Connection: close\r\n\r\n" + (body ?? "")
    }

    static func queryBody(_ operation: String, _ variables: String = "{}") -> String {
        #"{"name":"projects/p/locations/l/services/movies/connectors/movies","operationName":"\#(operation)","#
            + #""variables":\#(variables)}"#
    }

    static let createMovie = queryBody(
        "createMovie", #"{"title":"Forged","releaseYear":2001,"genre":"Drama","rating":1}"#)

    static func movieCount(_ emulator: TestEmulator, title: String? = nil) -> Int {
        let filter = title.map { #"(where: {title: {eq: "\#($0)"}})"# } ?? ""
        return emulator.executeAdmin("query { movies\(filter) { id } }")["data"]?["movies"]?.arrayValue?.count ?? -1
    }

    // MARK: Host

    @Test(arguments: ["evil.example", "evil.example:9399", "localhost.evil.example", "127.0.0.1.nip.io", "192.168.1.5"])
    func aForeignHostIsRefusedWith403JSONEverywhere(_ host: String) throws {
        // given
        let emulator = try Backend.movies.start()
        let movies = Self.movieCount(emulator)

        // when
        let info = try rawExchange(port: emulator.emulator.port, Self.request("GET", "/emulator/info", host: host))
        let clear = try rawExchange(port: emulator.emulator.port, Self.request("POST", "/emulator/clear", host: host))
        let mutation = try rawExchange(
            port: emulator.emulator.port,
            Self.request("POST", Self.connectorPath + ":executeMutation", host: host, body: Self.createMovie))

        // then
        for result in [info, clear, mutation] {
            #expect(result.status == 403, "\(result)")
            #expect(result.isErrorEnvelope, "\(result)")
            #expect(result.errorStatus == "PERMISSION_DENIED")
            #expect(result.errorMessage.contains(host))
            #expect(result.errorMessage.contains("--allow-host"))
        }
        #expect(Self.movieCount(emulator) == movies)
        #expect(Self.movieCount(emulator, title: "Forged") == 0)
    }

    @Test(arguments: [
        "127.0.0.1:PORT", "localhost:PORT", "LOCALHOST", "localhost.", "app.localhost:PORT", "127.8.9.10",
        "[::1]:PORT", "",
    ])
    func loopbackHostsAreServed(_ host: String) throws {
        // given
        let emulator = try Backend.movies.start()
        let port = emulator.emulator.port

        // when
        let host = host.replacingOccurrences(of: "PORT", with: String(port))
        let info = try rawExchange(port: port, Self.request("GET", "/emulator/info", host: host))
        let query = try rawExchange(
            port: port,
            Self.request(
                "POST", Self.connectorPath + ":executeQuery", host: host,
                headers: [("Content-Type", "application/json")], body: Self.queryBody("listMovies")))

        // then
        #expect(info.status == 200, "\(info)")
        #expect(query.status == 200, "\(query)")
        #expect(query.json["data"]?["movies"]?.arrayValue?.isEmpty == false)
    }

    @Test func anHTTP10RequestWithoutHostIsServed() throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let info = try rawExchange(port: emulator.emulator.port, "GET /emulator/info HTTP/1.0\r\n\r\n")

        // then
        #expect(info.status == 200, "\(info)")
        #expect(info.json["version"]?.stringValue == Emulator.version)
    }

    @Test func everyInterfaceAcceptsAllowedHostsAndIPAddressesButNoOtherName() throws {
        // given an emulator on 0.0.0.0 that allows one more name
        let emulator = try Emulator(
            options: Emulator.Options(
                backend: Backend.movies.directory, host: "0.0.0.0", port: 0, readers: 1, threads: 2,
                allowedHosts: ["devbox.test"]))
        try emulator.start()
        defer { emulator.stop() }
        let port = emulator.port

        // when
        let answers = try ["devbox.test:\(port)", "10.1.2.3:\(port)", "localhost:\(port)", "other.test:\(port)"].map {
            try rawExchange(port: port, Self.request("GET", "/emulator/info", host: $0)).status
        }

        // then
        #expect(answers == [200, 200, 200, 403])
    }

    @Test func aMalformedAllowListStopsTheEmulatorFromStarting() {
        // when
        let error = #expect(throws: EmulatorError.self) {
            try Emulator(
                options: Emulator.Options(
                    backend: Backend.movies.directory, port: 0, allowedOrigins: ["localhost:3000"]))
        }

        // then
        #expect(error?.message.contains("localhost:3000") == true)
        #expect(error?.message.contains("scheme://host[:port]") == true)
    }

    // MARK: Origin on the admin API

    @Test func aForeignOriginCannotClearExportOrMutate() throws {
        // given
        let emulator = try Backend.movies.start()
        let port = emulator.emulator.port
        let host = "127.0.0.1:\(port)"
        let movies = Self.movieCount(emulator)
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("csrf-\(UUID().uuidString)")
        let evil = [("Origin", "http://evil.example"), ("Content-Type", "text/plain")]

        // when
        let clear = try rawExchange(port: port, Self.request("POST", "/emulator/clear", host: host, headers: evil))
        let export = try rawExchange(
            port: port,
            Self.request("POST", "/emulator/export", host: host, headers: evil, body: #"{"path":"\#(target.path)"}"#))
        let mutation = try rawExchange(
            port: port,
            Self.request(
                "POST", Self.connectorPath + ":executeMutation", host: host, headers: evil, body: Self.createMovie))

        // then
        for result in [clear, export, mutation] {
            #expect(result.status == 403, "\(result)")
            #expect(result.isErrorEnvelope, "\(result)")
            #expect(result.errorMessage.contains("http://evil.example"))
            #expect(result.headers["access-control-allow-origin"] == nil)
        }
        #expect(Self.movieCount(emulator) == movies)
        #expect(Self.movieCount(emulator, title: "Forged") == 0)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test(
        arguments: [
            ("POST", "/emulator/clear", nil),
            ("GET", "/emulator/info", nil),
            ("POST", servicePath + ":executeGraphql", #"{"query":"query { movies { id } }"}"#),
            ("POST", connectorPath + ":impersonateQuery", #"{"operationName":"listMovies","variables":{}}"#),
        ] as [(String, String, String?)])
    func aLoopbackPageOfAnotherPortCannotCallTheAdminAPI(_ method: String, _ path: String, _ body: String?) throws {
        // given
        let emulator = try Backend.movies.start()
        let movies = Self.movieCount(emulator)

        // when
        let result = try rawExchange(
            port: emulator.emulator.port,
            Self.request(
                method, path, host: "localhost:\(emulator.port)", headers: [("Origin", "http://localhost:3000")],
                body: body))

        // then
        #expect(result.status == 403, "\(result)")
        #expect(result.isErrorEnvelope, "\(result)")
        #expect(result.errorMessage.contains("admin API"))
        #expect(Self.movieCount(emulator) == movies)
    }

    @Test func theEmulatorsOwnOriginMayCallTheAdminAPI() throws {
        // given: a page the emulator itself served, as its console would be
        let emulator = try Backend.movies.start()
        let origin = "http://localhost:\(emulator.port)"

        // when
        let clear = try rawExchange(
            port: emulator.emulator.port,
            Self.request("POST", "/emulator/clear", host: "localhost:\(emulator.port)", headers: [("Origin", origin)]))

        // then
        #expect(clear.status == 200, "\(clear)")
        #expect(clear.headers["access-control-allow-origin"] == origin)
        #expect(clear.headers["vary"] == "Origin")
        #expect(Self.movieCount(emulator) == 0)
    }

    @Test func anAllowedOriginMayCallBothAPIs() throws {
        // given
        let emulator = try Emulator(
            options: Emulator.Options(
                backend: Backend.movies.directory, port: 0, readers: 1, threads: 2,
                allowedOrigins: ["https://app.example"]))
        try emulator.start()
        defer { emulator.stop() }
        let origin = [("Origin", "https://app.example"), ("Content-Type", "application/json")]

        // when
        let admin = try rawExchange(
            port: emulator.port,
            Self.request(
                "POST", Self.servicePath + ":executeGraphql", host: "127.0.0.1", headers: origin,
                body: #"{"query":"query { movies { id } }"}"#))
        let client = try rawExchange(
            port: emulator.port,
            Self.request(
                "POST", Self.connectorPath + ":executeQuery", host: "127.0.0.1", headers: origin,
                body: Self.queryBody("listMovies")))

        // then
        #expect(admin.status == 200, "\(admin)")
        #expect(client.status == 200, "\(client)")
        #expect(admin.headers["access-control-allow-origin"] == "https://app.example")
        #expect(client.headers["access-control-allow-origin"] == "https://app.example")
    }

    // MARK: Origin on the client API

    @Test(arguments: ["http://localhost:3000", "http://127.0.0.1:5173", "https://app.localhost", "http://[::1]:8080"])
    func aLoopbackPageMayCallTheClientAPIAndReadTheAnswer(_ origin: String) throws {
        // given
        let emulator = try Backend.movies.start()
        let port = emulator.emulator.port
        let headers = [("Origin", origin), ("Content-Type", "application/json")]

        // when
        let query = try rawExchange(
            port: port,
            Self.request(
                "POST", Self.connectorPath + ":executeQuery", host: "127.0.0.1:\(port)", headers: headers,
                body: Self.queryBody("listMovies")))
        let mutation = try rawExchange(
            port: port,
            Self.request(
                "POST", Self.connectorPath + ":executeMutation", host: "127.0.0.1:\(port)", headers: headers,
                body: Self.createMovie))

        // then
        for result in [query, mutation] {
            #expect(result.status == 200, "\(result)")
            #expect(result.headers["access-control-allow-origin"] == origin)
            #expect(result.headers["vary"] == "Origin")
        }
        #expect(Self.movieCount(emulator, title: "Forged") == 1)
    }

    @Test func anErrorAnswerToAnAcceptedOriginCarriesTheCORSHeaders() throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let result = try rawExchange(
            port: emulator.emulator.port,
            Self.request(
                "POST", Self.connectorPath + ":executeQuery", host: "localhost",
                headers: [("Origin", "http://localhost:3000"), ("Content-Type", "application/json")],
                body: Self.queryBody("noSuchOperation")))

        // then
        #expect(result.status == 404, "\(result)")
        #expect(result.isErrorEnvelope, "\(result)")
        #expect(result.headers["access-control-allow-origin"] == "http://localhost:3000")
    }

    @Test(arguments: ["http://localhost:3000", "http://127.0.0.1:PORT"])
    func aPageRequestWithoutContentTypeIs400AndWritesNothing(_ origin: String) throws {
        // given: a loopback page, and the emulator's own origin
        let emulator = try Backend.movies.start()
        let port = emulator.emulator.port
        let origin = origin.replacingOccurrences(of: "PORT", with: String(port))

        // when: a body, but no Content-Type
        let result = try rawExchange(
            port: port,
            Self.request(
                "POST", Self.connectorPath + ":executeMutation", host: "127.0.0.1:\(port)",
                headers: [("Origin", origin)], body: Self.createMovie))

        // then
        #expect(result.status == 400, "\(result)")
        #expect(result.isErrorEnvelope, "\(result)")
        #expect(result.errorStatus == "INVALID_ARGUMENT")
        #expect(result.errorMessage.contains("Content-Type is missing"))
        #expect(result.headers["access-control-allow-origin"] == origin)
        #expect(Self.movieCount(emulator, title: "Forged") == 0)
    }

    @Test(arguments: ["http://127.0.0.1:PORT/", "http://localhost:3000/"])
    func anOriginWithATrailingSlashIsNotAnOrigin(_ origin: String) throws {
        // given: an Origin is scheme://host[:port]; a trailing slash makes it a URL, not the emulator's own origin
        let emulator = try Backend.movies.start()
        let port = emulator.emulator.port
        let origin = origin.replacingOccurrences(of: "PORT", with: String(port))
        let movies = Self.movieCount(emulator)

        // when
        let clear = try rawExchange(
            port: port,
            Self.request("POST", "/emulator/clear", host: "127.0.0.1:\(port)", headers: [("Origin", origin)]))
        let query = try rawExchange(
            port: port,
            Self.request(
                "POST", Self.connectorPath + ":executeQuery", host: "127.0.0.1:\(port)",
                headers: [("Origin", origin), ("Content-Type", "application/json")], body: Self.queryBody("listMovies"))
        )

        // then
        for result in [clear, query] {
            #expect(result.status == 403, "\(result)")
            #expect(result.errorStatus == "PERMISSION_DENIED")
            #expect(result.errorMessage.contains(origin))
            #expect(result.headers["access-control-allow-origin"] == nil)
        }
        #expect(Self.movieCount(emulator) == movies)
    }

    @Test(arguments: ["null", "http://evil.example", "http://localhost.evil.example:3000", "file://"])
    func otherPagesCannotCallTheClientAPI(_ origin: String) throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let result = try rawExchange(
            port: emulator.emulator.port,
            Self.request(
                "POST", Self.connectorPath + ":executeQuery", host: "127.0.0.1", headers: [("Origin", origin)],
                body: Self.queryBody("listMovies")))

        // then
        #expect(result.status == 403, "\(result)")
        #expect(result.isErrorEnvelope, "\(result)")
        #expect(result.errorMessage.contains("client API"))
    }

    @Test func theStreamAcceptsALoopbackPageAndRefusesAForeignOne() throws {
        // given
        let emulator = try Backend.movies.start()
        let path = "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/movies"

        // when
        let accepted = try WebSocketClient(
            port: emulator.emulator.port, path: path,
            headers: WebSocketClient.standardHeaders(extra: [("Origin", "http://localhost:3000")]))
        defer { accepted.close() }
        let refused = try WebSocketClient(
            port: emulator.emulator.port, path: path,
            headers: WebSocketClient.standardHeaders(extra: [("Origin", "http://evil.example")]))
        defer { refused.close() }
        accepted.send([
            "requestId": "1", "name": "projects/p/locations/l/services/movies/connectors/movies",
            "subscribe": ["operationName": "listMovies", "variables": [:]],
        ])

        // then
        #expect(accepted.status == 101)
        #expect(accepted.nextResult()?["cancelled"] == .bool(false))
        #expect(refused.status == 403)
        #expect((try? JSONValue(parsing: refused.body))?["error"]?["status"] == "PERMISSION_DENIED")
    }

    // MARK: Preflights

    @Test func aPreflightFromALoopbackPageIsAnswered() throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let result = try rawExchange(
            port: emulator.emulator.port,
            Self.request(
                "OPTIONS", Self.connectorPath + ":executeMutation", host: "127.0.0.1",
                headers: [
                    ("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", "content-type,x-firebase-auth-token,x-firebase-appcheck"),
                ]))

        // then
        #expect(result.status == 204, "\(result)")
        #expect(result.headers["access-control-allow-origin"] == "http://localhost:3000")
        #expect(result.headers["vary"] == "Origin")
        #expect(result.headers["access-control-allow-methods"] == "GET, POST")
        #expect(
            result.headers["access-control-allow-headers"] == "content-type, x-firebase-auth-token, x-firebase-appcheck"
        )
        #expect(result.body.isEmpty)
    }

    @Test(arguments: [
        ("http://evil.example", connectorPath + ":executeMutation"),
        ("http://localhost:3000", "/emulator/export"),
        ("http://localhost:3000", servicePath + ":executeGraphql"),
    ])
    func aRefusedPreflightIs403JSON(_ origin: String, _ path: String) throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let result = try rawExchange(
            port: emulator.emulator.port,
            Self.request(
                "OPTIONS", path, host: "127.0.0.1",
                headers: [("Origin", origin), ("Access-Control-Request-Method", "POST")]))

        // then
        #expect(result.status == 403, "\(result)")
        #expect(result.isErrorEnvelope, "\(result)")
        #expect(result.headers["access-control-allow-origin"] == nil)
    }

    // MARK: Clients without Origin

    @Test func aRequestWithoutOriginOrContentTypeIsServed() throws {
        // given: what test suites and scripts send
        let emulator = try Backend.movies.start()
        let port = emulator.emulator.port

        // when
        let query = try rawExchange(
            port: port,
            Self.request(
                "POST", Self.connectorPath + ":executeQuery", host: "127.0.0.1:\(port)",
                body: Self.queryBody("listMovies")))
        let clear = try rawExchange(port: port, Self.request("POST", "/emulator/clear", host: "127.0.0.1:\(port)"))

        // then
        #expect(query.status == 200, "\(query)")
        #expect(query.json["data"]?["movies"]?.arrayValue?.isEmpty == false)
        #expect(query.headers["access-control-allow-origin"] == nil)
        #expect(clear.status == 200, "\(clear)")
        #expect(Self.movieCount(emulator) == 0)
    }
}
