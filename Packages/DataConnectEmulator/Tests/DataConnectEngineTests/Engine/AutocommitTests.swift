import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// How mutation fields without `@transaction` commit: alone, in autocommit, when the store prefers it (PostgreSQL:
/// one round trip instead of three) and the field is one statement that nothing can roll back once it ran; between
/// `BEGIN` and `COMMIT` otherwise, and always on SQLite. The data and the answers are the same either way.
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
}
