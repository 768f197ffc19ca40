import DataConnectSchema
import SQLiteKit
import Testing

@testable import DataConnectEngine

@Suite struct SchemaDDLTests {
    @Test func runningExample() throws {
        // given
        let ddl = try StorageFixtures.ddl(StorageFixtures.runningExample)

        // when
        let statements = ddl.statements

        // then
        #expect(
            statements == [
                """
                CREATE TABLE IF NOT EXISTS "chef" (
                    "id" TEXT NOT NULL CHECK(length("id") = 32),
                    "name" TEXT NOT NULL,
                    PRIMARY KEY ("id")
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS "recipe" (
                    "id" TEXT NOT NULL CHECK(length("id") = 32),
                    "title" TEXT NOT NULL,
                    "year" INTEGER,
                    "tags" TEXT CHECK("tags" IS NULL OR json_valid("tags")),
                    "chef_id" TEXT NOT NULL CHECK(length("chef_id") = 32),
                    PRIMARY KEY ("id"),
                    CONSTRAINT "recipe_chef_id_fkey" FOREIGN KEY ("chef_id") REFERENCES "chef" ("id") ON DELETE CASCADE
                )
                """,
                #"CREATE INDEX IF NOT EXISTS "recipe_chef_id_fkidx" ON "recipe" ("chef_id")"#,
                """
                CREATE TABLE IF NOT EXISTS "cook" (
                    "id" TEXT NOT NULL,
                    "handle" TEXT NOT NULL CHECK(length("handle") <= 40),
                    PRIMARY KEY ("id")
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS "bookmark" (
                    "recipe_id" TEXT NOT NULL CHECK(length("recipe_id") = 32),
                    "cook_id" TEXT NOT NULL,
                    "saved_on" TEXT NOT NULL,
                    PRIMARY KEY ("recipe_id", "cook_id"),
                    CONSTRAINT "bookmark_recipe_id_fkey" FOREIGN KEY ("recipe_id") REFERENCES "recipe" ("id") \
                ON DELETE CASCADE,
                    CONSTRAINT "bookmark_cook_id_fkey" FOREIGN KEY ("cook_id") REFERENCES "cook" ("id") \
                ON DELETE CASCADE
                )
                """,
                #"CREATE INDEX IF NOT EXISTS "bookmark_cook_id_fkidx" ON "bookmark" ("cook_id")"#,
                """
                CREATE TABLE IF NOT EXISTS "recipe_note" (
                    "id" TEXT NOT NULL CHECK(length("id") = 32),
                    "recipe_id" TEXT NOT NULL CHECK(length("recipe_id") = 32),
                    "calories" INTEGER,
                    PRIMARY KEY ("id"),
                    CONSTRAINT "recipe_note_recipe_id_fkey" FOREIGN KEY ("recipe_id") REFERENCES "recipe" ("id") \
                ON DELETE CASCADE
                )
                """,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "recipe_note_recipe_id_uidx" ON "recipe_note" ("recipe_id")"#,
            ])
        #expect(ddl.script.hasSuffix("ON \"recipe_note\" (\"recipe_id\");\n"))
    }

    @Test func defaultsEnumsVarcharAndLists() throws {
        // given
        let ddl = try StorageFixtures.ddl(
            """
            enum Status { DRAFT, PUBLISHED }
            type Post @table {
              title: String! @default(value: "It's new")
              status: Status! @default(value: DRAFT)
              views: Int! @default(value: 0)
              rating: Float @default(value: 4.5)
              big: Int64 @default(value: "9007199254740993")
              pinned: Boolean! @default(value: false)
              ref: UUID @default(value: "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11")
              day: Date @default(value: "2024-02-29")
              at: Timestamp @default(value: "2024-01-01T01:00:00.5+02:00")
              created: Timestamp! @default(sql: "now()")
              createdOn: Date @default(sql: "CURRENT_DATE")
              token: UUID! @default(sql: "gen_random_uuid()")
              tags: [String] @default(value: ["a", "b"])
              stamps: [Timestamp] @default(value: ["2024-01-01T00:00:00.000Z"])
              counts: [Int64] @default(value: [1, "2"])
              moods: [Status!]
              meta: Any @default(value: {a: 1, b: [true, null]})
              code: String @col(dataType: "varchar(8)")
              owner: String @default(expr: "auth.uid")
            }
            """)

        // when
        let columns = try #require(ddl.table(named: "post")).columns.map(\.definition)

        // then
        #expect(
            columns == [
                #""id" TEXT NOT NULL CHECK(length("id") = 32)"#,
                #""title" TEXT NOT NULL DEFAULT 'It''s new'"#,
                #""status" TEXT NOT NULL DEFAULT 'DRAFT' CHECK("status" IN ('DRAFT', 'PUBLISHED'))"#,
                #""views" INTEGER NOT NULL DEFAULT 0"#,
                #""rating" REAL DEFAULT 4.5"#,
                #""big" INTEGER DEFAULT 9007199254740993"#,
                #""pinned" INTEGER NOT NULL DEFAULT 0 CHECK("pinned" IN (0, 1))"#,
                #""ref" TEXT DEFAULT 'a0eebc999c0b4ef8bb6d6bb9bd380a11' CHECK(length("ref") = 32)"#,
                #""day" TEXT DEFAULT '2024-02-29'"#,
                #""at" TEXT DEFAULT '2023-12-31T23:00:00.500000Z'"#,
                #""created" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))"#,
                #""created_on" TEXT DEFAULT (date('now'))"#,
                #""token" TEXT NOT NULL DEFAULT (lower(hex(randomblob(6)) || '4' || substr(hex(randomblob(2)), 2) || "#
                    + #"substr('89ab', 1 + abs(random() % 4), 1) || substr(hex(randomblob(2)), 2) || "#
                    + #"hex(randomblob(6)))) CHECK(length("token") = 32)"#,
                #""tags" TEXT DEFAULT '["a","b"]' CHECK("tags" IS NULL OR json_valid("tags"))"#,
                #""stamps" TEXT DEFAULT '["2024-01-01T00:00:00Z"]' CHECK("stamps" IS NULL OR json_valid("stamps"))"#,
                #""counts" TEXT DEFAULT '["1","2"]' CHECK("counts" IS NULL OR json_valid("counts"))"#,
                #""moods" TEXT CHECK("moods" IS NULL OR json_valid("moods"))"#,
                #""meta" TEXT DEFAULT '{"a":1,"b":[true,null]}' CHECK("meta" IS NULL OR json_valid("meta"))"#,
                #""code" TEXT CHECK(length("code") <= 8)"#,
                #""owner" TEXT"#,
            ])
    }

    @Test func sqlDefaultsProduceTheStorageForms() throws {
        // given
        let connection = try StorageFixtures.connection(
            """
            type Event @table {
              at: Timestamp! @default(sql: "now()")
              on: Date! @default(sql: "CURRENT_DATE")
              token: UUID! @default(sql: "uuid_generate_v4()")
              flag: Boolean! @default(sql: "true")
              score: Float! @default(sql: "-1.5e2")
              label: String! @default(sql: "'n''a'")
            }
            """)

        // when
        try connection.execute("INSERT INTO event (id) VALUES (?)", [.text(String(repeating: "a", count: 32))])
        let row = try #require(try connection.query("SELECT at, \"on\", token, flag, score, label FROM event").first)

        // then
        let at: String = try #require(row["at"])
        let token: String = try #require(row["token"])
        #expect(at.count == 27 && at.hasSuffix("Z") && Array(at)[19] == "." && Array(at)[10] == "T")
        #expect((row["on"] as String?)?.count == 10)
        #expect(token.count == 32 && token == token.lowercased() && Array(token)[12] == "4")
        #expect("89ab".contains(Array(token)[16]))
        #expect(row["flag"] == .integer(1))
        #expect(row["score"] == .real(-150))
        #expect(row["label"] == .text("n'a"))
    }

    @Test func tablesComeAfterTheTablesTheyReference() throws {
        // given
        let ddl = try StorageFixtures.ddl(
            """
            type Review @table { movie: Movie!, author: Author, text: String }
            type Movie @table { title: String!, sequelOf: Movie }
            type Author @table { name: String! }
            """)

        // then
        #expect(ddl.tables.map(\.name) == ["movie", "author", "review"])
        let movie = try #require(ddl.table(named: "movie"))
        #expect(
            movie.foreignKeys.map(\.definition) == [
                #"CONSTRAINT "movie_sequel_of_id_fkey" FOREIGN KEY ("sequel_of_id") REFERENCES "movie" ("id") "#
                    + "ON DELETE SET NULL"
            ])
    }

    @Test func explicitNamesAreQuotedVerbatim() throws {
        // given
        let ddl = try StorageFixtures.ddl(
            """
            type Chef @table(name: "Chefs") { name: String! @col(name: "FullName") }
            """)

        // then
        #expect(
            ddl.statements == [
                """
                CREATE TABLE IF NOT EXISTS "Chefs" (
                    "id" TEXT NOT NULL CHECK(length("id") = 32),
                    "FullName" TEXT NOT NULL,
                    PRIMARY KEY ("id")
                )
                """
            ])
    }

    @Test func uniqueAndPlainIndexesAndForeignKeyIndexes() throws {
        // given
        let ddl = try StorageFixtures.ddl(
            """
            type Chef @table { name: String! }
            type Dish @table
              @unique(fields: ["chef", "title"])
              @index(fields: ["year", "title"], order: [DESC, ASC]) {
              title: String!
              year: Int @index
              slug: String! @unique
              chef: Chef!
              sousChef: Chef
            }
            """)

        // when
        let indexes = try #require(ddl.table(named: "dish")).indexes.map(\.statement)

        // then: chef_id is covered by the composite unique index; sous_chef_id gets its own index
        #expect(
            indexes == [
                #"CREATE UNIQUE INDEX IF NOT EXISTS "dish_slug_uidx" ON "dish" ("slug")"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "dish_chef_id_title_uidx" ON "dish" ("chef_id", "title")"#,
                #"CREATE INDEX IF NOT EXISTS "dish_year_idx" ON "dish" ("year")"#,
                #"CREATE INDEX IF NOT EXISTS "dish_year_title_da_idx" ON "dish" ("year" DESC, "title")"#,
                #"CREATE INDEX IF NOT EXISTS "dish_sous_chef_id_fkidx" ON "dish" ("sous_chef_id")"#,
            ])
    }

    @Test func fingerprintIsStableAndFollowsTheDDL() throws {
        // given
        let first = try StorageFixtures.ddl(StorageFixtures.runningExample)
        let second = try StorageFixtures.ddl(StorageFixtures.runningExample)
        let changed = try StorageFixtures.ddl(StorageFixtures.runningExample + "\ntype Extra @table { x: Int }")

        // then
        #expect(first.fingerprint == second.fingerprint)
        #expect(first.fingerprint.count == 16)
        #expect(first.fingerprint != changed.fingerprint)
    }
}
