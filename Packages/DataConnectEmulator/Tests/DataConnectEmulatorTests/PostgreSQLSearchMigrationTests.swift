import DataConnectEngine
import DataConnectSchema
import EmulatorTesting
import GraphQLLanguage
import PostgreSQLKit
import Testing

/// Migrations of `@searchable` on PostgreSQL: the stored search document follows the searchable fields.
@Suite struct PostgreSQLSearchMigrationTests {
    @Test(.enabled(if: TestDatabase.current == .postgreSQL))
    func theSearchDocumentFollowsTheSearchableFields() throws {
        // given: a schema of its own with a searchable title, and a row whose notes hold a word the title lacks
        let schema = try TestPostgreSQLSchema()
        defer { withExtendedLifetime(schema) {} }
        let connection = try PGConnection(schema.connectionString)
        func migrator(_ text: String) throws -> PostgreSQLMigrator {
            PostgreSQLMigrator(model: try #require(SchemaCompiler.compile([Source(name: "s.gql", text: text)]).model))
        }
        func count(_ sql: String, _ parameters: [PGValue] = []) throws -> String? {
            try connection.query(sql, parameters).string(row: 0, column: 0)
        }
        func matches(_ word: String) throws -> String? {
            try count(
                "SELECT count(*) FROM film WHERE _dc_search_document @@ plainto_tsquery('english', $1)", [.text(word)])
        }
        let titleOnly = "type Film @table { title: String! @searchable, notes: String }"
        let both = "type Film @table { title: String! @searchable, notes: String @searchable }"
        let neither = "type Film @table { title: String!, notes: String }"
        let created = try migrator(titleOnly).migrate(on: connection)
        try connection.execute(
            "INSERT INTO film (id, title, notes) VALUES (gen_random_uuid(), 'Harbour lights', 'the lighthouse keeper')")
        let before = try matches("keeper")

        // when: the notes become searchable too
        let widened = try migrator(both).migrate(on: connection)
        let after = try matches("keeper")
        let planAfter = try migrator(both).plan(on: connection)
        // and then no field is
        let narrowed = try migrator(neither).migrate(on: connection)
        let documents = try count(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() "
                + "AND table_name = 'film' AND column_name = '_dc_search_document'")
        let indexes = try count(
            "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'film_search_idx'")
        let planAtEnd = try migrator(neither).plan(on: connection)

        // then: the document is built again from both fields, then dropped with its index; nothing is left to do
        #expect(created.issues.isEmpty && widened.issues.isEmpty && narrowed.issues.isEmpty)
        #expect(before == "0")
        #expect(after == "1")
        #expect(planAfter.isEmpty, "\(planAfter.script)")
        #expect(documents == "0")
        #expect(indexes == "0")
        #expect(planAtEnd.isEmpty, "\(planAtEnd.script)")
        #expect(try count("SELECT count(*) FROM film") == "1")
    }
}
