import DataConnectEngine
import EmulatorTesting
import SQLiteKit
import Testing

/// Migrations through the `DataStore` protocol, on both databases: what each store's migrator promises alike
/// (tables, columns and indexes added, rows kept, changes the data forbids refused, a second run doing nothing),
/// read back through the store. What only SQLite's migrator does (rebuilding tables, its bookkeeping) is in
/// ``MigratorTests``.
@Suite(.onBothDatabases) struct StoreMigrationTests {
    static let chefId = String(repeating: "c", count: 32)
    static let otherId = String(repeating: "d", count: 32)

    /// Whether `body` fails: a statement the database refuses.
    static func fails(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch {
            return true
        }
    }

    @Test func aFreshDatabaseGetsEveryTableAndASecondRunDoesNothing() throws {
        // given
        let database = try TestStore()

        // when
        let first = try database.migrate(StorageFixtures.runningExample)
        let second = try database.migrate(StorageFixtures.runningExample)

        // then
        #expect(first.issues.isEmpty, "\(first.issues)")
        #expect(!first.wasUpToDate)
        #expect(!first.statements.isEmpty)
        #expect(first.fingerprint == second.fingerprint)
        #expect(second.wasUpToDate)
        #expect(second.statements.isEmpty)
        #expect(second.issues.isEmpty)
        for table in ["chef", "recipe", "cook", "bookmark", "recipe_note"] {
            #expect(try database.rows("SELECT count(*) FROM \(table)") == [[.integer(0)]], "\(table)")
        }
    }

    @Test func aNewTableIsCreatedWithItsUniqueIndexAndTheRowsStay() throws {
        // given
        let database = try TestStore()
        _ = try database.migrate("type Chef @table { name: String! }")
        try database.execute("INSERT INTO chef (id, name) VALUES ('\(Self.chefId)', 'Ada')")

        // when
        let report = try database.migrate(
            "type Chef @table { name: String! }\ntype Tag @table { label: String! @unique }")
        try database.execute("INSERT INTO tag (id, label) VALUES ('\(Self.chefId)', 'soup')")

        // then
        #expect(report.issues.isEmpty, "\(report.issues)")
        #expect(report.statements.count == 2, "the table and its unique index: \(report.statements)")
        #expect(try database.rows("SELECT name FROM chef") == [["Ada"]])
        #expect(Self.fails { try database.execute("INSERT INTO tag (id, label) VALUES ('\(Self.otherId)', 'soup')") })
    }

    @Test func aNullableColumnIsAddedKeepingTheRowsAndItsLength() throws {
        // given
        let database = try TestStore()
        let schema = "type Chef @table { name: String!, bio: String @col(dataType: \"varchar(10)\") }"
        _ = try database.migrate("type Chef @table { name: String! }")
        try database.execute("INSERT INTO chef (id, name) VALUES ('\(Self.chefId)', 'Ada')")

        // when
        let report = try database.migrate(schema)
        let again = try database.migrate(schema)

        // then
        #expect(report.issues.isEmpty, "\(report.issues)")
        #expect(report.statements.count == 1, "\(report.statements)")
        #expect(try database.rows("SELECT id, name, bio FROM chef") == [[.text(Self.chefId), "Ada", .null]])
        #expect(again.wasUpToDate)
        #expect(Self.fails { try database.execute("UPDATE chef SET bio = 'Mathematician'") })
        try database.execute("UPDATE chef SET bio = 'Countess'")
        #expect(try database.rows("SELECT bio FROM chef") == [["Countess"]])
    }

    @Test func aRequiredColumnWithAConstantDefaultIsAddedAndFillsTheRows() throws {
        // given
        let database = try TestStore()
        _ = try database.migrate("type Chef @table { name: String! }")
        try database.execute("INSERT INTO chef (id, name) VALUES ('\(Self.chefId)', 'Ada')")

        // when
        let report = try database.migrate("type Chef @table { name: String!, stars: Int! @default(value: 3) }")

        // then
        #expect(report.issues.isEmpty, "\(report.issues)")
        #expect(try database.rows("SELECT name, stars FROM chef") == [["Ada", 3]])
    }

    @Test func aRequiredColumnWithAnSQLDefaultFillsTheRows() throws {
        // given
        let database = try TestStore()
        _ = try database.migrate("type Chef @table { name: String! }")
        try database.execute(
            "INSERT INTO chef (id, name) VALUES ('\(Self.chefId)', 'Ada'), ('\(Self.otherId)', 'Grace')")

        // when
        let report = try database.migrate(
            "type Chef @table { name: String!, joined: Timestamp! @default(sql: \"now()\") }")

        // then: each row got the default
        #expect(report.issues.isEmpty, "\(report.issues)")
        #expect(try database.rows("SELECT count(*) FROM chef WHERE joined IS NOT NULL") == [[.integer(2)]])
    }

    @Test func aRequiredColumnWithoutDefaultOnATableWithRowsIsABlockingIssueAndNothingIsLost() throws {
        // given
        let database = try TestStore()
        let schema = "type Chef @table { name: String!, email: String!, nickname: String }"
        _ = try database.migrate("type Chef @table { name: String! }")
        try database.execute("INSERT INTO chef (id, name) VALUES ('\(Self.chefId)', 'Ada')")

        // when
        let report = try database.migrate(schema)
        let again = try database.migrate(schema)

        // then: the issue names the table, the column and what to do, and blocks the schema; the next run says it
        // again
        #expect(report.blockingIssues.map(\.table) == ["chef"])
        #expect(report.blockingIssues.map(\.column) == ["email"])
        #expect(report.blockingIssues.first?.message.contains("@default(value:)") == true, "\(report.issues)")
        #expect(!again.wasUpToDate)
        #expect(again.blockingIssues == report.blockingIssues)
        #expect(try database.rows("SELECT id, name FROM chef") == [[.text(Self.chefId), "Ada"]])
    }

    @Test func aRequiredColumnWithoutDefaultOnAnEmptyTableIsAddedAndRequired() throws {
        // given
        let database = try TestStore()
        _ = try database.migrate("type Chef @table { name: String! }")

        // when
        let report = try database.migrate("type Chef @table { name: String!, email: String! }")

        // then
        #expect(report.issues.isEmpty, "\(report.issues)")
        #expect(Self.fails { try database.execute("INSERT INTO chef (id, name) VALUES ('\(Self.chefId)', 'Ada')") })
        try database.execute("INSERT INTO chef (id, name, email) VALUES ('\(Self.chefId)', 'Ada', 'ada@example.com')")
        #expect(try database.rows("SELECT email FROM chef") == [["ada@example.com"]])
    }

    @Test func makingAColumnRequiredNeedsEveryRowToHaveAValue() throws {
        // given
        let database = try TestStore()
        let required = "type Chef @table { name: String!, bio: String! }"
        _ = try database.migrate("type Chef @table { name: String!, bio: String }")
        try database.execute("INSERT INTO chef (id, name) VALUES ('\(Self.chefId)', 'Ada')")

        // when
        let refused = try database.migrate(required)
        try database.execute("UPDATE chef SET bio = 'Mathematician'")
        let applied = try database.migrate(required)

        // then
        #expect(refused.issues.map(\.table) == ["chef"], "\(refused.issues)")
        #expect(applied.issues.isEmpty, "\(applied.issues)")
        #expect(try database.rows("SELECT name, bio FROM chef") == [["Ada", "Mathematician"]])
        #expect(Self.fails { try database.execute("UPDATE chef SET bio = NULL") })
    }

    @Test func anAddedEnumValueCanBeStored() throws {
        // given
        let database = try TestStore()
        _ = try database.migrate("enum Level { LOW, HIGH }\ntype Dish @table { level: Level! }")
        try database.execute("INSERT INTO dish (id, level) VALUES ('\(Self.chefId)', 'LOW')")
        #expect(
            Self.fails { try database.execute("INSERT INTO dish (id, level) VALUES ('\(Self.otherId)', 'MEDIUM')") })

        // when
        let report = try database.migrate("enum Level { LOW, MEDIUM, HIGH }\ntype Dish @table { level: Level! }")
        try database.execute("INSERT INTO dish (id, level) VALUES ('\(Self.otherId)', 'MEDIUM')")

        // then
        #expect(report.issues.isEmpty, "\(report.issues)")
        #expect(try database.rows("SELECT level FROM dish ORDER BY level") == [["LOW"], ["MEDIUM"]])
    }

    @Test func aRemovedFieldKeepsItsColumnAndData() throws {
        // given
        let database = try TestStore()
        _ = try database.migrate("type Chef @table { name: String!, email: String }")
        try database.execute(
            "INSERT INTO chef (id, name, email) VALUES ('\(Self.chefId)', 'Ada', 'ada@example.com')")

        // when
        let report = try database.migrate("type Chef @table { name: String! }")
        try database.execute("INSERT INTO chef (id, name) VALUES ('\(Self.otherId)', 'Grace')")

        // then: nothing is dropped without being asked for
        #expect(report.blockingIssues.isEmpty, "\(report.issues)")
        #expect(
            try database.rows("SELECT name, email FROM chef ORDER BY name") == [
                ["Ada", "ada@example.com"], ["Grace", .null],
            ])
    }

    @Test func aNewReferenceGetsItsForeignKeyWhichNullsOnDelete() throws {
        // given
        let database = try TestStore()
        _ = try database.migrate("type Chef @table { name: String! }\ntype Recipe @table { title: String! }")
        try database.execute("INSERT INTO chef (id, name) VALUES ('\(Self.chefId)', 'Ada')")
        try database.execute("INSERT INTO recipe (id, title) VALUES ('\(Self.otherId)', 'Soup')")

        // when
        let report = try database.migrate(
            "type Chef @table { name: String! }\ntype Recipe @table { title: String!, chef: Chef }")
        try database.execute("UPDATE recipe SET chef_id = '\(Self.chefId)'")
        let dangling = Self.fails {
            try database.execute("UPDATE recipe SET chef_id = '\(String(repeating: "e", count: 32))'")
        }
        try database.execute("DELETE FROM chef")
        let recipes = try database.rows("SELECT title, chef_id FROM recipe")

        // then: the optional reference is checked, and SET NULL on delete
        #expect(report.issues.isEmpty, "\(report.issues)")
        #expect(dangling)
        #expect(recipes == [["Soup", .null]])
    }

    @Test func aUniqueConstraintOverDuplicatesIsRefusedAndTheRowsStay() throws {
        // given
        let database = try TestStore()
        _ = try database.migrate("type Chef @table { name: String! }")
        try database.execute(
            "INSERT INTO chef (id, name) VALUES ('\(Self.chefId)', 'Ada'), ('\(Self.otherId)', 'Ada')")

        // when: SQLite's migrator reports the index it could not create; PostgreSQL's fails as a whole
        let refused: Bool
        do {
            refused = !(try database.migrate("type Chef @table { name: String! @unique }").issues.isEmpty)
        } catch {
            refused = true
        }

        // then
        #expect(refused)
        #expect(try database.rows("SELECT count(*) FROM chef") == [[.integer(2)]])
    }

    @Test func aChangedViewIsReplacedAndARemovedOneDropped() throws {
        // given: a table with a row and a view over it
        let database = try TestStore()
        let table = "type Item @table { price: Float! }"
        _ = try database.migrate(
            table + #" type Total @view(sql: "SELECT sum(price) AS total FROM item") { total: Float }"#)
        try database.execute("INSERT INTO item (id, price) VALUES ('\(Self.chefId)', 2.5)")

        // when: the view's SQL changes, then the view goes
        let changed = try database.migrate(
            table + #" type Total @view(sql: "SELECT sum(price) * 2 AS total FROM item") { total: Float }"#)
        let doubled = try database.rows("SELECT total FROM total")
        let removed = try database.migrate(table)

        // then: the rows stay, the view follows the schema
        #expect(changed.issues.isEmpty && removed.issues.isEmpty, "\(changed.issues) \(removed.issues)")
        #expect(doubled == [[.real(5)]])
        #expect(Self.fails { _ = try database.rows("SELECT total FROM total") })
        #expect(try database.rows("SELECT count(*) FROM item") == [[.integer(1)]])
    }

    @Test func aNamedViewTheDatabaseLacksIsAnIssue() throws {
        // given
        let database = try TestStore()

        // when
        let report = try database.migrate(#"type Legacy @view(name: "legacy_totals") { total: Float }"#)

        // then
        #expect(report.issues.contains { $0.message.contains("legacy_totals") }, "\(report.issues)")
    }
}
