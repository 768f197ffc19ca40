import DataConnectEmulator
import DataConnectEngine
import DataConnectPostgreSQLStore
import DataConnectSchema
import DataConnectWire
import EmulatorTesting
import Foundation
import GraphQLLanguage
import PostgreSQLKit
import Testing

/// A required field without a default added to a table with rows: the migration knows the step will fail before
/// it runs, says what to do, and applies nothing of it; a reload keeps serving the last good schema.
@Suite(.onBothDatabases) struct RequiredColumnMigrationTests {
    static let before = "type Recipe @table { title: String!, notes: String }"
    static let servings = "type Recipe @table { title: String!, notes: String, servings: Int! }"
    static let servingsWithDefault =
        "type Recipe @table { title: String!, notes: String, servings: Int! @default(value: 2) }"
    static let notesRequired = "type Recipe @table { title: String!, notes: String! }"

    // MARK: The PostgreSQL plan

    @Test(.on(.postgreSQL))  // the PostgreSQL migrator's plan
    func aRequiredColumnWithoutDefaultOnATableWithRowsIsAStepThatWillFail() throws {
        // given
        let database = try Database(rows: 1)

        // when
        let migrator = try Self.migrator(Self.servings)
        let plan = try migrator.plan(on: database.connection)
        let report = try migrator.migrate(on: database.connection)

        // then: the step is planned, marked, and explained; nothing ran
        let statement = #"ALTER TABLE "recipe" ADD COLUMN "servings" int4 NOT NULL"#
        #expect(plan.additive == [statement])
        #expect(plan.blocked.map(\.statement) == [statement])
        let issue = try #require(plan.blocked.first?.issue)
        #expect(issue.isBlocking && issue.table == "recipe" && issue.column == "servings")
        #expect(issue.message.contains("field Recipe.servings is non-null"))
        #expect(issue.message.contains("@default(value:) or @default(sql:)"))
        #expect(issue.message.contains("make it optional, fill it in for the existing rows"))
        #expect(plan.script == "\(statement);\n-- will fail: \(issue)\n")
        #expect(report.statements.isEmpty)
        #expect(report.blockingIssues == [issue])
        #expect(try database.columns() == ["id", "notes", "title"])
    }

    @Test(.on(.postgreSQL))  // the PostgreSQL migrator's plan
    func onAnEmptyTableTheRequiredColumnIsAdded() throws {
        // given
        let database = try Database(rows: 0)

        // when
        let migrator = try Self.migrator(Self.servings)
        let plan = try migrator.plan(on: database.connection)
        let report = try migrator.migrate(on: database.connection)

        // then
        #expect(plan.blocked.isEmpty)
        #expect(!plan.script.contains("will fail"))
        #expect(report.issues.isEmpty)
        #expect(try database.columns() == ["id", "notes", "servings", "title"])
    }

    @Test(.on(.postgreSQL))  // the PostgreSQL migrator's plan
    func aDefaultGivesTheRowsAValueAndTheStepRuns() throws {
        // given
        let database = try Database(rows: 2)

        // when
        let migrator = try Self.migrator(Self.servingsWithDefault)
        let plan = try migrator.plan(on: database.connection)
        let report = try migrator.migrate(on: database.connection)

        // then
        #expect(plan.blocked.isEmpty)
        #expect(report.issues.isEmpty)
        let values = try database.connection.query("SELECT DISTINCT servings FROM recipe")
        #expect(values.rowCount == 1 && values.string(row: 0, column: 0) == "2")
    }

    @Test(.on(.postgreSQL))  // the PostgreSQL migrator's plan
    func makingAColumnRequiredOverNullsIsAStepThatWillFail() throws {
        // given: a row without notes
        let database = try Database(rows: 1)

        // when
        let migrator = try Self.migrator(Self.notesRequired)
        let plan = try migrator.plan(on: database.connection)
        try database.connection.execute("UPDATE recipe SET notes = 'salt'")
        let filled = try migrator.plan(on: database.connection)

        // then
        #expect(plan.blocked.map(\.statement) == [#"ALTER TABLE "recipe" ALTER COLUMN "notes" SET NOT NULL"#])
        #expect(plan.blocked.first?.issue.message.contains("give those rows a value first") == true)
        #expect(filled.blocked.isEmpty)
    }

    // MARK: The emulator, on either database

    @Test func aReloadThatWouldFailKeepsServingTheLastGoodSchemaAndSaysWhatToDo() throws {
        // given: an emulator serving recipes, with one row
        let backend = try TestEmulatorTests.temporaryBackend(schema: Self.before, operations: nil)
        defer { try? FileManager.default.removeItem(atPath: backend) }
        let database = try PersistentDatabase()
        let log = Lines()
        let emulator = try database.emulator(backend, log: log)
        defer { emulator.stop() }
        let inserted = emulator.executeAdmin(#"mutation { recipe_insert(data: {title: "Soup"}) }"#)
        #expect(inserted.status == .ok)

        // when: a required field without a default is added
        try Self.writeSchema(Self.servings, to: backend)
        emulator.reload()

        // then: the log says which field and what to do; the last good schema is served, its data readable
        #expect(log.contains("cannot add a required column without a default to a table that has rows"))
        #expect(log.contains("field Recipe.servings is non-null"))
        #expect(log.contains("still serving the last good version"))
        #expect(!log.contains("reloaded"))
        #expect(emulator.engine.service.api.model.table("Recipe")?.column("servings") == nil)
        #expect(Self.titles(emulator) == ["Soup"])

        // when: the field gets a default
        try Self.writeSchema(Self.servingsWithDefault, to: backend)
        emulator.reload()

        // then
        #expect(log.contains("reloaded: serving the new schema and connectors"))
        let body = try JSONValue(parsing: emulator.executeAdmin("query { recipes { title servings } }").body)
        #expect(body["data"]?["recipes"] == [["title": "Soup", "servings": 2]])
    }

    @Test func aStartThatWouldFailRefusesWithWhatToDo() throws {
        // given: a persistent database with a recipe
        let backend = try TestEmulatorTests.temporaryBackend(schema: Self.before, operations: nil)
        defer { try? FileManager.default.removeItem(atPath: backend) }
        let database = try PersistentDatabase()
        let first = try database.emulator(backend, log: Lines())
        #expect(first.executeAdmin(#"mutation { recipe_insert(data: {title: "Soup"}) }"#).status == .ok)
        first.stop()
        try Self.writeSchema(Self.servings, to: backend)

        // when
        let message: String
        do {
            try database.emulator(backend, log: Lines()).stop()
            message = ""
        } catch {
            message = error.message
        }

        // then
        #expect(
            message.hasPrefix("cannot migrate the database to the schema, the data does not allow it:"), "\(message)")
        #expect(message.contains(#"table "recipe", column "servings": cannot add a required column"#), "\(message)")
    }

    // MARK: Helpers

    static func migrator(_ schema: String) throws -> PostgreSQLMigrator {
        PostgreSQLMigrator(model: try #require(SchemaCompiler.compile([Source(name: "s.gql", text: schema)]).model))
    }

    static func writeSchema(_ schema: String, to backend: String) throws {
        try schema.write(toFile: backend + "/schema/schema.gql", atomically: true, encoding: .utf8)
    }

    /// The recipes' titles, through the admin API.
    static func titles(_ emulator: Emulator) -> [String]? {
        let body = try? JSONValue(parsing: emulator.executeAdmin("query { recipes { title } }").body)
        return body?["data"]?["recipes"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
    }

    /// A PostgreSQL schema of its own at ``before``, with rows.
    struct Database {
        let schema: TestPostgreSQLSchema
        let connection: PGConnection

        init(rows: Int) throws {
            schema = try TestPostgreSQLSchema()
            connection = try PGConnection(schema.connectionString)
            let created = try RequiredColumnMigrationTests.migrator(RequiredColumnMigrationTests.before)
                .migrate(on: connection)
            #expect(created.issues.isEmpty)
            for index in 0..<rows {
                try connection.execute("INSERT INTO recipe (id, title) VALUES (gen_random_uuid(), 'Soup \(index)')")
            }
        }

        /// The recipe table's columns, sorted.
        func columns() throws -> [String] {
            let rows = try connection.query(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                    + "AND table_name = 'recipe' ORDER BY column_name")
            return (0..<rows.rowCount).compactMap { rows.string(row: $0, column: 0) }
        }
    }
}
