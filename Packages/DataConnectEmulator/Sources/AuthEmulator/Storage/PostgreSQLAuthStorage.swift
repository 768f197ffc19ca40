import DataConnectWire
import Foundation
import PostgreSQLKit
import Synchronization

/// An ``AuthStorage`` in a PostgreSQL database, in a schema of its own (`dataconnect_auth`) that the Data Connect
/// migrator, `clear` and export never touch.
///
/// Tables: `dataconnect_auth.accounts(project, local_id, record)` (the export record as JSON text) and
/// `dataconnect_auth.config(project, record)`.
///
/// ```swift
/// let storage = try PostgreSQLAuthStorage(connectionString: "postgres://localhost/app?sslmode=disable")
/// ```
public final class PostgreSQLAuthStorage: AuthStorage {
    /// The schema the tables live in.
    public let schema: String
    private let connection: Mutex<PGConnection>

    /// Connects and creates the schema and its tables when needed.
    ///
    /// - Parameters:
    ///   - connectionString: A libpq connection string.
    ///   - schema: The schema to use (`dataconnect_auth`; tests pass their own).
    /// - Throws: `PGError` when the database cannot be reached or the tables created.
    public init(connectionString: String, schema: String = "dataconnect_auth") throws {
        self.schema = schema
        let connection = try PGConnection(connectionString)
        let quoted = PGConnection.quoteIdentifier(schema)
        // One statement list is one transaction; the advisory lock keeps emulators starting at once on one database
        // from racing on `CREATE SCHEMA IF NOT EXISTS` (which can fail on the catalog's unique index).
        try connection.execute(
            """
            SELECT pg_advisory_xact_lock(hashtext(\(PGConnection.quoteLiteral("dataconnect_auth:" + schema))));
            CREATE SCHEMA IF NOT EXISTS \(quoted);
            CREATE TABLE IF NOT EXISTS \(quoted).accounts (
                project text NOT NULL, local_id text NOT NULL, record text NOT NULL, PRIMARY KEY (project, local_id));
            CREATE TABLE IF NOT EXISTS \(quoted).config (project text PRIMARY KEY, record text NOT NULL);
            """)
        self.connection = Mutex(connection)
    }

    private var table: (accounts: String, config: String) {
        let quoted = PGConnection.quoteIdentifier(schema)
        return ("\(quoted).accounts", "\(quoted).config")
    }

    public func load() throws -> [String: StoredAuthProject] {
        let tables = table
        return try connection.withLock { connection in
            var projects: [String: StoredAuthProject] = [:]
            let accounts = try connection.query("SELECT project, record FROM \(tables.accounts) ORDER BY 1, local_id")
            for row in 0..<accounts.rowCount {
                guard let project = accounts.string(row: row, column: 0),
                    let text = accounts.string(row: row, column: 1)
                else { continue }
                projects[project, default: StoredAuthProject()].accounts.append(try JSONValue(parsing: text))
            }
            let configs = try connection.query("SELECT project, record FROM \(tables.config)")
            for row in 0..<configs.rowCount {
                guard let project = configs.string(row: row, column: 0), let text = configs.string(row: row, column: 1)
                else { continue }
                projects[project, default: StoredAuthProject()].config = try JSONValue(parsing: text)
            }
            return projects
        }
    }

    public func upsertAccount(_ record: JSONValue, localId: String, project: String) throws {
        let sql =
            "INSERT INTO \(table.accounts) (project, local_id, record) VALUES ($1, $2, $3) "
            + "ON CONFLICT (project, local_id) DO UPDATE SET record = excluded.record"
        try connection.withLock { _ = try $0.query(sql, [.text(project), .text(localId), .text(record.jsonString())]) }
    }

    public func deleteAccount(localId: String, project: String) throws {
        let sql = "DELETE FROM \(table.accounts) WHERE project = $1 AND local_id = $2"
        try connection.withLock { _ = try $0.query(sql, [.text(project), .text(localId)]) }
    }

    public func deleteAllAccounts(project: String) throws {
        let sql = "DELETE FROM \(table.accounts) WHERE project = $1"
        try connection.withLock { _ = try $0.query(sql, [.text(project)]) }
    }

    public func saveConfig(_ config: JSONValue, project: String) throws {
        let sql =
            "INSERT INTO \(table.config) (project, record) VALUES ($1, $2) "
            + "ON CONFLICT (project) DO UPDATE SET record = excluded.record"
        try connection.withLock { _ = try $0.query(sql, [.text(project), .text(config.jsonString())]) }
    }
}
