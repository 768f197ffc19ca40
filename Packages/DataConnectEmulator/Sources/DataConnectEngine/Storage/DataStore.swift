import DataConnectSchema

/// The database an emulator serves from: how the engine reaches it, the SQL it speaks, and the maintenance the
/// emulator offers on it (migration, clearing, export and import, a clean stop).
///
/// DataConnectSQLiteStore's `SQLiteStore` keeps the data in an embedded SQLite database (in memory or in a
/// file); DataConnectPostgreSQLStore's `PostgreSQLStore` in a PostgreSQL server, which several emulator
/// processes may share.
public protocol DataStore: AnyObject, Sendable {
    /// The engine's access to the database.
    var access: any DatabaseAccess { get }
    /// The SQL the database speaks.
    var dialect: any SQLDialect { get }
    /// What `/emulator/info` and the start-up banner report about the database.
    var summary: DataStoreSummary { get }
    /// Whether the database was found damaged; once it is, the engine answers every request `UNAVAILABLE`.
    var health: StorageHealth { get }
    /// Whether ``probeIntegrity()`` checks anything, so that the emulator schedules it: a database file does;
    /// a database in memory, or one that checks itself (PostgreSQL), does not.
    var probesIntegrity: Bool { get }
    /// Checks the database cheaply for damage no request has hit yet, recording what it finds in ``health``;
    /// the emulator calls it periodically. Nothing for a database that checks itself (PostgreSQL).
    func probeIntegrity()
    /// Brings the database's tables to the schema, additively (see ``MigrationReport``).
    func migrate(_ model: SchemaModel) throws -> MigrationReport
    /// Deletes every row of every table, keeping the schema.
    func clear() throws
    /// Writes the data to an export folder; returns the file written.
    func export(to directory: String, version: String) throws -> String
    /// Loads the data of an export folder, replacing what is there.
    func importData(from directory: String) throws -> ImportReport
    /// Interrupts running statements and makes new ones fail: the emulator is stopping.
    func beginClosing()
    /// Leaves the database in a clean state after the last request (SQLite folds its write-ahead log).
    func close() throws
    /// Tells the other processes serving from the same database about a change this process committed, so
    /// that their realtime subscribers see it; nothing for a database only this process serves from.
    func publish(_ change: DataChange)
    /// Calls `handler` (on a thread of the store's) for every change another process publishes, until
    /// ``beginClosing()``; nothing for a database only this process serves from. Returns once changes
    /// committed from then on are observed.
    func observeChanges(_ handler: @escaping @Sendable (DataChange) -> Void)
    /// Runs `body` while no other process serving from the same database runs its own: seeding checks that the
    /// database is empty and seeds inside it, so that emulators starting at once with `--seed` seed once.
    /// Just runs `body` for a database only this process serves from.
    func whileSeeding<Result>(_ body: () throws -> Result) throws -> Result
}

extension DataStore {
    /// `false`: nothing to check.
    public var probesIntegrity: Bool { false }

    /// Nothing to check: the database server checks its own data.
    public func probeIntegrity() {}

    /// No other process serves from the database: runs `body`.
    public func whileSeeding<Result>(_ body: () throws -> Result) throws -> Result {
        try body()
    }

    /// Nothing to tell: no other process serves from the database.
    public func publish(_ change: DataChange) {}

    /// Nothing to observe: no other process serves from the database.
    public func observeChanges(_ handler: @escaping @Sendable (DataChange) -> Void) {}
}

/// A change committed to the data, as the realtime hub needs it.
public enum DataChange: Sendable {
    /// A mutation committed.
    case mutation(MutationEffect)
    /// Tables (GraphQL type names) written outside a mutation (clear, import).
    case tables(Set<String>)
}

/// What an import copied.
public struct ImportReport: Hashable, Sendable {
    /// Rows copied per table.
    public var rows: [String: Int]
    /// Tables of the export that the database does not have; their rows were not copied.
    public var skippedTables: [String]

    /// Creates a report.
    public init(rows: [String: Int], skippedTables: [String]) {
        self.rows = rows
        self.skippedTables = skippedTables
    }
}

/// The kind of database a store serves from; its raw value is how `/emulator/info` names it.
public enum DatabaseKind: String, Hashable, Sendable {
    /// The embedded SQLite database, in memory or in a file.
    case sqlite
    /// A PostgreSQL server.
    case postgreSQL = "postgresql"
}

/// What an emulator reports about its database.
public struct DataStoreSummary: Hashable, Sendable {
    /// The kind of database.
    public var kind: DatabaseKind
    /// Where the data lives: `memory`, a file path, or `host:port/database` (never a password).
    public var location: String
    /// The database's version (`3.40.1`, `15.18`).
    public var version: String

    /// Creates a summary.
    public init(kind: DatabaseKind, location: String, version: String) {
        self.kind = kind
        self.location = location
        self.version = version
    }

    /// `SQLite 3.40.1 (memory)`, `PostgreSQL 15.18 at 127.0.0.1:5432/postgres`.
    public var description: String {
        switch kind {
        case .postgreSQL: "PostgreSQL \(version) at \(location)"
        case .sqlite: "SQLite \(version) (\(location))"
        }
    }
}
