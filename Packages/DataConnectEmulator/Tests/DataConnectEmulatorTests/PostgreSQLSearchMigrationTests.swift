import DataConnectEngine
import DataConnectPostgreSQLStore
import DataConnectSchema
import EmulatorTesting
import GraphQLLanguage
import PostgreSQLKit
import Testing

/// Migrations of `@searchable` on PostgreSQL: the stored search document follows the searchable fields.
@Suite(.on(.postgreSQL))  // migrations of the PostgreSQL search document
struct PostgreSQLSearchMigrationTests {
    static let titleOnly = "type Film @table { title: String! @searchable, notes: String }"
    static let both = "type Film @table { title: String! @searchable, notes: String @searchable }"
    static let neither = "type Film @table { title: String!, notes: String }"

    /// A schema of its own, migrated to ``titleOnly``, with a row whose notes hold a word the title lacks.
    struct Database {
        let schema: TestPostgreSQLSchema
        let connection: PGConnection

        init() throws {
            schema = try TestPostgreSQLSchema()
            connection = try PGConnection(schema.connectionString)
            let created = try Self.migrator(PostgreSQLSearchMigrationTests.titleOnly).migrate(on: connection)
            #expect(created.issues.isEmpty)
            try connection.execute(
                "INSERT INTO film (id, title, notes) VALUES (gen_random_uuid(), 'Harbour lights', 'the lighthouse keeper')"
            )
        }

        static func migrator(_ text: String) throws -> PostgreSQLMigrator {
            PostgreSQLMigrator(model: try #require(SchemaCompiler.compile([Source(name: "s.gql", text: text)]).model))
        }

        func count(_ sql: String, _ parameters: [PGValue] = []) throws -> String? {
            try connection.query(sql, parameters).string(row: 0, column: 0)
        }

        /// How many rows the stored document finds for `word`.
        func matches(_ word: String) throws -> String? {
            try count(
                "SELECT count(*) FROM film WHERE _dc_search_document @@ plainto_tsquery('english', $1)", [.text(word)])
        }
    }

    @Test
    func theSearchDocumentFollowsTheSearchableFields() throws {
        // given
        let database = try Database()
        let before = try database.matches("keeper")

        // when: the notes become searchable too
        let widened = try Database.migrator(Self.both).migrate(on: database.connection)
        let after = try database.matches("keeper")
        let planAfter = try Database.migrator(Self.both).plan(on: database.connection)
        // and then no field is
        let narrowed = try Database.migrator(Self.neither).migrate(on: database.connection)
        let documents = try database.count(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() "
                + "AND table_name = 'film' AND column_name = '_dc_search_document'")
        let indexes = try database.count(
            "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'film_search_idx'")
        let planAtEnd = try Database.migrator(Self.neither).plan(on: database.connection)

        // then: the document is built again from both fields, then dropped with its index; nothing is left to do
        #expect(widened.issues.isEmpty && narrowed.issues.isEmpty)
        #expect(before == "0")
        #expect(after == "1")
        #expect(planAfter.isEmpty, "\(planAfter.script)")
        #expect(documents == "0")
        #expect(indexes == "0")
        #expect(planAtEnd.isEmpty, "\(planAtEnd.script)")
        #expect(try database.count("SELECT count(*) FROM film") == "1")
    }

    @Test
    func aStaleDocumentAnEarlierVersionLeftIsRebuiltAtTheNextStart() throws {
        // given: what an earlier migrator left once the notes became searchable: the new schema's fingerprint
        // recorded, no index definition, and the document still built from the title alone
        let database = try Database()
        let meta = PGConnection.quoteIdentifier(PostgreSQLMigrator.metadataTable)
        try database.connection.execute("DELETE FROM \(meta) WHERE starts_with(\"key\", 'search:')")
        try database.connection.query(
            "UPDATE \(meta) SET \"value\" = $1 WHERE \"key\" = 'fingerprint'",
            [.text(try Database.migrator(Self.both).ddl.fingerprint)])
        let before = try database.matches("keeper")

        // when: an emulator starts on it (its start-up migration), then another one
        let first = try Database.migrator(Self.both).migrate(on: database.connection)
        let after = try database.matches("keeper")
        let second = try Database.migrator(Self.both).migrate(on: database.connection)

        // then: the first start builds the document again; the second finds the database up to date
        #expect(before == "0")
        #expect(!first.wasUpToDate && first.issues.isEmpty, "\(first.issues)")
        #expect(after == "1")
        #expect(second.wasUpToDate)
    }
}
