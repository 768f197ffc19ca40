import DataConnectWire
import Foundation
import SQLiteKit

/// An ``AuthStorage`` in a SQLite file of its own (`<dataDir>/auth.sqlite`), apart from the Data Connect database.
///
/// Two tables: `accounts(project, local_id, record)` with the export record as JSON text, and
/// `config(project, record)`.
///
/// ```swift
/// let storage = try SQLiteAuthStorage(path: "\(dataDirectory)/auth.sqlite")
/// ```
public final class SQLiteAuthStorage: AuthStorage {
    private let connection: Connection

    /// Opens (creating when needed) the file and its tables.
    ///
    /// - Parameter path: The database file.
    /// - Throws: `SQLiteError` when the file cannot be opened or the tables created.
    public init(path: String) throws {
        connection = try Connection(path: path)
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS accounts (
                project TEXT NOT NULL, local_id TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (project, local_id));
            CREATE TABLE IF NOT EXISTS config (project TEXT PRIMARY KEY, record TEXT NOT NULL);
            """)
    }

    public func load() throws -> [String: StoredAuthProject] {
        var projects: [String: StoredAuthProject] = [:]
        for row in try connection.query("SELECT project, record FROM accounts ORDER BY project, local_id") {
            guard let project: String = row[0], let text: String = row[1] else { continue }
            projects[project, default: StoredAuthProject()].accounts.append(try JSONValue(parsing: text))
        }
        for row in try connection.query("SELECT project, record FROM config") {
            guard let project: String = row[0], let text: String = row[1] else { continue }
            projects[project, default: StoredAuthProject()].config = try JSONValue(parsing: text)
        }
        return projects
    }

    public func upsertAccount(_ record: JSONValue, localId: String, project: String) throws {
        try connection.execute(
            "INSERT INTO accounts (project, local_id, record) VALUES (?, ?, ?) "
                + "ON CONFLICT (project, local_id) DO UPDATE SET record = excluded.record",
            [.text(project), .text(localId), .text(record.jsonString())])
    }

    public func deleteAccount(localId: String, project: String) throws {
        try connection.execute(
            "DELETE FROM accounts WHERE project = ? AND local_id = ?", [.text(project), .text(localId)])
    }

    public func deleteAllAccounts(project: String) throws {
        try connection.execute("DELETE FROM accounts WHERE project = ?", [.text(project)])
    }

    public func saveConfig(_ config: JSONValue, project: String) throws {
        try connection.execute(
            "INSERT INTO config (project, record) VALUES (?, ?) "
                + "ON CONFLICT (project) DO UPDATE SET record = excluded.record",
            [.text(project), .text(config.jsonString())])
    }
}
