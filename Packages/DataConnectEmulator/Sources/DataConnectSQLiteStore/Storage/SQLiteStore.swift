import DataConnectEngine
import DataConnectSchema
import SQLiteKit

/// The embedded database: SQLite in memory or in a file, through a ``SQLitePool``.
///
/// ```swift
/// let store = try SQLiteStore(location: .dataDirectory(".dataconnect/data"))
/// try store.migrate(service.api.model)
/// let engine = Engine(service: service, database: store.access, dialect: store.dialect)
/// ```
public final class SQLiteStore: DataStore {
    /// The connections.
    public let pool: SQLitePool
    public let summary: DataStoreSummary
    private let probe = IntegrityProbe()

    /// Opens the database (see ``SQLitePool/init(location:readers:busyTimeout:)``).
    public init(location: DatabaseLocation, readers: Int = 3) throws {
        pool = try SQLitePool(location: location, readers: readers)
        let path: String =
            switch location {
            case .memory: "memory"
            case .file(let file): file
            }
        var version = ""
        if case .text(let text)? = try pool.read({ try $0.connection.query("SELECT sqlite_version()").first?[0] }) {
            version = text
        }
        summary = DataStoreSummary(kind: .sqlite, location: path, version: version)
    }

    public var access: any DatabaseAccess { PoolAccess(pool) }

    public var health: StorageHealth { pool.health }

    /// Whether the data is in a file, which ``probeIntegrity()`` checks.
    public var probesIntegrity: Bool {
        if case .file = pool.location { return true }
        return false
    }

    /// Runs the ``IntegrityProbe`` when there were writes since its last run (files only).
    public func probeIntegrity() {
        probe.run(pool)
    }

    public var dialect: any SQLDialect { SQLiteDialect() }

    public func migrate(_ model: SchemaModel) throws -> MigrationReport {
        try SQLiteMigrator(model: model).migrate(pool)
    }

    public func clear() throws {
        try DataMaintenance(pool: pool).clear()
    }

    public func export(to directory: String, version: String) throws -> String {
        try DataMaintenance(pool: pool).export(to: directory, version: version)
    }

    public func importData(from directory: String) throws -> ImportReport {
        try DataMaintenance(pool: pool).import(from: directory)
    }

    public func beginClosing() {
        pool.beginClosing()
    }

    /// Folds the write-ahead log into the database file; once the file was found damaged, keeps the log as it
    /// is instead, for the next start to report and the user to recover.
    public func close() throws {
        if pool.health.failure != nil {
            pool.keepWriteAheadLogOnClose()
            return
        }
        try pool.checkpoint()
    }
}
