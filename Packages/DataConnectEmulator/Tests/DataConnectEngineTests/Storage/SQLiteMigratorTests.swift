import DataConnectSchema
import EmulatorTesting
import SQLiteKit
import Testing

@testable import DataConnectEngine
@testable import DataConnectSQLiteStore

/// SQLite's migrator: the statements it writes, the tables it rebuilds, its bookkeeping and what SQLite alone keeps
/// (vector copies, `PRAGMA foreign_keys`). What every store's migration promises is in ``StoreMigrationTests``.
@Suite(.on(.sqlite))  // SQLite's migrator and its statements
struct SQLiteMigratorTests {
    static let chefId: SQLiteValue = .text(String(repeating: "c", count: 32))
    static let otherId: SQLiteValue = .text(String(repeating: "d", count: 32))

    static func migrate(_ db: Connection, _ schema: String) throws -> MigrationReport {
        try SQLiteMigrator(model: try StorageFixtures.model(schema)).migrate(db)
    }

    static func rows(_ db: Connection, _ sql: String) throws -> [[SQLiteValue]] {
        try db.query(sql).map(\.values)
    }

    @Test func aFreshDatabaseGetsTheWholeDDLAndASecondRunDoesNothing() throws {
        // given
        let db = try Connection()
        let ddl = try StorageFixtures.ddl(StorageFixtures.runningExample)

        // when
        let first = try Self.migrate(db, StorageFixtures.runningExample)
        let second = try Self.migrate(db, StorageFixtures.runningExample)

        // then
        #expect(first.statements == ddl.statements)
        #expect(first.issues.isEmpty)
        #expect(!first.wasUpToDate)
        #expect(second.statements.isEmpty)
        #expect(second.issues.isEmpty)
        #expect(second.wasUpToDate)
        #expect(
            try StorageFixtures.scalar(db, "SELECT value FROM _dataconnect_meta WHERE key = 'schema_fingerprint'")
                == .text(ddl.fingerprint))
        #expect(try StorageFixtures.scalar(db, "PRAGMA foreign_keys") == 1)
    }

    @Test func aVectorFieldGetsABlobCopyOfTheRowsAlreadyThereAndKeepsItOnWrites() throws {
        // given: a table whose vectors were written before the copies existed
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String! }")
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId])
        try db.execute("ALTER TABLE chef ADD COLUMN taste TEXT")
        try db.execute("UPDATE chef SET taste = '[1, 2]'")

        // when
        let report = try Self.migrate(db, "type Chef @table { name: String!, taste: Vector @col(size: 2) }")
        try db.execute("INSERT INTO chef (id, name, taste) VALUES (?, 'Bo', '[3, 4]')", [Self.otherId])
        try db.execute("UPDATE chef SET name = 'Ada L.' WHERE id = ?", [Self.chefId])

        // then: the copies are little-endian doubles, and a rename leaves them alone
        #expect(report.issues.isEmpty)
        #expect(report.statements.contains(#"ALTER TABLE "chef" ADD COLUMN "_dc_vector_taste" BLOB"#))
        let copies = try Self.rows(db, "SELECT hex(_dc_vector_taste) FROM chef ORDER BY name")
        #expect(copies == [[.text("000000000000F03F0000000000000040")], [.text("00000000000008400000000000001040")]])
        try db.execute("UPDATE chef SET taste = NULL WHERE id = ?", [Self.otherId])
        #expect(try StorageFixtures.scalar(db, "SELECT count(_dc_vector_taste) FROM chef") == 1)
        #expect(try Self.migrate(db, "type Chef @table { name: String!, taste: Vector @col(size: 2) }").wasUpToDate)
    }

    @Test func aNewTableIsCreated() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String! }")
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId])

        // when
        let report = try Self.migrate(
            db, "type Chef @table { name: String! }\ntype Tag @table { label: String! @unique }")

        // then
        #expect(
            report.statements == [
                """
                CREATE TABLE IF NOT EXISTS "tag" (
                    "id" TEXT NOT NULL CHECK(length("id") = 32),
                    "label" TEXT NOT NULL,
                    PRIMARY KEY ("id")
                )
                """,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "tag_label_uidx" ON "tag" ("label")"#,
            ])
        #expect(report.issues.isEmpty)
        #expect(try Self.rows(db, "SELECT name FROM chef") == [["Ada"]])
    }

    @Test func aNullableColumnIsAddedInPlaceKeepingTheRows() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String! }")
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId])

        // when
        let report = try Self.migrate(
            db, "type Chef @table { name: String!, bio: String @col(dataType: \"varchar(10)\") }")

        // then
        #expect(
            report.statements == [#"ALTER TABLE "chef" ADD COLUMN "bio" TEXT CHECK(length("bio") <= 10)"#])
        #expect(report.issues.isEmpty)
        #expect(try Self.rows(db, "SELECT id, name, bio FROM chef") == [[Self.chefId, "Ada", .null]])
        #expect(
            try Self.migrate(db, "type Chef @table { name: String!, bio: String @col(dataType: \"varchar(10)\") }")
                .wasUpToDate)
    }

    @Test func aRequiredColumnWithAConstantDefaultIsAddedInPlace() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String! }")
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId])

        // when
        let report = try Self.migrate(db, "type Chef @table { name: String!, stars: Int! @default(value: 3) }")

        // then
        #expect(report.statements == [#"ALTER TABLE "chef" ADD COLUMN "stars" INTEGER NOT NULL DEFAULT 3"#])
        #expect(report.issues.isEmpty)
        #expect(try Self.rows(db, "SELECT name, stars FROM chef") == [["Ada", 3]])
    }

    @Test func aRequiredColumnWithoutDefaultOnATableWithRowsIsReportedAndNothingIsLost() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String! }")
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId])
        let schema = "type Chef @table { name: String!, email: String!, nickname: String }"

        // when
        let report = try Self.migrate(db, schema)
        let again = try Self.migrate(db, schema)

        // then: the issue names the table, column and field, says what to do, and blocks the schema; the optional
        // column still went in; the run is repeated
        #expect(
            report.issues.map(\.description) == [
                #"table "chef", column "email": cannot add a required column without a default to a table that "#
                    + "has rows: field Chef.email is non-null and the rows already there would have no value; give "
                    + "the field a @default(value:) or @default(sql:) (a @default(expr:) fills only rows inserted "
                    + "later), or make it optional, fill it in for the existing rows, then make it required"
            ])
        #expect(report.blockingIssues == report.issues)
        #expect(report.statements == [#"ALTER TABLE "chef" ADD COLUMN "nickname" TEXT"#])
        #expect(try Self.rows(db, "SELECT id, name, nickname FROM chef") == [[Self.chefId, "Ada", .null]])
        #expect(!again.wasUpToDate)
        #expect(again.issues == report.issues)
        #expect(again.statements.isEmpty)
    }

    @Test func aRequiredColumnWithoutDefaultOnAnEmptyTableRebuildsIt() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String! }")

        // when
        let report = try Self.migrate(db, "type Chef @table { name: String!, email: String! }")

        // then
        #expect(
            report.statements == [
                """
                CREATE TABLE "chef__dataconnect_rebuild" (
                    "id" TEXT NOT NULL CHECK(length("id") = 32),
                    "name" TEXT NOT NULL,
                    "email" TEXT NOT NULL,
                    PRIMARY KEY ("id")
                )
                """,
                #"INSERT INTO "chef__dataconnect_rebuild" ("id", "name") SELECT "id", "name" FROM "chef""#,
                #"DROP TABLE "chef""#,
                #"ALTER TABLE "chef__dataconnect_rebuild" RENAME TO "chef""#,
            ])
        #expect(report.issues.isEmpty)
        #expect(report.blockingIssues.isEmpty)
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId])
        }
        #expect(error?.extendedCode == .constraintNotNull)
    }

    @Test func aTypeChangeRebuildsTheTableWhenTheValuesFit() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String!, rank: String }")
        try db.execute("INSERT INTO chef (id, name, rank) VALUES (?, 'Ada', '7')", [Self.chefId])

        // when
        let report = try Self.migrate(db, "type Chef @table { name: String!, rank: Int }")

        // then
        #expect(report.issues.isEmpty)
        #expect(report.statements.count == 4)
        #expect(try Self.rows(db, "SELECT rank, typeof(rank) FROM chef") == [[7, "integer"]])
    }

    @Test func aTypeChangeIsReportedWhenTheValuesDoNotFit() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String!, rank: String }")
        try db.execute("INSERT INTO chef (id, name, rank) VALUES (?, 'Ada', 'head')", [Self.chefId])

        // when
        let report = try Self.migrate(db, "type Chef @table { name: String!, rank: Int }")

        // then
        #expect(
            report.issues.map(\.description) == [
                #"table "chef", column "rank": cannot rebuild: cannot change the column to INTEGER: 1 row(s) hold "#
                    + "other values"
            ])
        #expect(report.statements.isEmpty)
        #expect(try Self.rows(db, "SELECT rank FROM chef") == [["head"]])
    }

    @Test func makingAColumnRequiredNeedsEveryRowToHaveAValue() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String!, bio: String }")
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId])

        // when
        let refused = try Self.migrate(db, "type Chef @table { name: String!, bio: String! }")
        try db.execute("UPDATE chef SET bio = 'Mathematician'")
        let applied = try Self.migrate(db, "type Chef @table { name: String!, bio: String! }")

        // then
        #expect(
            refused.issues.map(\.description) == [
                #"table "chef": cannot rebuild: NOT NULL constraint failed: chef__dataconnect_rebuild.bio"#
            ])
        #expect(applied.issues.isEmpty)
        #expect(try Self.rows(db, "SELECT name, bio FROM chef") == [["Ada", "Mathematician"]])
        #expect(try Self.rows(db, "SELECT \"notnull\" FROM pragma_table_info('chef') WHERE name = 'bio'") == [[1]])
    }

    @Test func anAddedEnumValueRebuildsTheCheck() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "enum Level { LOW, HIGH }\ntype Dish @table { level: Level! }")
        try db.execute("INSERT INTO dish (id, level) VALUES (?, 'LOW')", [Self.chefId])

        // when
        let report = try Self.migrate(db, "enum Level { LOW, MEDIUM, HIGH }\ntype Dish @table { level: Level! }")
        try db.execute("INSERT INTO dish (id, level) VALUES (?, 'MEDIUM')", [Self.otherId])

        // then
        #expect(report.issues.isEmpty)
        #expect(report.statements.first?.contains(#"CHECK("level" IN ('LOW', 'MEDIUM', 'HIGH'))"#) == true)
        #expect(try Self.rows(db, "SELECT level FROM dish ORDER BY level") == [["LOW"], ["MEDIUM"]])
    }

    @Test func aRemovedFieldKeepsItsColumnAndDataButStopsBeingRequired() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String!, email: String! }")
        try db.execute("INSERT INTO chef (id, name, email) VALUES (?, 'Ada', 'ada@example.com')", [Self.chefId])

        // when
        let report = try Self.migrate(db, "type Chef @table { name: String! }")
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Grace')", [Self.otherId])

        // then
        #expect(report.issues.isEmpty)
        #expect(
            report.statements.first == """
                CREATE TABLE "chef__dataconnect_rebuild" (
                    "id" TEXT NOT NULL CHECK(length("id") = 32),
                    "name" TEXT NOT NULL,
                    "email" TEXT,
                    PRIMARY KEY ("id")
                )
                """)
        #expect(
            try Self.rows(db, "SELECT name, email FROM chef ORDER BY name") == [
                ["Ada", "ada@example.com"], ["Grace", .null],
            ])
    }

    @Test func aNewReferenceRebuildsTheTableWithItsForeignKeyAndIndex() throws {
        // given
        let db = try Connection()
        let before = "type Chef @table { name: String! }\ntype Recipe @table { title: String! }"
        let after = "type Chef @table { name: String! }\ntype Recipe @table { title: String!, chef: Chef }"
        _ = try Self.migrate(db, before)
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId])
        try db.execute("INSERT INTO recipe (id, title) VALUES (?, 'Soup')", [Self.otherId])

        // when
        let report = try Self.migrate(db, after)
        try db.execute("UPDATE recipe SET chef_id = ?", [Self.chefId])
        try db.execute("DELETE FROM chef")

        // then: the optional reference is SET NULL on delete
        #expect(report.issues.isEmpty)
        #expect(report.statements.last == #"CREATE INDEX IF NOT EXISTS "recipe_chef_id_fkidx" ON "recipe" ("chef_id")"#)
        #expect(try Self.rows(db, "SELECT title, chef_id FROM recipe") == [["Soup", .null]])
    }

    @Test func aRebuiltParentKeepsItsChildrenAndTheirForeignKeys() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, StorageFixtures.runningExample)
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId])
        try db.execute("INSERT INTO recipe (id, title, chef_id) VALUES (?, 'Soup', ?)", [Self.otherId, Self.chefId])
        let changed = StorageFixtures.runningExample.replacingOccurrences(
            of: "type Chef @table { name: String! }", with: "type Chef @table { name: String }")

        // when: the chef table is rebuilt under its recipes
        let report = try Self.migrate(db, changed)
        let dangling = #expect(throws: SQLiteError.self) {
            try db.execute(
                "INSERT INTO recipe (id, title, chef_id) VALUES (?, 'Stew', ?)",
                [Self.chefId, .text(String(repeating: "e", count: 32))])
        }
        try db.execute("DELETE FROM chef")

        // then: the recipe's foreign key still points at chef, and still cascades
        #expect(report.issues.isEmpty)
        #expect(
            report.statements.dropFirst(2) == [
                #"DROP TABLE "chef""#, #"ALTER TABLE "chef__dataconnect_rebuild" RENAME TO "chef""#,
            ])
        #expect(dangling?.extendedCode == .constraintForeignKey)
        #expect(try StorageFixtures.scalar(db, "SELECT count(*) FROM recipe") == 0)
    }

    @Test func aColumnWithAnExpressionDefaultIsAddedByARebuild() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String! }")
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada'), (?, 'Grace')", [Self.chefId, Self.otherId])

        // when
        let report = try Self.migrate(
            db, "type Chef @table { name: String!, joined: Timestamp! @default(sql: \"now()\") }")

        // then: each existing row got the default
        #expect(report.issues.isEmpty)
        #expect(report.statements.count == 4)
        let joined = try db.query("SELECT joined FROM chef").compactMap { $0["joined"] as String? }
        #expect(joined.count == 2 && joined.allSatisfy { $0.count == 27 && $0.hasSuffix("Z") })
    }

    @Test func aUniqueConstraintOverDuplicatesIsReported() throws {
        // given
        let db = try Connection()
        _ = try Self.migrate(db, "type Chef @table { name: String! }")
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada'), (?, 'Ada')", [Self.chefId, Self.otherId])

        // when
        let report = try Self.migrate(db, "type Chef @table { name: String! @unique }")

        // then
        #expect(
            report.issues.map(\.description) == [
                #"table "chef", column "name": cannot create unique constraint "chef_name_uidx": "#
                    + "UNIQUE constraint failed: chef.name"
            ])
        #expect(try StorageFixtures.scalar(db, "SELECT count(*) FROM chef") == 2)
    }

    @Test func aTableCreatedElsewhereIsAdoptedByARebuild() throws {
        // given
        let db = try Connection()
        try db.execute("CREATE TABLE chef (id TEXT PRIMARY KEY, name TEXT)")
        try db.execute("INSERT INTO chef VALUES (?, 'Ada')", [Self.chefId])

        // when
        let report = try Self.migrate(db, "type Chef @table { name: String! }")
        let again = try Self.migrate(db, "type Chef @table { name: String! }")

        // then
        #expect(report.issues.isEmpty)
        #expect(report.statements.count == 4)
        #expect(again.wasUpToDate)
        #expect(try Self.rows(db, "SELECT id, name FROM chef") == [[Self.chefId, "Ada"]])
    }

    @Test func migratingThroughAPoolUsesTheWriter() throws {
        // given
        let pool = try SQLitePool(location: .memory, readers: 1)

        // when
        let report = try SQLiteMigrator(model: try StorageFixtures.model(StorageFixtures.runningExample)).migrate(pool)

        // then
        #expect(report.issues.isEmpty)
        let tables = try pool.read { db in
            try db.connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
                .map { $0["name"] as String? }
        }
        #expect(tables == ["_dataconnect_meta", "bookmark", "chef", "cook", "recipe", "recipe_note"])
    }
}
