import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// How mutation fields without `@transaction` commit: alone, in autocommit, when the store prefers it (PostgreSQL:
/// one round trip instead of three) and the field is one statement that nothing can roll back once it ran; between
/// `BEGIN` and `COMMIT` otherwise, and always on SQLite. The data and the answers are the same either way. A read
/// of one statement is one round trip too: no transaction around it, its statement prepared once per connection.
@Suite(.onBothDatabases) struct AutocommitTests {
    static let operations = """
        mutation AddUser($id: String!, $name: String!) @auth(level: PUBLIC) { user_insert(data: {id: $id, username: $name}) }
        mutation AddUserAtomically($id: String!, $name: String!) @auth(level: PUBLIC) @transaction {
          user_insert(data: {id: $id, username: $name})
        }
        mutation AddTwoUsers @auth(level: PUBLIC) {
          user_insertMany(data: [{id: "u7", username: "gina"}, {id: "u8", username: "hal"}])
        }
        mutation RenameUser($id: String!, $name: String!) @auth(level: PUBLIC) {
          user_update(id: $id, data: {username: $name})
        }
        query MovieById($id: UUID!) @auth(level: PUBLIC) { movie(id: $id) { id title } }
        """

    /// The commands around a field that commits on its own: none where it runs alone.
    static var commandsAroundAField: [String] {
        TestDatabase.current == .postgreSQL ? [] : ["BEGIN IMMEDIATE", "COMMIT"]
    }

    @Test func runsAOneStatementFieldAloneWhereTheStorePrefersIt() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let inserted = backend.mutation("AddUser", ["id": "u9", "name": "ivy"])
        let renamed = backend.mutation("RenameUser", ["id": "u9", "name": "ivy2"])

        // then: committed, with no BEGIN/COMMIT on PostgreSQL
        #expect(inserted.errors.isEmpty, "\(inserted.body)")
        #expect(inserted.data == json(#"{"user_insert": {"id": "u9"}}"#))
        #expect(inserted.commands == Self.commandsAroundAField)
        #expect(renamed.data == json(#"{"user_update": {"id": "u9"}}"#))
        #expect(renamed.commands == Self.commandsAroundAField)
        #expect(try backend.rows(#"SELECT username FROM "user" WHERE id = 'u9'"#) == [[.text("ivy2")]])
    }

    @Test func aFailingFieldAloneWritesNothingAndTheNextFieldsStillRun() throws {
        // given: "alice" is taken
        let backend = try TestBackend(Self.operations)

        // when
        let failed = backend.mutation("AddUser", ["id": "u9", "name": "alice"])
        let next = backend.mutation("AddUser", ["id": "u9", "name": "ivy"])

        // then
        #expect(failed.data == json(#"{"user_insert": null}"#))
        #expect(failed.errors.first?["extensions"]?["code"] == "ALREADY_EXISTS")
        #expect(next.errors.isEmpty, "\(next.body)")
        #expect(try backend.rows(#"SELECT username FROM "user" WHERE id = 'u9'"#) == [[.text("ivy")]])
    }

    @Test func keepsTheTransactionOfATransactionalMutation() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("AddUserAtomically", ["id": "u9", "name": "ivy"])

        // then
        #expect(result.errors.isEmpty, "\(result.body)")
        #expect(result.commands == [backend.store.dialect.beginWriteTransaction, "COMMIT"])
    }

    @Test func keepsTheTransactionOfAFieldOfSeveralStatements() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("AddTwoUsers")

        // then
        #expect(result.data == json(#"{"user_insertMany": [{"id": "u7"}, {"id": "u8"}]}"#))
        #expect(result.commands == [backend.store.dialect.beginWriteTransaction, "COMMIT"])
    }

    @Test func readsWithoutATransaction() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("MovieById", ["id": .string(EngineFixtures.inception)])

        // then
        #expect(result.data == json(#"{"movie": {"id": "a0000000000000000000000000000001", "title": "Inception"}}"#))
        #expect(result.commands == [])
    }

    @Test(.on(.postgreSQL)) func preparesAReadOncePerConnection() throws {
        // given: one connection for the requests (the pool lends the one last given back)
        let backend = try TestBackend(Self.operations)
        let sql = try #require(backend.query("MovieById", ["id": .string(EngineFixtures.inception)]).sql.first)

        // when
        for _ in 0..<3 { _ = backend.query("MovieById", ["id": .string(EngineFixtures.barbie)]) }

        // then: one prepared statement on the server, run four times
        let quoted = "'" + sql.replacingOccurrences(of: "'", with: "''") + "'"
        #expect(
            try backend.rows(
                "SELECT count(*), sum(generic_plans + custom_plans)::int8 FROM pg_prepared_statements WHERE statement = \(quoted)"
            ) == [[.integer(1), .integer(4)]])
    }
}
