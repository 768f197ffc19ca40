import DataConnectEngine
import DataConnectWire
import Foundation
import SQLiteKit

/// Clearing, exporting and importing the emulator's data, keeping the schema.
///
/// The export layout follows the Firebase emulator suite: `<dir>/firebase-export-metadata.json` gains
/// `"dataconnect": {"version": ..., "path": "dataconnect_export"}`, and the data is
/// `<dir>/dataconnect_export/sqlite.db`, a consistent `VACUUM INTO` copy of the database.
///
/// ```swift
/// let maintenance = DataMaintenance(pool: pool)
/// try maintenance.export(to: "exports/2026-11-29", version: "1.0.0")
/// try maintenance.clear()
/// let report = try maintenance.import(from: "exports/2026-11-29")
/// ```
public struct DataMaintenance: Sendable {
    /// The export's data folder, relative to the export directory.
    public static let exportFolder = "dataconnect_export"
    /// The exported database's file name inside ``exportFolder``.
    public static let snapshotFileName = "sqlite.db"
    /// The emulator suite's metadata file in the export directory.
    public static let metadataFileName = "firebase-export-metadata.json"

    private static let snapshotSchema = "dataconnect_snapshot"

    /// The database maintained.
    public let pool: SQLitePool

    /// Creates the maintenance operations of a pool.
    public init(pool: SQLitePool) {
        self.pool = pool
    }

    /// Deletes every row of every table in one transaction, with foreign-key checks deferred to the commit;
    /// the schema (and the migrator's records) stay.
    ///
    /// - Throws: ``SQLiteError``.
    public func clear() throws {
        try pool.write { db in
            let connection = db.connection
            try connection.transaction(.immediate) {
                try connection.execute("PRAGMA defer_foreign_keys = ON")
                for table in try Self.dataTables(connection, schema: "main") {
                    try connection.execute("DELETE FROM \"main\".\(Connection.quoteIdentifier(table))")
                }
            }
        }
    }

    /// Writes a consistent copy of the database to `<directory>/dataconnect_export/sqlite.db`, replacing an
    /// earlier export, and records it in `<directory>/firebase-export-metadata.json`, keeping the file's other
    /// keys.
    ///
    /// The copy runs on the writer connection, so it sees every committed mutation and no partial one.
    ///
    /// - Parameters:
    ///   - directory: The export directory; created when missing.
    ///   - version: The version recorded under `dataconnect.version`.
    /// - Returns: The path of the exported database.
    /// - Throws: ``SQLiteError``, a file-system error, or ``StorageError/invalidExportMetadata(path:reason:)``
    ///   when the existing metadata file is not a JSON object.
    @discardableResult
    public func export(to directory: String, version: String) throws -> String {
        let folder = Self.join(directory, Self.exportFolder)
        let target = Self.join(folder, Self.snapshotFileName)
        let partial = target + ".partial"
        let files = FileManager.default
        try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if files.fileExists(atPath: partial) { try files.removeItem(atPath: partial) }
        try pool.write { db in
            try db.connection.execute("VACUUM INTO ?", [.text(pool.attachableName(ofFile: partial))])
        }
        if files.fileExists(atPath: target) { try files.removeItem(atPath: target) }
        try files.moveItem(atPath: partial, toPath: target)

        let metadataPath = Self.join(directory, Self.metadataFileName)
        var metadata = try Self.readMetadata(metadataPath) ?? JSONObject()
        metadata["dataconnect"] = ["version": .string(version), "path": .string(Self.exportFolder)]
        let text = Self.prettyJSON(.object(metadata)) + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: metadataPath), options: .atomic)
        return target
    }

    /// Replaces the database's rows with those of an export, in one transaction.
    ///
    /// The data folder is the metadata's `dataconnect.path`, or `dataconnect_export`. Every table of the
    /// database is emptied; each table of the export that the database also has is copied, column by column
    /// for the columns both have (so an export from an older schema loads into a newer one). Foreign keys are
    /// checked at the commit.
    ///
    /// - Parameter directory: The export directory.
    /// - Returns: The rows copied per table, and the exported tables the database does not have.
    /// - Throws: ``StorageError/missingSnapshot(_:)`` when there is no exported database, ``SQLiteError``
    ///   when the rows do not fit (the database is then unchanged).
    @discardableResult
    public func `import`(from directory: String) throws -> ImportReport {
        let metadata = try Self.readMetadata(Self.join(directory, Self.metadataFileName))
        let folder = metadata?["dataconnect"]?["path"]?.stringValue ?? Self.exportFolder
        let snapshot = Self.join(Self.join(directory, folder), Self.snapshotFileName)
        guard FileManager.default.fileExists(atPath: snapshot) else { throw StorageError.missingSnapshot(snapshot) }
        let schema = Connection.quoteIdentifier(Self.snapshotSchema)
        return try pool.write { db in
            let connection = db.connection
            try connection.execute("ATTACH DATABASE ? AS \(schema)", [.text(pool.attachableName(ofFile: snapshot))])
            defer { try? connection.execute("DETACH DATABASE \(schema)") }
            return try connection.transaction(.immediate) {
                try connection.execute("PRAGMA defer_foreign_keys = ON")
                let tables = try Self.dataTables(connection, schema: "main")
                for table in tables {
                    try connection.execute("DELETE FROM \"main\".\(Connection.quoteIdentifier(table))")
                }
                var report = ImportReport(rows: [:], skippedTables: [])
                for table in try Self.dataTables(connection, schema: Self.snapshotSchema) {
                    guard tables.contains(table) else {
                        report.skippedTables.append(table)
                        continue
                    }
                    let exported = Set(try Self.columns(connection, schema: Self.snapshotSchema, table: table))
                    let common = try Self.columns(connection, schema: "main", table: table).filter(exported.contains)
                    let list = common.map(Connection.quoteIdentifier).joined(separator: ", ")
                    let name = Connection.quoteIdentifier(table)
                    try connection.execute(
                        "INSERT INTO \"main\".\(name) (\(list)) SELECT \(list) FROM \(schema).\(name)")
                    report.rows[table] = connection.changes
                }
                return report
            }
        }
    }

    // MARK: Helpers

    /// The tables holding data in a schema: every table but SQLite's own and the migrator's records.
    static func dataTables(_ connection: Connection, schema: String) throws -> [String] {
        try connection.query(
            // Full-text indexes (virtual tables and their shadow tables) follow their tables through triggers.
            "SELECT name FROM pragma_table_list WHERE schema = ? AND type = 'table' "
                + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ? ORDER BY name",
            [.text(schema), .text(SQLiteMigrator.metadataTable)]
        ).compactMap { $0["name"] as String? }
    }

    /// The column names of a table, in order.
    static func columns(_ connection: Connection, schema: String, table: String) throws -> [String] {
        try connection.query(
            "PRAGMA \(Connection.quoteIdentifier(schema)).table_info(\(Connection.quoteIdentifier(table)))"
        ).compactMap { $0["name"] as String? }
    }

    /// The metadata object, or `nil` when the file does not exist.
    static func readMetadata(_ path: String) throws -> JSONObject? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: [UInt8](data))
        } catch {
            throw StorageError.invalidExportMetadata(path: path, reason: "\(error)")
        }
        guard let object = value.objectValue else {
            throw StorageError.invalidExportMetadata(path: path, reason: "the top level is not an object")
        }
        return object
    }

    /// JSON indented by two spaces, as the emulator suite writes its metadata.
    static func prettyJSON(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .array(let items) where !items.isEmpty:
            let lines = items.map { inner + prettyJSON($0, indent: inner) }
            return "[\n" + lines.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let object) where !object.keys.isEmpty:
            let lines = zip(object.keys, object.values).map { key, member in
                inner + JSONValue.string(key).jsonString() + ": " + prettyJSON(member, indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return value.jsonString()
        }
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
