import DataConnectSchema
import DataConnectWire
import EmulatorTesting
import Foundation
import SQLiteKit
import Synchronization
import Testing

@testable import DataConnectEngine
@testable import DataConnectPostgreSQLStore
@testable import DataConnectSQLiteStore

/// The schema, seed rows and callers shared by the engine tests.
///
/// The schema is small but touches every feature the engine compiles: an implicit UUID key, an
/// overridden table name, a user enum (declared out of alphabetical order), every scalar, a list
/// column, an optional reference (SET NULL) and required ones (CASCADE), a one-to-one reference, a
/// join table with a composite key, a String key defaulting to `auth.uid`, and column defaults.
enum EngineFixtures {
    static let schema = """
        enum Genre { DRAMA COMEDY SCIFI }

        type Person @table(name: "People", singular: "person", plural: "people") {
          name: String! @col(dataType: "varchar(20)")
          birthYear: Int
        }

        type Movie @table {
          title: String!
          releaseYear: Int
          rating: Float
          genre: Genre @default(value: DRAMA)
          tags: [String]
          isClassic: Boolean @default(value: false)
          budget: Int64
          releaseDate: Date
          createdAt: Timestamp! @default(expr: "request.time")
          extras: Any
          director: Person
        }

        type MovieMetadata @table {
          movie: Movie! @unique
          language: String
        }

        type Actor @table {
          name: String!
        }

        type MovieActor @table(key: ["movie", "actor"]) {
          movie: Movie!
          actor: Actor!
          role: String!
        }

        type User @table {
          id: String! @default(expr: "auth.uid")
          username: String! @unique
        }

        type Review @table(key: ["movie", "user"]) {
          movie: Movie!
          user: User!
          rating: Int
          reviewDate: Date! @default(expr: "request.time")
        }

        type Event @table {
          name: String! @default(value: "untitled")
          day: Date @default(expr: "request.time")
          loggedAt: Timestamp @default(sql: "now()")
          createdAt: Timestamp @default(expr: "request.time")
          owner: String @default(expr: "auth.uid")
          scores: [Int]
          count: Int
          weight: Float
          kind: Genre
        }
        """

    // Ids of the seed rows: 32 lowercase hex digits, as the wire returns them.
    static let nolan = "d0000000000000000000000000000001"
    static let gerwig = "d0000000000000000000000000000002"
    static let varda = "d0000000000000000000000000000003"
    static let inception = "a0000000000000000000000000000001"
    static let barbie = "a0000000000000000000000000000002"
    static let littleWomen = "a0000000000000000000000000000003"
    static let cleo = "a0000000000000000000000000000004"
    static let sale = "a0000000000000000000000000000005"
    static let leonardo = "c0000000000000000000000000000001"
    static let margot = "c0000000000000000000000000000002"
    static let saoirse = "c0000000000000000000000000000003"
    static let florence = "c0000000000000000000000000000004"

    /// The seed rows, inserted through the admin API with dashed UUIDs (as seed files write them).
    ///
    /// | movie | year | rating | genre | tags | budget | director |
    /// |---|---|---|---|---|---|---|
    /// | Inception | 2010 | 8.8 | SCIFI | dream, heist | 160000000 | Nolan |
    /// | Barbie | 2023 | 7 | COMEDY | doll, pink | 145000000 | Gerwig |
    /// | Little Women | 2019 | 7.8 | DRAMA | sisters | 40000000 | Gerwig |
    /// | Cleo from 5 to 7 | 1962 | 7.9 | DRAMA | null | null | Varda |
    /// | 50% Off_Sale | null | null | null | [] | null | null |
    static let seed = """
        mutation Seed @transaction {
          person_insertMany(data: [
            {id: "d0000000-0000-0000-0000-000000000001", name: "Nolan", birthYear: 1970},
            {id: "d0000000-0000-0000-0000-000000000002", name: "Gerwig", birthYear: 1983},
            {id: "d0000000-0000-0000-0000-000000000003", name: "Varda"}
          ])
          movie_insertMany(data: [
            {id: "a0000000-0000-0000-0000-000000000001", title: "Inception", releaseYear: 2010, rating: 8.8,
             genre: SCIFI, tags: ["dream", "heist"], budget: "160000000", releaseDate: "2010-07-16",
             createdAt: "2024-01-01T10:00:00Z", extras: {awards: 4, cast: ["Leo"]}, directorId: "d0000000-0000-0000-0000-000000000001"},
            {id: "a0000000-0000-0000-0000-000000000002", title: "Barbie", releaseYear: 2023, rating: 7.0,
             genre: COMEDY, tags: ["doll", "pink"], budget: "145000000", releaseDate: "2023-07-21",
             createdAt: "2024-01-02T10:00:00.5Z", directorId: "d0000000-0000-0000-0000-000000000002"},
            {id: "a0000000-0000-0000-0000-000000000003", title: "Little Women", releaseYear: 2019, rating: 7.8,
             genre: DRAMA, tags: ["sisters"], budget: "40000000", releaseDate: "2019-12-25",
             createdAt: "2024-01-03T10:00:00.123456Z", directorId: "d0000000-0000-0000-0000-000000000002"},
            {id: "a0000000-0000-0000-0000-000000000004", title: "Cleo from 5 to 7", releaseYear: 1962, rating: 7.9,
             genre: DRAMA, isClassic: true, releaseDate: "1962-04-11",
             createdAt: "2024-01-04T10:00:00Z", directorId: "d0000000-0000-0000-0000-000000000003"},
            {id: "a0000000-0000-0000-0000-000000000005", title: "50% Off_Sale", genre: null, tags: [],
             createdAt: "2024-01-05T10:00:00Z"}
          ])
          movieMetadata_insertMany(data: [
            {id: "e0000000-0000-0000-0000-000000000001", movieId: "a0000000-0000-0000-0000-000000000001", language: "en"},
            {id: "e0000000-0000-0000-0000-000000000004", movieId: "a0000000-0000-0000-0000-000000000004", language: "fr"}
          ])
          actor_insertMany(data: [
            {id: "c0000000-0000-0000-0000-000000000001", name: "Leonardo"},
            {id: "c0000000-0000-0000-0000-000000000002", name: "Margot"},
            {id: "c0000000-0000-0000-0000-000000000003", name: "Saoirse"},
            {id: "c0000000-0000-0000-0000-000000000004", name: "Florence"}
          ])
          movieActor_insertMany(data: [
            {movieId: "a0000000-0000-0000-0000-000000000001", actorId: "c0000000-0000-0000-0000-000000000001", role: "main"},
            {movieId: "a0000000-0000-0000-0000-000000000002", actorId: "c0000000-0000-0000-0000-000000000002", role: "main"},
            {movieId: "a0000000-0000-0000-0000-000000000002", actorId: "c0000000-0000-0000-0000-000000000003", role: "cameo"},
            {movieId: "a0000000-0000-0000-0000-000000000003", actorId: "c0000000-0000-0000-0000-000000000003", role: "main"},
            {movieId: "a0000000-0000-0000-0000-000000000003", actorId: "c0000000-0000-0000-0000-000000000004", role: "supporting"}
          ])
          user_insertMany(data: [{id: "u1", username: "alice"}, {id: "u2", username: "bob"}])
          review_insertMany(data: [
            {movieId: "a0000000-0000-0000-0000-000000000001", userId: "u1", rating: 5, reviewDate: "2024-02-01"},
            {movieId: "a0000000-0000-0000-0000-000000000001", userId: "u2", rating: 4, reviewDate: "2024-02-02"},
            {movieId: "a0000000-0000-0000-0000-000000000002", userId: "u1", rating: 3, reviewDate: "2024-02-03"}
          ])
        }
        """

    /// A signed-in, email-verified user `u1` (alice).
    static let alice = AuthContext(
        uid: "u1", claims: ["sub": "u1", "email_verified": true, "firebase": ["sign_in_provider": "password"]])
    /// A signed-in user `u2` (bob) without a verified email.
    static let bob = AuthContext(uid: "u2", claims: ["sub": "u2", "firebase": ["sign_in_provider": "password"]])
    /// An anonymous user.
    static let anonymous = AuthContext(
        uid: "anon-1", claims: ["sub": "anon-1", "firebase": ["sign_in_provider": "anonymous"]])
}

/// Every SQL text the engine prepared, in order, and apart from them the commands it ran (`BEGIN`, `COMMIT`).
final class SQLLog: Sendable {
    private let entries = Mutex<[String]>([])
    private let commands = Mutex<[String]>([])

    func append(_ sql: String) { entries.withLock { $0.append(sql) } }

    func appendCommand(_ sql: String) { commands.withLock { $0.append(sql) } }

    /// The texts logged so far; the log starts over.
    func drain() -> [String] {
        entries.withLock { log in
            let drained = log
            log = []
            return drained
        }
    }

    /// The commands logged so far; their log starts over.
    func drainCommands() -> [String] {
        commands.withLock { log in
            let drained = log
            log = []
            return drained
        }
    }
}

/// A statement source that logs every SQL text before preparing it.
final class RecordingSource: StatementSource {
    let base: any StatementSource
    let log: SQLLog

    init(base: any StatementSource, log: SQLLog) {
        self.base = base
        self.log = log
    }

    func statement(_ sql: String) throws(DatabaseError) -> any DatabaseStatement {
        log.append(sql)
        return try base.statement(sql)
    }

    func execute(_ sql: String) throws(DatabaseError) {
        log.appendCommand(sql)
        try base.execute(sql)
    }

    func installBudget(_ budget: RequestBudget) { base.installBudget(budget) }

    func removeBudget(_ budget: RequestBudget) { base.removeBudget(budget) }
    var interrupter: @Sendable () -> Void { base.interrupter }
    var commitsSingleStatementsAlone: Bool { base.commitsSingleStatementsAlone }
}

/// Pool access that records the SQL of each request (what the engine really ran).
struct RecordingAccess: DatabaseAccess {
    let base: any DatabaseAccess
    let log: SQLLog

    func read<T>(_ body: (any StatementSource) throws -> T) throws -> T {
        try base.read { try body(RecordingSource(base: $0, log: log)) }
    }

    func write<T>(_ body: (any StatementSource) throws -> T) throws -> T {
        try base.write { try body(RecordingSource(base: $0, log: log)) }
    }

    var isClosing: Bool { base.isClosing }

    var health: StorageHealth? { base.health }
}

/// One engine answer, decoded.
struct EngineResult {
    /// The request-level status (`.ok` for a GraphQL response).
    let status: StatusCode
    /// The whole body.
    let body: JSONValue
    /// The SQL the engine prepared for the request, in order.
    let sql: [String]
    /// The commands without rows the engine ran for the request (`BEGIN`, `COMMIT`, `ROLLBACK`), in order.
    var commands: [String] = []

    var data: JSONValue? { body["data"] }
    var errors: [JSONValue] { body["errors"]?.arrayValue ?? [] }
    /// `(path, code, message)` of every error, for compact assertions.
    var errorSummaries: [String] {
        errors.map { error in
            let path = (error["path"]?.arrayValue ?? []).map { $0.stringValue ?? $0.jsonString() }.joined(
                separator: ".")
            let code = error["extensions"]?["code"]?.stringValue ?? "-"
            return "\(path) \(code) \(error["message"]?.stringValue ?? "")"
        }
    }
    /// `extensions.dataConnect`, or an empty list.
    var dataConnect: [JSONValue] { body["extensions"]?["dataConnect"]?.arrayValue ?? [] }
    /// The request-level error message (`error.message`).
    var requestErrorMessage: String? { body["error"]?["message"]?.stringValue }
    /// The SQL the engine prepared, joined for fragment assertions.
    var allSQL: String { sql.joined(separator: "\n") }
}

/// A backend compiled from in-memory sources (written to a temporary folder and loaded with
/// ``ServiceCompiler``), migrated into a fresh database of the running test's ``TestDatabase`` and optionally
/// seeded.
final class TestBackend {
    let service: CompiledService
    /// The database of the running test (its ``TestDatabaseTrait``): SQLite in memory, or a fresh PostgreSQL
    /// schema, dropped with the backend.
    let testStore: TestStore
    /// The store serving from it.
    var store: any DataStore { testStore.store }
    let engine: Engine
    let log = SQLLog()

    static let connectorID = "tests"

    /// Compiles `schema` and the connector document `operations`.
    ///
    /// - Parameters:
    ///   - operations: the connector's `.gql` text.
    ///   - schema: the schema text.
    ///   - clientCache: whether `connector.yaml` enables the Swift SDK's client cache (entity ids).
    ///   - seeded: whether to insert ``EngineFixtures/seed``.
    ///   - embeddings: the provider of `_embed` and `compare_embed` vectors.
    init(
        _ operations: String, schema: String = EngineFixtures.schema, clientCache: Bool = false, seeded: Bool = true,
        executionLimits: ExecutionLimits = .default, deadlines: any DeadlineScheduler = DeadlineWatchdog.shared,
        embeddings: (any EmbeddingProvider)? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let directory = NSTemporaryDirectory() + "dataconnect-engine-tests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = FileManager.default
        try files.createDirectory(atPath: directory + "/schema", withIntermediateDirectories: true)
        try files.createDirectory(atPath: directory + "/connector", withIntermediateDirectories: true)
        try """
        specVersion: "v1"
        serviceId: "tests"
        location: "us-central1"
        schema:
          source: "./schema"
          datasource:
            postgresql:
              database: "tests"
        connectorDirs: ["./connector"]
        """.write(toFile: directory + "/dataconnect.yaml", atomically: true, encoding: .utf8)
        try schema.write(toFile: directory + "/schema/schema.gql", atomically: true, encoding: .utf8)
        var manifest = "connectorId: \"\(Self.connectorID)\"\n"
        if clientCache {
            manifest += """
                generate:
                  swiftSdk:
                    outputDir: "generated"
                    package: "TestsGenerated"
                    clientCache:
                      maxAge: 30s
                """
        }
        try manifest.write(toFile: directory + "/connector/connector.yaml", atomically: true, encoding: .utf8)
        try operations.write(toFile: directory + "/connector/operations.gql", atomically: true, encoding: .utf8)

        let (compiled, diagnostics) = ServiceCompiler.compile(backendDirectory: directory)
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
        service = try #require(compiled, sourceLocation: sourceLocation)
        testStore = try TestStore(sourceLocation: sourceLocation)
        let store = testStore.store
        let report = try store.migrate(service.api.model)
        #expect(report.issues.isEmpty, "\(report.issues)", sourceLocation: sourceLocation)
        engine = Engine(
            service: service, database: RecordingAccess(base: store.access, log: log), dialect: store.dialect,
            executionLimits: executionLimits, deadlines: deadlines, embeddings: embeddings)
        #expect(engine.issues.isEmpty, "\(engine.issues)", sourceLocation: sourceLocation)
        if seeded {
            // Seeded without the test's execution limits, which may refuse any statement.
            let seeder = Engine(service: service, database: store.access, dialect: store.dialect)
            let response = seeder.execute(
                EngineRequest(
                    kind: .admin(query: EngineFixtures.seed, operationName: nil, readOnly: false), enforceAuth: false))
            let result = EngineResult(
                status: response.status, body: (try? JSONValue(parsing: response.body)) ?? .null, sql: [])
            #expect(
                result.errors.isEmpty && result.status == .ok, "seed failed: \(result.body)",
                sourceLocation: sourceLocation)
        }
    }

    /// Runs a connector query.
    func query(_ name: String, _ variables: JSONObject = [:], auth: AuthContext? = EngineFixtures.alice) -> EngineResult
    {
        run(
            EngineRequest(
                kind: .connector(connector: Self.connectorID, operationName: name, mutation: false),
                variables: variables, auth: auth))
    }

    /// Runs a connector mutation.
    func mutation(
        _ name: String, _ variables: JSONObject = [:], auth: AuthContext? = EngineFixtures.alice
    ) -> EngineResult {
        run(
            EngineRequest(
                kind: .connector(connector: Self.connectorID, operationName: name, mutation: true),
                variables: variables, auth: auth))
    }

    /// Runs an admin `executeGraphql` document without impersonation.
    func admin(_ text: String, _ variables: JSONObject = [:], auth: AuthContext? = nil) -> EngineResult {
        run(
            EngineRequest(
                kind: .admin(query: text, operationName: nil, readOnly: false), variables: variables, auth: auth,
                enforceAuth: false))
    }

    func run(_ request: EngineRequest) -> EngineResult {
        _ = log.drain()
        _ = log.drainCommands()
        let response = engine.execute(request)
        let body = (try? JSONValue(parsing: response.body)) ?? .string(String(decoding: response.body, as: UTF8.self))
        return EngineResult(status: response.status, body: body, sql: log.drain(), commands: log.drainCommands())
    }

    /// The stored values of a raw SQL query's rows (for checking storage forms and side effects).
    func rows(_ sql: String) throws -> [[DatabaseValue]] {
        try testStore.rows(sql)
    }
}

/// Parses expected JSON written in a test.
func json(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> JSONValue {
    do {
        return try JSONValue(parsing: text)
    } catch {
        Issue.record("bad expected JSON: \(error)", sourceLocation: sourceLocation)
        return .null
    }
}
