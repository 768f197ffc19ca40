import DataConnectEmulator
import DataConnectEngine
import DataConnectWire
import EmulatorTesting
import Foundation
import PostgreSQLTesting
import Testing

/// The emulator serving from PostgreSQL: the movies backend over HTTP, the admin endpoints, a connection
/// string given at start or by `POST /emulator/configure`, several processes' worth of emulators on one
/// database, and a server that is down or restarts.
@Suite(.on(.postgreSQL))  // the emulator on PostgreSQL; it starts its own schemas
struct PostgreSQLEmulatorTests {
    static let listMovies = ConfigureEndpointTests.listMovies

    static func get(_ port: UInt16, _ path: String) throws -> RawHTTPResult {
        try rawExchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    }

    static func movieTitles(_ port: UInt16) throws -> [String] {
        let answer = try ConfigureEndpointTests.executeQuery(port)
        return answer.json["data"]?["movies"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
    }

    static func start(_ connectionString: String, seeded: Bool = true) throws -> Emulator {
        let emulator = try Emulator(
            options: Emulator.Options(
                backend: Backend.movies.directory, port: 0, postgreSQL: connectionString,
                seedFile: seeded ? Backend.movies.seedFile : nil, readers: 2, threads: 2))
        try emulator.start()
        return emulator
    }

    @Test func servesTheMoviesBackendAndItsAdminEndpoints() throws {
        // given: the movies backend, seeded, on a fresh schema; the same on SQLite for comparison
        let schema = try TestPostgreSQLSchema()
        defer { withExtendedLifetime(schema) {} }
        let emulator = try Self.start(schema.connectionString)
        defer { emulator.stop() }
        let sqlite = try Backend.movies.start(on: .sqlite)

        // when
        let info = try Self.get(emulator.port, "/emulator/info")
        let titles = try Self.movieTitles(emulator.port)
        let export = try ConfigureEndpointTests.post(
            emulator.port, "/emulator/export", #"{"path": "\#(NSTemporaryDirectory())pg-export"}"#)
        let clear = try ConfigureEndpointTests.post(emulator.port, "/emulator/clear", "{}")
        let afterClear = try Self.movieTitles(emulator.port)

        // then: the database is named, the answer is the one SQLite gives, clearing empties it and export says
        // why it is not offered
        #expect(info.json["database"]?["engine"] == "postgresql")
        #expect(info.json["database"]?["location"]?.stringValue?.hasPrefix("127.0.0.1:") == true)
        #expect(info.json["services"]?[0]?["connectionString"]?.stringValue?.hasPrefix("127.0.0.1:") == true)
        #expect(!titles.isEmpty)
        // (listMovies has no orderBy: the two databases may list the rows in another order)
        #expect(titles.sorted() == (try Self.movieTitles(UInt16(sqlite.port))).sorted())
        #expect(clear.status == 200, "\(clear)")
        #expect(afterClear.isEmpty)
        #expect(export.status >= 400)
        #expect(export.errorMessage.contains("pg_dump"), "\(export)")
    }

    @Test func anUnreachableServerIsOneLineNamingHostPortAndCause() throws {
        // given: a port nobody listens on
        let port = try PostgreSQLCluster.freePort()

        // when
        var message = ""
        do {
            _ = try Emulator(
                options: Emulator.Options(
                    backend: Backend.movies.directory, port: 0, postgreSQL: "postgres://u@127.0.0.1:\(port)/db"))
        } catch {
            message = error.message
        }

        // then
        #expect(message.contains("127.0.0.1:\(port)"), "\(message)")
        #expect(message.contains("refused"), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
    }

    @Test func configureWithAConnectionStringMovesTheServiceToPostgreSQL() throws {
        // given: an emulator serving the movies backend from SQLite
        let schema = try TestPostgreSQLSchema()
        defer { withExtendedLifetime(schema) {} }
        let emulator = try Emulator(options: Emulator.Options(backend: Backend.movies.directory, port: 0, threads: 2))
        try emulator.start()
        defer { emulator.stop() }

        // when: as firebase-tools configures its emulator
        let configured = try ConfigureEndpointTests.post(
            emulator.port, "/emulator/configure",
            #"{"serviceId": "movies", "connectionString": "\#(schema.connectionString)"}"#)
        let info = try Self.get(emulator.port, "/emulator/info")
        let seeded = emulator.executeAdmin(
            #"mutation { movie_insert(data: {title: "On PostgreSQL", releaseYear: 2026, genre: "drama"}) }"#)

        // then
        #expect(configured.status == 200, "\(configured)")
        #expect(info.json["database"]?["engine"] == "postgresql")
        #expect(seeded.status == .ok)
        #expect(try Self.movieTitles(emulator.port) == ["On PostgreSQL"])
    }

    @Test func emulatorsStartingTogetherShareOneDatabase() async throws {
        // given: one schema, four emulators migrating it at the same time
        let schema = try TestPostgreSQLSchema()
        defer { withExtendedLifetime(schema) {} }
        let emulators = try await withThrowingTaskGroup(of: Emulator.self) { group in
            for _ in 0..<4 {
                group.addTask { try Self.start(schema.connectionString, seeded: false) }
            }
            return try await group.reduce(into: [Emulator]()) { $0.append($1) }
        }
        defer { emulators.forEach { $0.stop() } }

        // when: one writes
        let written = emulators[0].executeAdmin(
            #"mutation { movie_insert(data: {title: "Shared", releaseYear: 2026, genre: "drama"}) }"#)

        // then: every one reads it
        #expect(written.status == .ok)
        for emulator in emulators {
            #expect(try Self.movieTitles(emulator.port) == ["Shared"])
        }
    }

    @Test func aRestartedServerFailsRequestsWithUnavailableThenServesAgain() throws {
        // given: an emulator on a cluster of its own
        let cluster = try PostgreSQLCluster.start()
        defer { cluster.stop() }
        let emulator = try Self.start(cluster.url)
        defer { emulator.stop() }
        let before = try Self.movieTitles(emulator.port)

        // when: the server restarts under it
        try cluster.restart()
        var statuses: [String] = []
        var titles: [String] = []
        for _ in 0..<10 {
            let answer = try ConfigureEndpointTests.executeQuery(emulator.port)
            if answer.status == 200 {
                titles = answer.json["data"]?["movies"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
                break
            }
            statuses.append(answer.errorStatus ?? "HTTP \(answer.status)")
        }

        // then: requests that met a lost connection said UNAVAILABLE, and the emulator reconnected
        #expect(statuses.allSatisfy { $0 == "UNAVAILABLE" }, "\(statuses)")
        #expect(titles.sorted() == before.sorted())
    }

    @Test func aMutationMeetingALostConnectionFailsItsFieldWithUnavailableThenWrites() throws {
        // given: an emulator on a cluster of its own
        let cluster = try PostgreSQLCluster.start()
        defer { cluster.stop() }
        let emulator = try Self.start(cluster.url)
        defer { emulator.stop() }
        let insert = #"mutation { movie_insert(data: {title: "After", releaseYear: 2026, genre: "drama"}) }"#

        // when: the server restarts under it, then one-statement mutations run (alone, in autocommit)
        try cluster.restart()
        var failures: [String] = []
        var written: JSONValue?
        for _ in 0..<10 {
            let body = (try? JSONValue(parsing: emulator.executeAdmin(insert).body)) ?? .null
            if let error = body["errors"]?[0] {
                failures.append(
                    "\(error["extensions"]?["code"]?.stringValue ?? "-") \(error["message"]?.stringValue ?? "")")
                continue
            }
            written = body["data"]
            break
        }

        // then: as when BEGIN met the lost connection, the field failed with UNAVAILABLE (the request did not),
        // and the emulator reconnected and wrote
        #expect(failures.allSatisfy { $0.hasPrefix("UNAVAILABLE cannot start the field: ") }, "\(failures)")
        #expect(written?["movie_insert"]?["id"] != nil, "\(String(describing: written))")
        #expect(try Self.movieTitles(emulator.port).contains("After"))
    }
}
