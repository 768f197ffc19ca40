import DataConnectEmulator
import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// Native SQL root fields (`_select`, `_selectFirst`, `_execute`, `_executeReturning`) over HTTP, on the
/// database of this test process: parameters bound (never interpolated), refusals at load or as 400s, and
/// SQLite's answer to PostgreSQL-only SQL.
@Suite(.onBothDatabases) struct NativeSQLTests {
    let emulator: TestEmulator
    let client: EmulatorClient

    static let directory: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/nativesql").path
    }()

    /// Whether the running test serves from PostgreSQL.
    let onPostgreSQL: Bool

    init() throws {
        let database = try TestDatabase.required()
        emulator = try TestEmulator(
            backend: Self.directory, seedFile: Self.directory + "/seed_data.gql", database: database)
        client = EmulatorClient(emulator, connector: "native")
        onPostgreSQL = database == .postgreSQL
    }

    @Test func aSubscriptionIsPushedAfterANativeExecuteChangesATable() async throws {
        // given: a subscriber to a native select over the WebSocket stream
        let stream = try WebSocketClient(
            port: UInt16(emulator.port),
            path: "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/nativesql")
        defer { stream.close() }
        stream.send([
            "requestId": "1", "subscribe": ["operationName": "MoviesByGenre", "variables": ["genre": "Fable"]],
            "name": "projects/p/locations/l/services/nativesql/connectors/native",
        ])
        let first = stream.nextResult()

        // when: native SQL renames a genre, a change the engine cannot attribute to a table
        let renamed = try await client.mutation("RenameGenre", ["from": "Fantasy", "to": "Fable"])
        let pushed = stream.nextResult()

        // then
        #expect(first?["data"]?["_select"] == [], "\(first ?? .null)")
        #expect(renamed.data?["_execute"] == 1, "\(renamed)")
        #expect(
            pushed?["data"]?["_select"] == [["title": "El laberinto del fauno", "rating": 5]], "\(pushed ?? .null)")
    }

    @Test func selectBindsItsParameters() async throws {
        // when
        let result = try await client.query("MoviesByGenre", ["genre": "Fantasy"])

        // then
        #expect(expectData(result) == ["_select": [["title": "El laberinto del fauno", "rating": 5]]])
    }

    @Test func aHostileStringComesBackAsData() async throws {
        // given
        let hostile = "'; DROP TABLE movie; --"

        // when
        let echo = try await client.query("Echo", ["text": .string(hostile)])
        let none = try await client.query("FirstTitle", ["title": .string(hostile)])
        let count = try await client.admin("query { movies { _count } }")

        // then: the text is a value, and the table is still there
        #expect(expectData(echo) == ["_selectFirst": ["echoed": .string(hostile), "fixed": "literal"]])
        #expect(expectData(none) == ["_selectFirst": nil])
        #expect(expectData(count)["movies"]?[0]?["_count"]?.intValue ?? 0 > 0)
    }

    @Test func selectFirstAnswersOneRow() async throws {
        // when
        let result = try await client.query("FirstTitle", ["title": "Alien"])

        // then
        #expect(expectData(result) == ["_selectFirst": ["title": "Alien"]])
    }

    @Test func executeCountsAndExecuteReturningAnswersRows() async throws {
        // when
        let renamed = try await client.mutation("RenameGenre", ["from": "Crime", "to": "Noir"])
        let noir = try await client.query("MoviesByGenre", ["genre": "Noir"])
        let added = try await client.mutation(
            "AddPerson", ["id": "0123456789abcdef0123456789abcdef", "name": "Agnès Varda"])

        // then
        #expect(expectData(renamed) == ["_execute": 4])
        #expect(expectData(noir)["_select"]?.arrayValue?.count == 4)
        #expect(expectData(added) == ["_executeReturning": [["name": "Agnès Varda"]]])
    }

    @Test func anExprParameterIsTheCallersUid() async throws {
        // when
        let signedIn = try await client.query("MyUid", token: TestEmulator.token(uid: "uid-ada", email: "a@b.c"))
        let anonymous = try await client.query("MyUid")

        // then: @auth(level: USER) applies as for any operation
        #expect(expectData(signedIn) == ["_selectFirst": ["uid": "uid-ada"]])
        expectRequestError(anonymous, 401, "UNAUTHENTICATED")
    }

    @Test func aConnectorWithRefusedSQLIsRefusedAtStartWithItsLocation() throws {
        // given: the fixture with one more operation whose SQL is not a query
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nativesql-\(UUID())")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.directory), to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connector = directory.appendingPathComponent("connector/drops.gql")
        try #"query DropsATable @auth(level: PUBLIC) { _select(sql: "DROP TABLE movie") }"#.write(
            to: connector, atomically: true, encoding: .utf8)

        // when
        var refusal: EmulatorError?
        do {
            _ = try Emulator(options: .init(backend: directory.path, port: 0))
        } catch {
            refusal = error
        }

        // then: the emulator does not start, and says where, as `dataconnect validate` does
        let lines = refusal?.diagnostics.map(\.description) ?? []
        #expect(
            lines == [
                connector.path
                    + #":1:55: error: "_select" runs read-only queries: the SQL must start with SELECT, TABLE or WITH, not DROP"#
            ], "\(String(describing: refusal))")
    }

    @Test(arguments: [
        ("query { _select(sql: \"DROP TABLE movie\") }", "SELECT, TABLE or WITH"),
        ("query { _select(sql: \"SELECT 1 -- a comment\") }", "comments"),
        ("query { _select(sql: \"SELECT 1; DELETE FROM movie\") }", "one statement"),
        ("query($s: SQL_Query!) { _select(sql: $s) }", "SQL_Query"),
        ("query($s: String!) { _select(sql: $s) }", "never from a variable"),
        ("query { _select(sql: \"SELECT $1, $2\", params: [1]) }", "$1...$2"),
        ("query { _select(sql: \"SELECT 1\", params: [{a: 1}]) }", "_expr"),
        ("mutation { _execute(sql: \"CREATE TABLE x (a int)\") }", "not CREATE"),
    ])
    func refusedStatementsAre400s(document: String, fragment: String) async throws {
        // when
        let result = try await client.admin(document)

        // then
        expectRequestError(result, 400, "INVALID_ARGUMENT", messageContains: [fragment])
    }

    @Test func aSQLErrorIsA400WithTheDatabasesMessage() async throws {
        // when
        let result = try await client.admin(#"query { _select(sql: "SELECT * FROM no_such_table") }"#)

        // then
        expectRequestError(result, 400, "INVALID_ARGUMENT", messageContains: ["no_such_table"])
    }

    @Test func aQueryThatWritesIsRefused() async throws {
        // when: a WITH that deletes (PostgreSQL refuses it inside the read-only wrapping, SQLite as a writer)
        let result = try await client.admin(
            #"query { _select(sql: "WITH gone AS (DELETE FROM movie RETURNING title) SELECT * FROM gone") }"#)
        let count = try await client.admin("query { movies { _count } }")

        // then
        expectRequestError(result, 400, "INVALID_ARGUMENT")
        #expect(expectData(count)["movies"]?[0]?["_count"]?.intValue ?? 0 > 0)
    }

    @Test func postgreSQLOnlySQLNamesPostgresOnSQLite() async throws {
        // when
        let result = try await client.admin(#"query { _select(sql: "SELECT 1::int AS one, 'a' || 'b' AS ab") }"#)

        // then
        if onPostgreSQL {
            #expect(expectData(result) == ["_select": [["one": 1, "ab": "ab"]]])
        } else {
            expectRequestError(result, 400, "INVALID_ARGUMENT", messageContains: ["--postgres"])
        }
    }

    @Test func aMutationsQueryFieldRunsNativeSQLReadOnly() async throws {
        // when
        let result = try await client.admin(
            #"mutation { query { _selectFirst(sql: "SELECT title FROM movie WHERE title = $1", params: ["Alien"]) } }"#
        )

        // then
        #expect(expectData(result) == ["query": ["_selectFirst": ["title": "Alien"]]])
    }
}
