import DataConnectSchema
import EmulatorTesting
import SQLiteKit
import Testing

@testable import DataConnectEngine

/// The DDL run on SQLite: the constraints hold.
@Suite(.on(.sqlite))  // the SQLite DDL's checks on a bare connection
struct SchemaDDLConstraintTests {
    static let ids: (chef: SQLiteValue, recipe: SQLiteValue, other: SQLiteValue, note: SQLiteValue) = (
        .text(String(repeating: "c", count: 32)), .text(String(repeating: "a", count: 32)),
        .text(String(repeating: "b", count: 32)), .text(String(repeating: "d", count: 32))
    )

    /// The running example with a chef, a recipe, a cook, a bookmark and a note.
    static func seeded() throws -> Connection {
        let db = try StorageFixtures.connection(StorageFixtures.runningExample)
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [ids.chef])
        try db.execute("INSERT INTO recipe (id, title, chef_id) VALUES (?, 'Soup', ?)", [ids.recipe, ids.chef])
        try db.execute("INSERT INTO cook (id, handle) VALUES ('u1', 'ada')")
        try db.execute(
            "INSERT INTO bookmark (recipe_id, cook_id, saved_on) VALUES (?, 'u1', '2024-05-01')", [ids.recipe])
        try db.execute("INSERT INTO recipe_note (id, recipe_id, calories) VALUES (?, ?, 300)", [ids.note, ids.recipe])
        return db
    }

    static func count(_ db: Connection, _ table: String) throws -> SQLiteValue {
        try StorageFixtures.scalar(db, "SELECT count(*) FROM \(table)")
    }

    @Test func deletingAChefCascadesToRecipesBookmarksAndNotes() throws {
        // given
        let db = try Self.seeded()

        // when
        try db.execute("DELETE FROM chef WHERE id = ?", [Self.ids.chef])

        // then
        #expect(try Self.count(db, "recipe") == 0)
        #expect(try Self.count(db, "bookmark") == 0)
        #expect(try Self.count(db, "recipe_note") == 0)
        #expect(try Self.count(db, "cook") == 1)
    }

    @Test func deletingTheTargetOfAnOptionalReferenceSetsItNull() throws {
        // given
        let db = try StorageFixtures.connection(
            """
            type Chef @table { name: String! }
            type Recipe @table { title: String!, chef: Chef }
            """)
        try db.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.ids.chef])
        try db.execute(
            "INSERT INTO recipe (id, title, chef_id) VALUES (?, 'Soup', ?)", [Self.ids.recipe, Self.ids.chef])

        // when
        try db.execute("DELETE FROM chef")

        // then
        let rows = try db.query("SELECT title, chef_id FROM recipe")
        #expect(rows.map(\.values) == [[.text("Soup"), .null]])
    }

    @Test func aReferenceMayTargetAUniqueField() throws {
        // given
        let ddl = try StorageFixtures.ddl(
            """
            type Chef @table { slug: String! @unique, name: String! }
            type Recipe @table { title: String!, chef: Chef! @ref(references: "slug") }
            """)
        let db = try Connection()
        try db.execute(ddl.script)

        // when
        try db.execute("INSERT INTO chef (id, slug, name) VALUES (?, 'ada', 'Ada')", [Self.ids.chef])
        try db.execute("INSERT INTO recipe (id, title, chef_slug) VALUES (?, 'Soup', 'ada')", [Self.ids.recipe])
        try db.execute("DELETE FROM chef")

        // then
        #expect(
            ddl.table(named: "recipe")?.foreignKeys.map(\.definition) == [
                #"CONSTRAINT "recipe_chef_slug_fkey" FOREIGN KEY ("chef_slug") REFERENCES "chef" ("slug") "#
                    + "ON DELETE CASCADE"
            ])
        #expect(try Self.count(db, "recipe") == 0)
    }

    @Test func aReferenceToAMissingRowIsRejected() throws {
        // given
        let db = try Self.seeded()

        // when
        let error = #expect(throws: SQLiteError.self) {
            try db.execute(
                "INSERT INTO recipe (id, title, chef_id) VALUES (?, 'Stew', ?)", [Self.ids.other, Self.ids.other])
        }

        // then
        #expect(error?.extendedCode == .constraintForeignKey)
    }

    @Test func varcharLengthIsChecked() throws {
        // given
        let db = try Self.seeded()

        // when
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO cook (id, handle) VALUES ('u2', ?)", [.text(String(repeating: "x", count: 41))])
        }
        try db.execute("INSERT INTO cook (id, handle) VALUES ('u3', ?)", [.text(String(repeating: "x", count: 40))])

        // then
        #expect(error?.extendedCode == .constraintCheck)
        #expect(try Self.count(db, "cook") == 2)
    }

    @Test func enumBooleanUUIDAndJSONAreChecked() throws {
        // given
        let db = try StorageFixtures.connection(
            """
            enum Status { DRAFT, PUBLISHED }
            type Post @table { status: Status!, pinned: Boolean, meta: Any, tags: [String] }
            """)
        let id = Self.ids.recipe
        let valid =
            "INSERT INTO post (id, status, pinned, meta, tags) VALUES (?, 'PUBLISHED', 1, '{\"a\":1}', '[\"x\"]')"

        // when
        let attempts: [(String, [SQLiteValue])] = [
            ("INSERT INTO post (id, status) VALUES (?, 'ARCHIVED')", [id]),
            ("INSERT INTO post (id, status, pinned) VALUES (?, 'DRAFT', 2)", [id]),
            ("INSERT INTO post (id, status) VALUES ('not-a-uuid', 'DRAFT')", []),
            ("INSERT INTO post (id, status, meta) VALUES (?, 'DRAFT', '{oops')", [id]),
            ("INSERT INTO post (id, status, tags) VALUES (?, 'DRAFT', '[1,')", [id]),
        ]
        let codes = attempts.map { sql, bindings in
            #expect(throws: SQLiteError.self, "\(sql)") { try db.execute(sql, bindings) }?.extendedCode
        }
        try db.execute(valid, [id])

        // then
        #expect(codes == Array(repeating: .constraintCheck, count: 5))
        #expect(try Self.count(db, "post") == 1)
    }

    @Test func aOneToOneReferenceIsUnique() throws {
        // given
        let db = try Self.seeded()

        // when
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO recipe_note (id, recipe_id) VALUES (?, ?)", [Self.ids.other, Self.ids.recipe])
        }

        // then
        #expect(error?.extendedCode == .constraintUnique)
        #expect(error?.message.contains("recipe_note.recipe_id") == true)
    }

    @Test func theCompositeKeyRejectsADuplicatePair() throws {
        // given
        let db = try Self.seeded()
        try db.execute("INSERT INTO cook (id, handle) VALUES ('u2', 'grace')")

        // when
        try db.execute(
            "INSERT INTO bookmark (recipe_id, cook_id, saved_on) VALUES (?, 'u2', '2024-05-02')", [Self.ids.recipe])
        let error = #expect(throws: SQLiteError.self) {
            try db.execute(
                "INSERT INTO bookmark (recipe_id, cook_id, saved_on) VALUES (?, 'u1', '2024-05-03')", [Self.ids.recipe])
        }

        // then
        #expect(error?.extendedCode == .constraintPrimaryKey)
        #expect(try Self.count(db, "bookmark") == 2)
    }

    @Test func requiredColumnsRejectNull() throws {
        // given
        let db = try Self.seeded()

        // when
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO chef (id, name) VALUES (?, NULL)", [Self.ids.other])
        }

        // then
        #expect(error?.extendedCode == .constraintNotNull)
    }

    @Test func theIndexesExist() throws {
        // given
        let db = try Self.seeded()

        // when
        let names = try db.query(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        ).map { $0["name"] as String? }

        // then
        #expect(names == ["bookmark_cook_id_fkidx", "recipe_chef_id_fkidx", "recipe_note_recipe_id_uidx"])
    }
}
