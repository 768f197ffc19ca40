import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// The `DataConnectTesting` harness itself: reset restores the seed, emulators run side by side, stop frees the
/// port, and a broken backend or seed fails to start with the reason.
@Suite(.onBothDatabases) struct TestEmulatorTests {
    @Test(arguments: Backend.allCases)
    func resetRestoresTheSeed(backend: Backend) async throws {
        // given: a seeded emulator whose data has been changed
        let emulator = try backend.start()
        let client = EmulatorClient(emulator, connector: backend == .movies ? "movies" : "lending")
        let fingerprint = try await Self.fingerprint(client, backend)
        expectData(try await client.send(emulator.url + "/emulator/clear", method: "POST"))
        switch backend {
        case .movies:
            expectData(
                try await client.mutation(
                    "createMovie", ["title": "Extra", "releaseYear": 2000, "genre": "X", "rating": 1]))
        case .library:
            expectData(
                try await client.mutation("joinLibrary", ["name": "Extra"], token: TestEmulator.token(uid: "uid-extra"))
            )
        }
        #expect(try await Self.fingerprint(client, backend) != fingerprint)

        // when
        try emulator.reset()

        // then
        #expect(try await Self.fingerprint(client, backend) == fingerprint)
    }

    @Test func resetRemovesRowsAddedSinceTheSeed() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let token = TestEmulator.token(uid: "uid-temp")
        expectData(try await client.mutation("joinLibrary", ["name": "Temporary"], token: token))
        expectData(
            try await client.mutation("borrowBook", ["isbn": "978-0-06-231609-7", "dueOn": "2030-01-01"], token: token))

        // when
        try emulator.reset()

        // then
        #expect(expectData(try await client.query("myCard", token: token)) == ["member": nil])
        #expect(
            expectData(try await client.query("getBook", ["isbn": "978-0-06-231609-7"]))["book"]?["copiesAvailable"]
                == 3)
    }

    @Test(.on(.sqlite))  // TestEmulator's default database
    func resetWithoutASeedLeavesEmptyTables() async throws {
        // given
        let emulator = try TestEmulator(backend: Backend.library.directory)
        let client = EmulatorClient(emulator, connector: "lending")
        expectData(try await client.admin("mutation { author_insert(data: {name: \"Someone\"}) }"))

        // when
        try emulator.reset()

        // then
        #expect(
            expectData(try await client.admin("query { authors { _count } books { _count } }")) == [
                "authors": [["_count": 0]], "books": [["_count": 0]],
            ])
    }

    @Test func twoEmulatorsRunAtOnceOnDifferentPorts() async throws {
        // given
        let movies = try Backend.movies.start()
        let library = try Backend.library.start()
        let secondLibrary = try Backend.library.start()

        // then
        #expect(Set([movies.port, library.port, secondLibrary.port]).count == 3)
        #expect(movies.url == "http://127.0.0.1:\(movies.port)")
        #expect(library.serviceID == "library")
        #expect(movies.serviceID == "movies")

        // when: each answers for its own service, concurrently
        async let moviesList = EmulatorClient(movies, connector: "movies").query("listMovies")
        async let books = EmulatorClient(library, connector: "lending").query("listBooks")
        let (moviesResult, booksResult) = try await (moviesList, books)

        // then
        #expect(expectData(moviesResult)["movies"]?.arrayValue?.count == 79)
        #expect(expectData(booksResult)["books"]?.arrayValue?.count == 6)
        let crossed = try await EmulatorClient(movies, connector: "lending").query("listBooks")
        expectRequestError(crossed, 404, "NOT_FOUND", messageContains: ["lending"])

        // when: a write to one library
        let token = TestEmulator.token(uid: "uid-only-here")
        expectData(
            try await EmulatorClient(library, connector: "lending").mutation(
                "joinLibrary", ["name": "Only Here"], token: token))

        // then: the other has its own database
        let here = try await EmulatorClient(library, connector: "lending").query("myCard", token: token)
        let there = try await EmulatorClient(secondLibrary, connector: "lending").query("myCard", token: token)
        #expect(expectData(here)["member"]?["name"] == "Only Here")
        #expect(expectData(there) == ["member": nil])
    }

    @Test func stopClosesThePort() async throws {
        // given: an emulator holding a row only it has
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let marker = TestEmulator.token(uid: "uid-stop-marker")
        expectData(try await client.mutation("joinLibrary", ["name": "Marker"], token: marker))

        // when: stopped (twice: stop is idempotent)
        emulator.stop()
        emulator.stop()

        // then: the connection is refused, or, if a parallel test's emulator took the freed port meanwhile, the
        // answer does not come from this one
        do {
            let result = try await client.query("myCard", token: marker)
            #expect(result.data?["member"]?["name"] != "Marker", "\(result)")
        } catch {
            // refused: the port is closed
        }
    }

    @Test func urlHelpersNameTheServiceAndConnector() throws {
        // given
        let emulator = try Backend.library.start()

        // then
        #expect(
            emulator.connectorURL("lending", "executeQuery")
                == "\(emulator.url)/v1/projects/demo/locations/us-central1/services/library/connectors/lending:executeQuery"
        )
        #expect(
            emulator.serviceURL("executeGraphql")
                == "\(emulator.url)/v1/projects/demo/locations/us-central1/services/library:executeGraphql")
        #expect(emulator.host == "127.0.0.1")
    }

    @Test func executeAdminRunsWithoutHTTP() throws {
        // given
        let emulator = try Backend.library.start()

        // when
        let result = emulator.executeAdmin(
            "query($isbn: String!) { book(key: {isbn: $isbn}) { title } }", variables: ["isbn": "978-0-14-143955-6"])

        // then
        #expect(result["data"] == ["book": ["title": "Emma"]])
    }

    @Test func tokensCarryTheClaimsTheAuthLevelsRead() async throws {
        // given
        let emulator = try Backend.library.start()
        let kiosk = EmulatorClient(emulator, connector: "kiosk")

        // when
        let anonymous = try await kiosk.query("countUser", token: TestEmulator.token(uid: "u", anonymous: true))
        let unverified = try await kiosk.query(
            "countVerified", token: TestEmulator.token(uid: "u", email: "u@example.com"))
        let verified = try await kiosk.query(
            "countVerified", token: TestEmulator.token(uid: "u", email: "u@example.com", emailVerified: true))

        // then
        expectRequestError(anonymous, 401, "UNAUTHENTICATED")
        expectRequestError(unverified, 401, "UNAUTHENTICATED")
        expectData(verified)
    }

    @Test(.on(.sqlite))  // TestEmulator's default database
    func aBrokenBackendFailsToStartWithItsDiagnostics() throws {
        // given
        let directory = try Self.temporaryBackend(schema: "type Shelf @table { label: Strin! }")
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // then
        #expect {
            _ = try TestEmulator(backend: directory)
        } throws: { error in
            "\(error)".contains("Strin")
        }
    }

    @Test(.on(.sqlite))  // TestEmulator's default database
    func aFailingSeedFailsToStartWithItsMessage() throws {
        // given
        let directory = try Self.temporaryBackend(schema: "type Shelf @table { label: String! @unique }")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let seed = directory + "/seed_data.gql"
        try "mutation { a: shelf_insert(data: {label: \"A\"}) b: shelf_insert(data: {label: \"A\"}) }".write(
            toFile: seed, atomically: true, encoding: .utf8)

        // then
        #expect {
            _ = try TestEmulator(backend: directory, seedFile: seed)
        } throws: { error in
            "\(error)".contains("seed") && "\(error)".contains("unique")
        }
    }

    // MARK: Helpers

    /// Counts and a few values that identify the seeded state.
    static func fingerprint(_ client: EmulatorClient, _ backend: Backend) async throws -> JSONValue {
        switch backend {
        case .movies:
            return try await client.admin(
                """
                query { movies { _count rating_sum } users { _count } reviews { _count } favoriteMovies { _count }
                  movie(id: "252ff53a-a807-5c12-840b-96bff4798d7b") { title tags director { name } } }
                """
            ).json["data"] ?? .null
        case .library:
            return try await client.admin(
                """
                query { members { _count } books { _count pages_sum } loans(orderBy: [{dueOn: ASC}]) { id status } bookAuthors { _count }
                  book(key: {isbn: "978-0-14-143951-8"}) { timesBorrowed tags } }
                """
            ).json["data"] ?? .null
        }
    }

    /// A backend in a temporary folder: one schema file and, unless `operations` is nil, one connector file.
    static func temporaryBackend(
        schema: String, operations: String? = "query shelves @auth(level: PUBLIC) { shelfs { id } }\n"
    ) throws -> String {
        let directory = NSTemporaryDirectory() + "emulator-tests-\(UUID().uuidString)"
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/schema", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: directory + "/connector", withIntermediateDirectories: true)
        try """
        specVersion: "v1"
        serviceId: "scratch"
        location: "us-central1"
        schema:
          source: "./schema"
        connectorDirs: ["./connector"]
        """.write(toFile: directory + "/dataconnect.yaml", atomically: true, encoding: .utf8)
        try schema.write(toFile: directory + "/schema/schema.gql", atomically: true, encoding: .utf8)
        try "connectorId: \"scratch\"\n".write(
            toFile: directory + "/connector/connector.yaml", atomically: true, encoding: .utf8)
        try operations?.write(toFile: directory + "/connector/queries.gql", atomically: true, encoding: .utf8)
        return directory
    }
}
