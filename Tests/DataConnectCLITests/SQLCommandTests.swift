import DataConnectEngine
import DataConnectPostgreSQLStore
import DataConnectSchema
import DataConnectTestSupport
import Foundation
import PostgreSQLKit
import PostgreSQLTesting
import Testing

@testable import dataconnect

/// `dataconnect sql` run as a process against a throwaway PostgreSQL server, one fresh database per test.
@Suite struct SQLCommandTests {
    // MARK: diff and migrate

    @Test func diffOnAnEmptyDatabaseListsTheWholeSchema() async throws {
        // given
        let url = try Self.freshDatabase()

        // when
        let result = try await Self.sql(["diff", "--backend", RepositoryPaths.movies, "--postgres", url])

        // then
        #expect(result.exitStatus == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("CREATE TYPE \"AspectRatio\""))
        #expect(result.standardOutput.contains("CREATE TABLE IF NOT EXISTS \"movie\""))
        #expect(result.standardOutput.contains("CREATE INDEX"))
        #expect(!result.standardOutput.contains("destructive"))
        #expect(result.standardError.contains("0 destructive; `dataconnect sql migrate` applies them"))
        #expect(try Self.tables(url).isEmpty)
    }

    @Test func migrateAppliesThePlanRecordsTheFingerprintAndDiffThenMatches() async throws {
        // given
        let url = try Self.freshDatabase()
        let plan = try await Self.sql(["diff", "--backend", RepositoryPaths.movies, "--postgres", url])

        // when
        let migrated = try await Self.sql(["migrate", "--backend", RepositoryPaths.movies, "--postgres", url])

        // then: it printed the plan it applied
        #expect(migrated.exitStatus == 0, "\(migrated.standardError)")
        #expect(migrated.standardOutput == plan.standardOutput)
        #expect(migrated.standardError.contains("applied"))
        #expect(try Self.tables(url).isSuperset(of: ["movie", "actor", "People", "Reviews", "_dataconnect_meta"]))
        // and an emulator's start-up finds the database up to date
        let store = try PostgreSQLStore(connectionString: url, connections: 1)
        let startUp = try store.migrate(try Self.model(RepositoryPaths.movies))
        #expect(startUp.wasUpToDate)
        let again = try await Self.sql(["diff", "--backend", RepositoryPaths.movies, "--postgres", url])
        #expect(again.exitStatus == 0)
        #expect(again.standardOutput.isEmpty)
        #expect(again.standardError.contains("the database matches the schema"))
    }

    @Test func aDestructiveChangeIsShownAndAppliedOnlyWithForce() async throws {
        // given: a database at the movies schema with a movie's metadata, and a schema that adds Movie.subtitle
        // and removes MovieMetadata.language
        let url = try Self.freshDatabase()
        let start = try await Self.sql(["migrate", "--backend", RepositoryPaths.movies, "--postgres", url])
        try #require(start.exitStatus == 0, "\(start.standardError)")
        try Self.insertMovieWithMetadata(url)
        let backend = try Self.copyOfMoviesWithChangedSchema()
        defer { backend.remove() }

        // when
        let diff = try await Self.sql(["diff", "--backend", backend.path, "--postgres", url])

        // then: the added column is additive, the dropped one destructive and marked
        #expect(diff.exitStatus == 0, "\(diff.standardError)")
        #expect(
            diff.outputLines == [
                "ALTER TABLE \"movie\" ADD COLUMN \"subtitle\" text;",
                "-- destructive (applied only with --force):",
                "ALTER TABLE \"movie_metadata\" DROP COLUMN \"language\";",
            ])
        #expect(!diff.standardError.contains("error"))
        #expect(diff.standardError.contains("`dataconnect sql migrate --force` applies them"))

        // when
        let refused = try await Self.sql(["migrate", "--backend", backend.path, "--postgres", url])

        // then: nothing changed, and the destructive statement is named
        #expect(refused.exitStatus == 1)
        #expect(refused.standardError.contains("  ALTER TABLE \"movie_metadata\" DROP COLUMN \"language\";"))
        #expect(refused.standardError.contains("rerun with --force"))
        #expect(try Self.columns(url, table: "movie").contains("subtitle") == false)
        #expect(try Self.columns(url, table: "movie_metadata").contains("language"))
        #expect(try Self.metadataCount(url, language: "en") == 1)

        // when
        let forced = try await Self.sql(["migrate", "--backend", backend.path, "--postgres", url, "--force"])

        // then
        #expect(forced.exitStatus == 0, "\(forced.standardError)")
        #expect(forced.standardError.contains("applied 2 statements (1 destructive) in one transaction"))
        #expect(try Self.columns(url, table: "movie").contains("subtitle"))
        #expect(try Self.columns(url, table: "movie_metadata").contains("language") == false)
        #expect(try Self.metadataCount(url) == 1)
        let store = try PostgreSQLStore(connectionString: url, connections: 1)
        #expect(try store.migrate(try Self.model(backend.path)).wasUpToDate)
    }

    @Test func aRequiredColumnWithoutDefaultOnATableWithRowsIsMarkedAndRefusedWithWhatToDo() async throws {
        // given: a database at the movies schema with a movie, and a schema that adds a required Movie.servings
        let url = try Self.freshDatabase()
        let start = try await Self.sql(["migrate", "--backend", RepositoryPaths.movies, "--postgres", url])
        try #require(start.exitStatus == 0, "\(start.standardError)")
        try Self.insertMovieWithMetadata(url)
        let backend = try Self.copyOfMovies(adding: "  servings: Int!\n")
        defer { backend.remove() }
        let statement = #"ALTER TABLE "movie" ADD COLUMN "servings" int4 NOT NULL"#

        // when
        let diff = try await Self.sql(["diff", "--backend", backend.path, "--postgres", url])
        let migrate = try await Self.sql(["migrate", "--backend", backend.path, "--postgres", url])

        // then: the step is marked in the plan and explained, before anything runs
        #expect(diff.exitStatus == 0, "\(diff.standardError)")
        #expect(diff.outputLines.first == statement + ";")
        #expect(
            diff.outputLines.dropFirst().first?.hasPrefix(
                #"-- will fail: table "movie", column "servings": cannot add a required column without a default"#)
                == true, "\(diff.standardOutput)")
        #expect(diff.standardError.contains("1 of which will fail on the rows already there"))
        #expect(diff.standardError.contains("field Movie.servings is non-null"))
        #expect(diff.standardError.contains("@default(value:) or @default(sql:)"))
        #expect(!diff.standardError.contains("0 destructive"))
        // and migrate refuses it, applying nothing
        #expect(migrate.exitStatus == 1)
        #expect(migrate.standardError.contains("would fail on the rows already there; nothing applied"))
        #expect(migrate.standardError.contains("  \(statement);"))
        #expect(migrate.standardError.contains("make it optional, fill it in for the existing rows"))
        #expect(try Self.columns(url, table: "movie").contains("servings") == false)
    }

    @Test func aRequiredColumnWithoutDefaultOnAnEmptyTableIsApplied() async throws {
        // given: a database at the movies schema, without rows
        let url = try Self.freshDatabase()
        let start = try await Self.sql(["migrate", "--backend", RepositoryPaths.movies, "--postgres", url])
        try #require(start.exitStatus == 0, "\(start.standardError)")
        let backend = try Self.copyOfMovies(adding: "  servings: Int!\n")
        defer { backend.remove() }

        // when
        let diff = try await Self.sql(["diff", "--backend", backend.path, "--postgres", url])
        let migrate = try await Self.sql(["migrate", "--backend", backend.path, "--postgres", url])

        // then
        #expect(!diff.standardOutput.contains("will fail"))
        #expect(migrate.exitStatus == 0, "\(migrate.standardError)")
        #expect(try Self.columns(url, table: "movie").contains("servings"))
    }

    @Test func migrateRepairsADatabaseChangedBehindTheFingerprint() async throws {
        // given: a migrated database whose table someone dropped by hand
        let url = try Self.freshDatabase()
        let start = try await Self.sql(["migrate", "--backend", RepositoryPaths.movies, "--postgres", url])
        try #require(start.exitStatus == 0, "\(start.standardError)")
        try PGConnection(url).execute("DROP TABLE \"actor\" CASCADE")

        // when
        let result = try await Self.sql(["migrate", "--backend", RepositoryPaths.movies, "--postgres", url])

        // then
        #expect(result.exitStatus == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("CREATE TABLE IF NOT EXISTS \"actor\""))
        #expect(try Self.tables(url).contains("actor"))
    }

    @Test func aSchemaWithErrorsTouchesNoDatabase() async throws {
        // given
        let url = try Self.freshDatabase()
        let backend = try RepositoryPaths.copyOfMovies()
        defer { backend.remove() }
        try "type Movie @table { title: Strin }".write(
            to: backend.url.appendingPathComponent("schema/schema.gql"), atomically: true, encoding: .utf8)

        // when
        let result = try await Self.sql(["migrate", "--backend", backend.path, "--postgres", url, "--force"])

        // then
        #expect(result.exitStatus == 1)
        #expect(result.standardError.contains("schema/schema.gql:1:28: error: unknown type \"Strin\""))
        #expect(try Self.tables(url).isEmpty)
    }

    // MARK: The database

    @Test func anUnreachableServerIsOneLineNamingHostAndPort() async throws {
        // given: a port nothing listens on
        let port = try PostgreSQLCluster.freePort()
        let url = "postgres://postgres@127.0.0.1:\(port)/movies?sslmode=disable"

        // when
        let result = try await Self.sql(["diff", "--backend", RepositoryPaths.movies, "--postgres", url])

        // then
        #expect(result.exitStatus == 1)
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("127.0.0.1:\(port)"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func theDatabaseComesFromTheEnvironmentWithoutPostgres() async throws {
        // given
        let url = try Self.freshDatabase()

        // when
        let named = try await Self.sql(
            ["diff", "--backend", RepositoryPaths.movies],
            environment: ["FIREBASE_DATACONNECT_POSTGRESQL_STRING": url])
        let unnamed = try await Self.sql(["diff", "--backend", RepositoryPaths.movies])

        // then
        #expect(named.exitStatus == 0, "\(named.standardError)")
        #expect(named.standardOutput.contains("CREATE TABLE IF NOT EXISTS \"movie\""))
        #expect(unnamed.exitStatus == 2)
        #expect(
            unnamed.errorLines.first
                == "dataconnect: sql diff needs a database: pass --postgres URL or set "
                + "FIREBASE_DATACONNECT_POSTGRESQL_STRING")
    }

    // MARK: setup

    @Test func setupChecksTheServerAndCreatesTheMetadataTable() async throws {
        // given
        let url = try Self.freshDatabase()

        // when
        let first = try await Self.sql(["setup", "--postgres", url])
        let second = try await Self.sql(["setup", "--postgres", url])

        // then
        #expect(first.exitStatus == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("server: PostgreSQL 1"))
        #expect(first.standardOutput.contains("can create tables in \"public\": ok"))
        #expect(first.standardOutput.contains("created _dataconnect_meta"))
        #expect(second.exitStatus == 0, "\(second.standardError)")
        #expect(second.standardOutput.contains("_dataconnect_meta exists already"))
        #expect(try Self.tables(url) == ["_dataconnect_meta"])
    }

    @Test func setupRefusesAUserWhoCannotCreateTables() async throws {
        // given: a login role without CREATE on the schema
        let url = try Self.freshDatabase()
        let role = Self.uniqueName("plain")
        let connection = try PGConnection(url)
        try connection.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC; CREATE ROLE \(role) LOGIN")

        // when
        let result = try await Self.sql(["setup", "--postgres", Self.url(url, user: role)])

        // then
        #expect(result.exitStatus == 1)
        #expect(result.standardError.contains("user \"\(role)\" cannot create tables in schema \"public\""))
        #expect(try Self.tables(url).isEmpty)
    }

    // MARK: grant

    @Test(arguments: SQLRole.allCases)
    func grantGivesAnExistingRoleItsAccessNowAndLater(_ role: SQLRole) async throws {
        // given: a migrated database and a login role
        let url = try Self.freshDatabase()
        let migrated = try await Self.sql(["migrate", "--backend", RepositoryPaths.movies, "--postgres", url])
        try #require(migrated.exitStatus == 0, "\(migrated.standardError)")
        let user = Self.uniqueName(role.rawValue)
        let admin = try PGConnection(url)
        try admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC; CREATE ROLE \(user) LOGIN")

        // when
        let result = try await Self.sql(["grant", "--role", role.rawValue, "--user", user, "--postgres", url])
        try admin.execute("CREATE TABLE later (id int)")

        // then
        #expect(result.exitStatus == 0, "\(result.standardError)")
        let privileges = try admin.query(
            """
            SELECT has_table_privilege($1, 'movie', 'SELECT'), has_table_privilege($1, 'movie', 'INSERT'),
                   has_table_privilege($1, 'movie', 'TRUNCATE'), has_table_privilege($1, 'later', 'SELECT'),
                   has_table_privilege($1, 'later', 'DELETE'), has_schema_privilege($1, 'public', 'CREATE')
            """, [.text(user)])
        let granted = (0..<6).map { privileges.bool(row: 0, column: $0) }
        switch role {
        case .reader: #expect(granted == [true, false, false, true, false, false])
        case .writer: #expect(granted == [true, true, false, true, true, false])
        case .owner: #expect(granted == [true, true, true, true, true, true])
        }
        // and the role can read when it connects
        let asUser = try PGConnection(Self.url(url, user: user))
        #expect(try asUser.query("SELECT count(*) FROM movie").int64(row: 0, column: 0) == 0)
    }

    @Test func grantToAnUnknownRoleIsAClearError() async throws {
        // given
        let url = try Self.freshDatabase()
        let user = Self.uniqueName("nobody")

        // when
        let result = try await Self.sql(["grant", "--role", "reader", "--user", user, "--postgres", url])

        // then
        #expect(result.exitStatus == 1)
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("role \"\(user)\" does not exist"))
        #expect(result.standardError.contains("CREATE ROLE \"\(user)\" LOGIN"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func grantStatementsQuoteTheirNames() {
        #expect(
            SQLCommand.grantStatements(.reader, to: "app \"x\"", schema: "public") == [
                "GRANT USAGE ON SCHEMA \"public\" TO \"app \"\"x\"\"\"",
                "GRANT SELECT ON ALL TABLES IN SCHEMA \"public\" TO \"app \"\"x\"\"\"",
                "GRANT SELECT ON ALL SEQUENCES IN SCHEMA \"public\" TO \"app \"\"x\"\"\"",
                "ALTER DEFAULT PRIVILEGES IN SCHEMA \"public\" GRANT SELECT ON TABLES TO \"app \"\"x\"\"\"",
                "ALTER DEFAULT PRIVILEGES IN SCHEMA \"public\" GRANT SELECT ON SEQUENCES TO \"app \"\"x\"\"\"",
            ])
    }

    // MARK: Helpers

    /// Runs `dataconnect sql ARGUMENTS` with a small environment (no PostgreSQL variable unless given).
    private static func sql(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await ChildProcess.run(
            BuiltExecutable.require("dataconnect"), ["sql"] + arguments,
            environment: ChildProcess.environment(adding: environment))
    }

    /// A new empty database on the shared throwaway cluster; its URL.
    private static func freshDatabase() throws -> String {
        try PostgreSQLCluster.shared().createDatabase(uniqueName("sql"))
    }

    /// A name no other test uses: roles are shared by the cluster's databases.
    private static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(UInt32.random(in: 0...UInt32.max))"
    }

    /// `url` with the user replaced: the throwaway cluster trusts every local login.
    private static func url(_ url: String, user: String) -> String {
        url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://\(user)@")
    }

    /// The schema model of a backend folder.
    private static func model(_ backend: String) throws -> SchemaModel {
        try #require(ServiceCompiler.compile(backendDirectory: backend).service).api.model
    }

    /// A copy of Backend/movies whose schema adds `Movie.subtitle` and removes `MovieMetadata.language`, and
    /// whose `GetMovieById` query no longer selects the language.
    static func copyOfMoviesWithChangedSchema() throws -> TemporaryDirectory {
        let backend = try RepositoryPaths.copyOfMovies()
        try edit(backend.url.appendingPathComponent("schema/schema.gql")) { schema in
            let after = "  # A one-line synopsis.\n  description: String\n"
            try #require(schema.contains(after))
            schema = schema.replacingOccurrences(of: after, with: after + "  # A subtitle.\n  subtitle: String\n")
            let removed = "  # The original language, as an ISO 639-1 code.\n  language: String\n"
            try #require(schema.contains(removed))
            schema = schema.replacingOccurrences(of: removed, with: "")
        }
        try edit(backend.url.appendingPathComponent("connector/queries.gql")) { queries in
            let selection = "      boxOffice\n      language\n"
            try #require(queries.contains(selection))
            queries = queries.replacingOccurrences(of: selection, with: "      boxOffice\n")
        }
        return backend
    }

    /// A copy of Backend/movies whose `Movie` type has `fields` (schema text, each line indented) after its
    /// description.
    static func copyOfMovies(adding fields: String) throws -> TemporaryDirectory {
        let backend = try RepositoryPaths.copyOfMovies()
        try edit(backend.url.appendingPathComponent("schema/schema.gql")) { schema in
            let after = "  # A one-line synopsis.\n  description: String\n"
            try #require(schema.contains(after))
            schema = schema.replacingOccurrences(of: after, with: after + fields)
        }
        return backend
    }

    /// Rewrites a text file.
    private static func edit(_ file: URL, _ change: (inout String) throws -> Void) throws {
        var text = try String(contentsOf: file, encoding: .utf8)
        try change(&text)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// The base tables of the database's current schema.
    private static func tables(_ url: String) throws -> Set<String> {
        let rows = try PGConnection(url).query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                + "AND table_type = 'BASE TABLE'")
        return Set((0..<rows.rowCount).compactMap { rows.string(row: $0, column: 0) })
    }

    /// The columns of a table of the current schema.
    private static func columns(_ url: String, table: String) throws -> Set<String> {
        let rows = try PGConnection(url).query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                + "AND table_name = $1", [.text(table)])
        return Set((0..<rows.rowCount).compactMap { rows.string(row: $0, column: 0) })
    }

    /// Inserts a movie and its metadata, in English.
    private static func insertMovieWithMetadata(_ url: String) throws {
        try PGConnection(url).execute(
            """
            INSERT INTO movie (id, title, created_at) VALUES ('00000000-0000-0000-0000-000000000001', 'Alien', now());
            INSERT INTO movie_metadata (id, movie_id, language)
                VALUES (gen_random_uuid(), '00000000-0000-0000-0000-000000000001', 'en');
            """)
    }

    /// The number of movie metadata rows, in `language` when given.
    private static func metadataCount(_ url: String, language: String? = nil) throws -> Int64? {
        let condition = language.map { " WHERE language = \(PGConnection.quoteLiteral($0))" } ?? ""
        return try PGConnection(url).query("SELECT count(*) FROM movie_metadata" + condition).int64(row: 0, column: 0)
    }
}
