import DataConnectSchema
import DataConnectWire
import Testing

@testable import DataConnectEngine
@testable import DataConnectPostgreSQLStore
@testable import DataConnectSQLiteStore

/// The PostgreSQL dialect's SQL text: column types, placeholders that turn the bound storage form into the
/// column's type, outputs that write the SQLite dialect's wire form, and the schema's DDL.
@Suite struct PostgreSQLDialectTests {
    let dialect = PostgreSQLDialect()

    static func column(
        _ type: ColumnType, list: Bool = false, nonNull: Bool = false, maxLength: Int? = nil
    ) -> Column {
        Column(name: "c", sqlName: "c", type: type, isList: list, isNonNull: nonNull, maxLength: maxLength)
    }

    @Test(arguments: [
        (ColumnType.scalar(.string), "text"), (.scalar(.int), "int4"), (.scalar(.int64), "int8"),
        (.scalar(.float), "float8"), (.scalar(.boolean), "bool"), (.scalar(.uuid), "uuid"), (.scalar(.date), "date"),
        (.scalar(.timestamp), "timestamptz"), (.scalar(.any), "jsonb"), (.scalar(.vector), "jsonb"),
        (.enumeration("Genre"), "\"Genre\""),
    ])
    func columnTypesArePostgreSQLTypes(type: ColumnType, expected: String) {
        #expect(dialect.columnType(Self.column(type)) == expected)
        #expect(dialect.columnType(Self.column(type, list: true)) == expected + "[]")
    }

    @Test func varcharKeepsItsLength() {
        #expect(dialect.columnType(Self.column(.scalar(.string), maxLength: 40)) == "varchar(40)")
        #expect(dialect.columnType(Self.column(.scalar(.string), list: true, maxLength: 8)) == "varchar(8)[]")
    }

    @Test func placeholdersCastTheStorageFormToTheColumnType() {
        // given values bound as SQLite stores them (text, 0/1, integers), when placed, then cast
        #expect(dialect.placeholder(1, type: .column(Self.column(.scalar(.uuid)))) == "$1::uuid")
        #expect(dialect.placeholder(2, type: .column(Self.column(.scalar(.timestamp)))) == "$2::timestamptz")
        #expect(dialect.placeholder(3, type: .scalar(.date)) == "$3::date")
        #expect(dialect.placeholder(4, type: .column(Self.column(.scalar(.boolean)))) == "($4::int4 <> 0)")
        #expect(dialect.placeholder(5, type: .column(Self.column(.scalar(.int64)))) == "$5::int8")
        #expect(dialect.placeholder(6, type: .column(Self.column(.scalar(.any)))) == "$6::jsonb")
        #expect(dialect.placeholder(7, type: .column(Self.column(.enumeration("Genre")))) == "$7::\"Genre\"")
        #expect(dialect.placeholder(8, type: .column(Self.column(.scalar(.string), maxLength: 4))) == "$8::text")
        #expect(dialect.placeholder(9, type: .listElement(Self.column(.scalar(.uuid), list: true))) == "$9::uuid")
        #expect(dialect.placeholder(10, type: .jsonArray) == "$10::jsonb")
        #expect(dialect.placeholder(11, type: .integer) == "$11::int8")
        #expect(dialect.placeholder(12, type: .text) == "$12::text")
        #expect(dialect.placeholder(13, type: .untyped) == "$13")
    }

    @Test func aListIsBoundAsJSONTextAndPlacedAsATypedArray() {
        let uuids = dialect.placeholder(1, type: .column(Self.column(.scalar(.uuid), list: true)))
        #expect(
            uuids
                == "(CASE WHEN $1::jsonb IS NULL THEN NULL ELSE ARRAY(SELECT CAST(_l.e AS uuid) FROM "
                + "jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS _l(e, o) ORDER BY _l.o) END)")
        let anys = dialect.placeholder(2, type: .column(Self.column(.scalar(.any), list: true)))
        #expect(anys.contains("ARRAY(SELECT _l.e FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY"))
    }

    @Test func outputsAreTheWireForm() {
        let id = Self.column(.scalar(.uuid))
        #expect(dialect.jsonValue("t.id", of: id) == "encode(uuid_send(t.id), 'hex')")
        #expect(dialect.jsonValue("t.n", of: Self.column(.scalar(.int64))) == "CAST(t.n AS text)")
        #expect(
            dialect.jsonValue("t.f", of: Self.column(.scalar(.float)))
                == "nullif(nullif(nullif(CAST(t.f AS float8), 'Infinity'), '-Infinity'), 'NaN')")
        #expect(
            dialect.jsonValue("t.at", of: Self.column(.scalar(.timestamp)))
                == "regexp_replace(to_char((t.at) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
                + "'(\\.000)?000Z$', 'Z')")
        #expect(dialect.jsonValue("t.b", of: Self.column(.scalar(.boolean))) == "t.b")
        #expect(dialect.jsonValue("t.tags", of: Self.column(.scalar(.string), list: true)) == "to_json(t.tags)")
        #expect(
            dialect.jsonValue("t.ids", of: Self.column(.scalar(.uuid), list: true))
                == "(CASE WHEN t.ids IS NULL THEN NULL ELSE coalesce((SELECT json_agg(encode(uuid_send(_l.e), 'hex') "
                + "ORDER BY _l.o) FROM unnest(t.ids) WITH ORDINALITY AS _l(e, o)), '[]'::json) END)")
    }

    @Test func storageFormsForKeysAndEntityIDs() {
        #expect(
            dialect.returning([Self.column(.scalar(.uuid))])
                == "RETURNING encode(uuid_send(\"c\"), 'hex') AS \"c\"")
        #expect(dialect.returning([Self.column(.scalar(.string))]) == "RETURNING \"c\"")
        #expect(dialect.storageText("t.b", of: Self.column(.scalar(.boolean))) == "CAST(CAST(t.b AS int4) AS text)")
        #expect(dialect.storageText("t.d", of: Self.column(.scalar(.date))) == "to_char(t.d, 'YYYY-MM-DD')")
        #expect(
            dialect.storageValues("$1::jsonb", of: Self.column(.scalar(.uuid)))
                == "SELECT CAST(_v.value AS uuid) FROM jsonb_array_elements_text($1::jsonb) AS _v(value)")
    }

    @Test func listsAreArrays() {
        let tags = Self.column(.scalar(.string), list: true)
        #expect(dialect.listElements("t.tags", of: tags, alias: "w") == "unnest(t.tags) AS w(value)")
        #expect(dialect.listElements("t.tags", of: tags, alias: nil) == "unnest(t.tags) AS _e(value)")
        #expect(dialect.listFromElements("SELECT value FROM x", of: tags) == "ARRAY(SELECT value FROM x)")
        #expect(dialect.emptyList(of: tags) == "'{}'")
        #expect(dialect.listLiteral(["a\"b", "c\\d", 1], of: tags) == #"'{"a\"b","c\\d","1"}'"#)
    }

    @Test func conditionsAndLimits() {
        #expect(dialect.like("x", pattern: "$1::text", escaped: true) == "x LIKE $1::text ESCAPE '\\'")
        #expect(dialect.like("x", pattern: "$1::text", escaped: false) == "x LIKE $1::text ESCAPE ''")
        #expect(dialect.regularExpressionMatch(subject: "x", pattern: "$1", flags: "$2") == "regexp_like(x, $1, $2)")
        #expect(dialect.enumSortKey("t.genre", values: ["B", "A"]) == "t.genre")
        #expect(dialect.conditionLiteral(false) == "FALSE")
        #expect(dialect.unlimitedCount == "NULL")
        #expect(dialect.maximumJSONObjectPairs == 50)
        #expect(dialect.derivedTable("SELECT 1", alias: "d") == "(SELECT 1) AS d")
    }

    @Test func theSQLiteDialectWritesWhatItWroteBeforeTheseRequirements() {
        let sqlite = SQLiteDialect()
        let tags = Self.column(.scalar(.string), list: true)
        #expect(sqlite.listElements("?1", of: tags, alias: "w") == "json_each(?1) AS w")
        #expect(
            sqlite.listFromElements("SELECT 1", of: tags)
                == "(SELECT coalesce(json_group_array(value), '[]') FROM (SELECT 1))")
        #expect(sqlite.storageValues("?1", of: Self.column(.scalar(.uuid))) == "SELECT value FROM json_each(?1)")
        #expect(sqlite.storageText("t.id", of: Self.column(.scalar(.uuid))) == "CAST(t.id AS TEXT)")
        #expect(sqlite.like("x", pattern: "?1", escaped: true) == "(dataconnect_continue() AND x LIKE ?1 ESCAPE '\\')")
        #expect(sqlite.enumSortKey("t.g", values: ["B", "A"]) == "(CASE t.g WHEN 'B' THEN 0 WHEN 'A' THEN 1 END)")
        #expect(sqlite.derivedTable("SELECT 1", alias: "d") == "(SELECT 1)")
        #expect(sqlite.returning([Self.column(.scalar(.uuid))]) == "RETURNING \"c\"")
    }

    @Test func enumTypesComeFirstInDeclarationOrder() throws {
        // given a schema whose enums are declared out of alphabetical order
        let model = try StorageFixtures.model(
            """
            enum Status { DRAFT PUBLISHED ARCHIVED }
            enum Genre { DRAMA COMEDY }
            type Post @table { title: String! @col(dataType: "varchar(40)"), status: Status! @default(value: DRAFT), genres: [Genre], flag: Boolean @default(value: true), tags: [String] @default(value: ["a", "b"]) }
            """)

        // when
        let ddl = SchemaDDL(model: model, dialect: PostgreSQLDialect())

        // then
        #expect(
            ddl.statements.prefix(2) == [
                "DO $$ BEGIN CREATE TYPE \"Status\" AS ENUM ('DRAFT', 'PUBLISHED', 'ARCHIVED'); "
                    + "EXCEPTION WHEN duplicate_object THEN NULL; END $$",
                "DO $$ BEGIN CREATE TYPE \"Genre\" AS ENUM ('DRAMA', 'COMEDY'); "
                    + "EXCEPTION WHEN duplicate_object THEN NULL; END $$",
            ])
        #expect(
            ddl.table(named: "post")?.createStatement == """
                CREATE TABLE IF NOT EXISTS "post" (
                    "id" uuid NOT NULL,
                    "title" varchar(40) NOT NULL,
                    "status" "Status" NOT NULL DEFAULT 'DRAFT',
                    "genres" "Genre"[],
                    "flag" bool DEFAULT TRUE,
                    "tags" text[] DEFAULT '{"a","b"}',
                    PRIMARY KEY ("id")
                )
                """)
        #expect(SchemaDDL(model: model, dialect: SQLiteDialect()).enumTypes.isEmpty)
    }

    @Test func theMoviesScriptHasTypesTablesAndIndexes() throws {
        // given the movies schema's shape: an enum, a renamed table, a varchar, a composite key, references
        let model = try StorageFixtures.model(
            """
            enum AspectRatio { ACADEMY WIDESCREEN ANAMORPHIC }
            type Movie @table @index(fields: ["genre", "releaseYear"], order: [ASC, DESC]) {
              title: String!, genre: String, releaseYear: Int, aspectratio: AspectRatio! @default(value: WIDESCREEN),
              tags: [String], createdAt: Timestamp! @default(sql: "now()"), director: Person @ref
            }
            type Person @table(name: "People", singular: "person", plural: "people") {
              name: String! @col(dataType: "varchar(120)")
            }
            type User @table { id: String! @col(name: "user_auth"), username: String! @unique }
            type Review @table(name: "Reviews", key: ["movie", "user"]) {
              movie: Movie!, user: User!, reviewDate: Date! @default(sql: "CURRENT_DATE") @index
            }
            """)

        // when
        let script = SchemaDDL(model: model, dialect: PostgreSQLDialect()).script

        // then
        #expect(script.hasPrefix("DO $$ BEGIN CREATE TYPE \"AspectRatio\" AS ENUM"))
        #expect(script.contains("\"aspectratio\" \"AspectRatio\" NOT NULL DEFAULT 'WIDESCREEN'"))
        #expect(script.contains("\"created_at\" timestamptz NOT NULL DEFAULT (now())"))
        #expect(script.contains("\"review_date\" date NOT NULL DEFAULT (CAST(now() AT TIME ZONE 'UTC' AS date))"))
        #expect(script.contains("\"name\" varchar(120) NOT NULL,"))
        #expect(
            script.contains(
                "CREATE INDEX IF NOT EXISTS \"movie_genre_release_year_ad_idx\" ON \"movie\" (\"genre\", \"release_year\" DESC);"
            ))
        #expect(script.contains("CREATE UNIQUE INDEX IF NOT EXISTS \"user_username_uidx\" ON \"user\" (\"username\");"))
        #expect(!script.contains("CHECK"))
        let people = try #require(script.range(of: "CREATE TABLE IF NOT EXISTS \"People\""))
        let movie = try #require(script.range(of: "CREATE TABLE IF NOT EXISTS \"movie\""))
        #expect(people.lowerBound < movie.lowerBound)
    }

    @Test func indexTypesMapToWhatEachDatabaseHas() throws {
        // given: a GIN index on a list, a GIN index on a scalar, and an HNSW index on a vector
        let model = try StorageFixtures.model(
            """
            type Doc @table @index(fields: ["tags"], type: GIN) @index(fields: ["title"], type: GIN) {
              title: String!
              tags: [String]
              embedding: Vector @col(size: 3) @index(type: HNSW, vector_method: COSINE)
            }
            """)

        // when
        let postgreSQL = SchemaDDL(model: model, dialect: PostgreSQLDialect()).statements
        let sqlite = SchemaDDL(model: model, dialect: SQLiteDialect()).statements

        // then: PostgreSQL indexes the list with GIN and the text with a B-tree; neither database indexes the
        // vector (HNSW needs pgvector); SQLite has B-trees only
        #expect(postgreSQL.contains { $0.contains("USING GIN") && $0.contains("\"tags\"") }, "\(postgreSQL)")
        #expect(
            postgreSQL.contains { $0.contains("CREATE INDEX") && $0.contains("(\"title\")") && !$0.contains("GIN") })
        #expect(!postgreSQL.contains { $0.contains("CREATE INDEX") && $0.contains("\"embedding\"") })
        #expect(!sqlite.contains { $0.contains("USING") })
        #expect(!sqlite.contains { $0.contains("CREATE INDEX") && $0.contains("\"embedding\"") })
    }
}
