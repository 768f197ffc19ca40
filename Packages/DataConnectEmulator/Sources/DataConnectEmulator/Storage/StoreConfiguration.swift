import DataConnectEngine
import DataConnectPostgreSQLStore
import DataConnectSQLiteStore

/// Which database the emulator serves from, and the one place that opens it.
///
/// The emulator asks the store it opened only what ``DataStore`` answers; what it needs to know about the
/// database beyond that (whether a `POST /emulator/configure` names the database already served) it reads here.
///
/// ```swift
/// let store = try StoreConfiguration(options).open()
/// let engine = Engine(service: service, database: store.access, dialect: store.dialect)
/// ```
public enum StoreConfiguration: Hashable, Sendable {
    /// The embedded SQLite database, in a file or in memory, with `readers` reader connections beside the writer.
    case sqlite(DatabaseLocation, readers: Int)
    /// A PostgreSQL database, through a pool of `connections` connections.
    case postgreSQL(connectionString: String, connections: Int)

    /// The database the options name: PostgreSQL when ``Emulator/Options/postgreSQL`` is set (with one
    /// connection more than ``Emulator/Options/readers``), otherwise SQLite in the data directory, or in memory.
    public init(_ options: Emulator.Options) {
        if let connectionString = options.postgreSQL {
            self = .postgreSQL(connectionString: connectionString, connections: options.readers + 1)
        } else {
            self = .sqlite(
                options.dataDirectory.map { DatabaseLocation.dataDirectory($0) } ?? .memory,
                readers: max(1, options.readers))
        }
    }

    /// The dialect the start checks compile connectors and seed files to, whatever the database: SQLite's, the
    /// embedded database's, as `dataconnect validate` does, so that both refuse the same backends.
    public static var startCheckDialect: any SQLDialect { SQLiteDialect() }

    /// The kind of database it names.
    public var kind: DatabaseKind {
        switch self {
        case .sqlite: .sqlite
        case .postgreSQL: .postgreSQL
        }
    }

    /// Whether it names the PostgreSQL database of `connectionString`, whatever the pool's size.
    public func isPostgreSQL(_ connectionString: String) -> Bool {
        guard case .postgreSQL(let current, _) = self else { return false }
        return current == connectionString
    }

    /// Opens the database: creates the SQLite file (and its folder) when missing, or connects to PostgreSQL and
    /// checks the server.
    ///
    /// - Returns: The store, not yet migrated.
    /// - Throws: ``EmulatorError``: `cannot open the database: …` for SQLite, the driver's one-line reason (host,
    ///   port and cause) for PostgreSQL.
    public func open() throws(EmulatorError) -> any DataStore {
        switch self {
        case .sqlite(let location, let readers):
            do {
                return try SQLiteStore(location: location, readers: readers)
            } catch {
                throw EmulatorError("cannot open the database: \(error)")
            }
        case .postgreSQL(let connectionString, let connections):
            do {
                return try PostgreSQLStore(connectionString: connectionString, connections: connections)
            } catch {
                throw EmulatorError(error.message)
            }
        }
    }
}
