import DataConnectEngine
import DataConnectSchema
import Foundation
import PostgreSQLKit
import Synchronization

/// Data in a PostgreSQL server: the database production Data Connect runs on, which several emulator
/// processes may share (each one's committed changes reach the others' realtime subscribers through
/// ``publish(_:)`` and ``observeChanges(_:)``).
///
/// Opening checks what the SQLite store's `quick_check` checks for a file: that the server answers the
/// login, its version (PostgreSQL 14 or later: pipeline mode and the SQL the dialect writes), and, when it
/// migrates, the schema version recorded in the database.
///
/// ```swift
/// let store = try PostgreSQLStore(connectionString: "postgres://postgres@127.0.0.1:5432/movies")
/// try store.migrate(service.api.model)
/// let engine = Engine(service: service, database: store.access, dialect: store.dialect)
/// ```
public final class PostgreSQLStore: DataStore {
    /// The oldest server version the store accepts, as `PQserverVersion` spells it.
    public static let minimumServerVersion = 140_000

    /// The connections.
    public let pool: PostgreSQLPool
    /// The tables of the last schema migrated to, for ``clear()``.
    private let tables = Mutex<[String]>([])
    public let summary: DataStoreSummary
    /// Changes shared with the other processes serving from the database.
    let feed: PostgreSQLChangeFeed

    /// Connects to the database and checks the server.
    ///
    /// - Parameters:
    ///   - connectionString: A `postgres://` URI or a `key=value` connection string.
    ///   - connections: How many connections to keep (at least 1); 4 by default.
    /// - Throws: ``DatabaseError`` of kind ``DatabaseError/Kind/unavailable`` with one line naming the host,
    ///   the port and the cause when the server cannot be reached or refuses the login; of kind
    ///   ``DatabaseError/Kind/other`` when the server is too old.
    public init(connectionString: String, connections: Int = 4) throws(DatabaseError) {
        do {
            pool = try PostgreSQLPool(connectionString: connectionString, size: connections)
        } catch {
            throw DatabaseError(.unavailable, error.description)
        }
        let probe: (version: Int, text: String, location: String, schema: String)
        do {
            probe = try pool.withConnection { source in
                (
                    version: source.connection.serverVersion,
                    text: try source.connection.serverVersionString,
                    location: "\(source.connection.host):\(source.connection.port)/\(source.connection.databaseName)",
                    schema: try source.connection.query("SELECT current_schema()").string(row: 0, column: 0) ?? "public"
                )
            }
        } catch let error as DatabaseError {
            throw error
        } catch {
            throw DatabaseError(.unavailable, "\(error)")
        }
        guard probe.version >= Self.minimumServerVersion else {
            throw DatabaseError(
                .other,
                "PostgreSQL \(probe.text) at \(probe.location) is too old: the emulator needs PostgreSQL 14 or later")
        }
        feed = PostgreSQLChangeFeed(connectionString: connectionString, schema: probe.schema)
        let version = probe.text.split(separator: " ").first.map(String.init) ?? probe.text
        summary = DataStoreSummary(kind: .postgreSQL, location: probe.location, version: version)
        pool.storageHealth.setLocation(probe.location)
    }

    public var access: any DatabaseAccess { pool }

    public var health: StorageHealth { pool.storageHealth }

    public var dialect: any SQLDialect { PostgreSQLDialect() }

    /// Migrates additively under the advisory lock (see ``PostgreSQLMigrator``); destructive differences are
    /// reported as issues, for `dataconnect sql migrate --force` to apply. A plan with steps the data will make
    /// fail applies nothing and reports them as blocking issues; ``clear()`` then keeps to the tables it had.
    public func migrate(_ model: SchemaModel) throws -> MigrationReport {
        let migrator = PostgreSQLMigrator(model: model)
        let report = try pool.withConnection { source in
            try migrator.migrate(on: source.connection)
        }
        if report.blockingIssues.isEmpty {
            tables.withLock { $0 = migrator.ddl.tables.map(\.name) }
        }
        return report
    }

    /// Empties the schema's tables in one statement (`TRUNCATE ... RESTART IDENTITY CASCADE`).
    public func clear() throws {
        let names = tables.withLock { $0 }
        guard !names.isEmpty else { return }
        let dialect = PostgreSQLDialect()
        try pool.withConnection { source in
            try source.execute(
                "TRUNCATE " + names.map(dialect.quote).joined(separator: ", ") + " RESTART IDENTITY CASCADE")
        }
    }

    /// Not offered on PostgreSQL: the data stays in the server, which has its own tools.
    public func export(to directory: String, version: String) throws -> String {
        throw DatabaseError(
            .other,
            "export is not supported when serving from PostgreSQL (\(summary.location)): the data stays in the "
                + "server; copy it with pg_dump")
    }

    /// Not offered on PostgreSQL: the data stays in the server, which has its own tools.
    public func importData(from directory: String) throws -> ImportReport {
        throw DatabaseError(
            .other,
            "import is not supported when serving from PostgreSQL (\(summary.location)): load the data with "
                + "pg_restore or psql, or a seed file (--seed)")
    }

    /// The first key of the advisory lock seeding holds (the second is the hash of the current schema's name):
    /// the bytes of `dcsd`.
    static let seedLockKey: Int32 = 0x6463_7364

    /// Runs `body` holding a session advisory lock of the current schema, on a connection of its own, so that
    /// emulators starting at once on one database with `--seed` seed one after the other (the later ones then
    /// find rows and skip).
    ///
    /// - Throws: ``PGError`` when the lock cannot be taken; what `body` throws.
    public func whileSeeding<Result>(_ body: () throws -> Result) throws -> Result {
        let connection = try PGConnection(pool.connectionString)
        let key = "\(Self.seedLockKey), hashtext(current_schema())"
        try connection.execute("SELECT pg_advisory_lock(\(key))")
        defer { try? connection.execute("SELECT pg_advisory_unlock(\(key))") }
        return try body()
    }

    public func beginClosing() {
        feed.stop()
        pool.beginClosing()
    }

    /// Sends the change on the schema's notification channel (see ``PostgreSQLChangeFeed``), off the caller's
    /// thread; a failure to send leaves the other processes' subscribers to the next change.
    public func publish(_ change: DataChange) {
        feed.send(change)
    }

    /// Listens on the database's notification channel on a connection and thread of its own, and returns once it
    /// listens.
    public func observeChanges(_ handler: @escaping @Sendable (DataChange) -> Void) {
        feed.start(handler)
    }

    /// Nothing to fold: every commit is already in the server.
    public func close() throws {}
}
