import Foundation
import SQLiteKit
import Synchronization

/// A ``CacheStorage`` in one SQLite file, for the `.persistent` cache setting.
///
/// The file uses WAL journaling and carries its schema version in `PRAGMA user_version`. Opening never fails
/// because of the file's content: a file that cannot be read, is not a database, is truncated or corrupt, or has
/// another schema version is renamed aside to `<name>.corrupt-<unix time>` (with its `-wal` and `-shm`
/// companions) and a fresh database takes its place. Each such recovery is reported through `onWarning`.
///
/// The records (``RecordStore``) and the dependency index (``DependencyIndex``) are tables of one database, on one
/// connection behind one lock; each ``transaction(_:)`` is one SQLite transaction. Statements are prepared once
/// and reused.
///
/// ```swift
/// let storage = try SQLiteCacheStorage(path: "/tmp/movies.sqlite3") { warning in
///     print("cache:", warning)
/// }
/// let cache = NormalizedCache(storage: storage)
/// ```
public final class SQLiteCacheStorage: CacheStorage {
    /// The schema version written to `PRAGMA user_version`; any other non-zero version is set aside.
    public static let schemaVersion = 1

    private static let schema = """
        CREATE TABLE IF NOT EXISTS queries(
            id TEXT PRIMARY KEY NOT NULL, tree BLOB NOT NULL, cached_at REAL NOT NULL, max_age REAL NOT NULL,
            last_accessed REAL NOT NULL, is_stale INTEGER NOT NULL, byte_size INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS queries_by_last_accessed ON queries(last_accessed, id);
        CREATE TABLE IF NOT EXISTS entities(
            id TEXT PRIMARY KEY NOT NULL, fields BLOB NOT NULL, byte_size INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS query_entities(
            query_id TEXT NOT NULL, entity_id TEXT NOT NULL, table_name TEXT NOT NULL, fields TEXT NOT NULL,
            PRIMARY KEY(query_id, entity_id)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS query_entities_by_entity ON query_entities(entity_id, query_id);
        CREATE INDEX IF NOT EXISTS query_entities_by_table ON query_entities(table_name, query_id);
        CREATE TABLE IF NOT EXISTS query_lists(
            query_id TEXT NOT NULL, table_name TEXT NOT NULL, PRIMARY KEY(query_id, table_name)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS query_lists_by_table ON query_lists(table_name, query_id);
        """

    /// The database file's path.
    public let path: String

    private struct Stores {
        let database: SQLiteCacheDatabase
        let records: SQLiteRecordStore
        let index: SQLiteDependencyIndex
    }

    private let stores: Mutex<Stores>

    /// Opens or creates the cache database at `path`, setting aside a file it cannot use.
    ///
    /// The parent directory is created when missing. `:memory:` opens a private in-memory database.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - onWarning: Called with a human-readable message for each file set aside.
    /// - Throws: ``SQLiteKit/SQLiteError`` only when even a fresh database cannot be created there, for example
    ///   because the directory is not writable.
    public init(path: String, onWarning: @Sendable (String) -> Void = { _ in }) throws {
        self.path = path
        let connection: Connection
        if path == ":memory:" {
            connection = try Self.openVerified(path: path)
        } else {
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            do {
                connection = try Self.openVerified(path: path)
            } catch {
                // Nothing to set aside: the directory itself is unusable.
                guard FileManager.default.fileExists(atPath: path) else { throw error }
                let suffix = ".corrupt-\(Int(Date().timeIntervalSince1970))"
                Self.setAside(path: path, suffix: suffix)
                onWarning(
                    "cache database \(path) could not be used (\(error)); "
                        + "moved it to \(path + suffix) and created a new one"
                )
                connection = try Self.openVerified(path: path)
            }
        }
        let database = SQLiteCacheDatabase(connection: connection)
        let records = try SQLiteRecordStore(database: database)
        self.stores = Mutex(
            Stores(database: database, records: records, index: SQLiteDependencyIndex(database: database)))
    }

    private struct UnusableDatabase: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens the file, checks its version and integrity, and creates the schema in a new file.
    private static func openVerified(path: String) throws -> Connection {
        let connection = try Connection(
            path: path, configuration: Connection.Configuration(threading: .multiThread, foreignKeys: false)
        )
        if path != ":memory:" {
            // SQLite reads past the end of a file cut short as zeros; a size that is not a whole number of pages
            // is the sign of a truncated file.
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            var pageSize: Int64 = 4096
            if case .integer(let value)? = try connection.query("PRAGMA page_size").first?[0] { pageSize = value }
            if size > 0, pageSize > 0, size % Int(pageSize) != 0 {
                throw UnusableDatabase(
                    description: "truncated: \(size) bytes is not a whole number of \(pageSize)-byte pages")
            }
            _ = try connection.journalMode(.wal)
        }
        let version = try connection.userVersion()
        if version == 0 {
            let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'")
            let known: Set<String> = ["queries", "entities", "query_entities", "query_lists"]
            if let foreign = tables.compactMap({ $0[0].textValue }).first(where: { !known.contains($0) }) {
                throw UnusableDatabase(description: "unexpected table \(foreign)")
            }
            try connection.transaction(.immediate) {
                try connection.execute(schema)
                try connection.setUserVersion(schemaVersion)
            }
        } else if version != schemaVersion {
            throw UnusableDatabase(description: "schema version \(version), expected \(schemaVersion)")
        } else {
            let check = try connection.query("PRAGMA quick_check")
            let result = check.first?[0].textValue ?? "no result"
            guard result == "ok" else {
                throw UnusableDatabase(description: "integrity check: \(result)")
            }
            // A file cut short can keep its header (and so its version) but lose the schema page's contents.
            let tables = Set(
                try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap {
                    $0[0].textValue
                })
            let known: Set<String> = ["queries", "entities", "query_entities", "query_lists"]
            guard known.isSubset(of: tables) else {
                throw UnusableDatabase(description: "missing tables \(known.subtracting(tables).sorted())")
            }
        }
        try connection.execute("PRAGMA synchronous = NORMAL")
        return connection
    }

    private static func setAside(path: String, suffix: String) {
        let manager = FileManager.default
        for companion in ["", "-wal", "-shm"] where manager.fileExists(atPath: path + companion) {
            let target = path + suffix + companion
            try? manager.removeItem(atPath: target)
            if (try? manager.moveItem(atPath: path + companion, toPath: target)) == nil {
                try? manager.removeItem(atPath: path + companion)
            }
        }
    }

    // MARK: Transactions

    public func transaction<T: Sendable>(_ body: (any RecordStore, any DependencyIndex) throws -> T) throws -> T {
        try stores.withLock { stores in
            let connection = stores.database.connection
            try connection.execute("BEGIN IMMEDIATE")
            do {
                let result = try body(stores.records, stores.index)
                try connection.execute("COMMIT")
                return result
            } catch {
                try? connection.execute("ROLLBACK")
                try? stores.records.recount()
                throw error
            }
        }
    }

    public func clear() throws {
        try stores.withLock { stores in
            try stores.database.connection.execute(
                "DELETE FROM queries; DELETE FROM entities; DELETE FROM query_entities; DELETE FROM query_lists"
            )
            try stores.records.recount()
            try stores.database.connection.execute("VACUUM")
        }
    }
}

/// The connection of a ``SQLiteCacheStorage`` and its prepared statements, shared by its store and index.
final class SQLiteCacheDatabase {
    let connection: Connection
    private var statements: [String: Statement] = [:]

    init(connection: Connection) {
        self.connection = connection
    }

    /// The prepared statement for `sql`, prepared on first use.
    func statement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try connection.prepare(sql, persistent: true)
        statements[sql] = statement
        return statement
    }

    func execute(_ sql: String, _ bindings: [SQLiteValue]) throws {
        try statement(sql).execute(bindings)
    }
}

/// The records of a ``SQLiteCacheStorage``: the `queries` and `entities` tables, with running totals.
final class SQLiteRecordStore: RecordStore {
    private let database: SQLiteCacheDatabase
    private var totals = CacheStatistics(queryCount: 0, entityCount: 0, byteSize: 0)

    init(database: SQLiteCacheDatabase) throws {
        self.database = database
        try recount()
    }

    /// Reads the totals from the tables again, after a rollback or a clear.
    func recount() throws {
        let rows = try database.connection.query(
            """
            SELECT (SELECT count(*) FROM queries), (SELECT count(*) FROM entities),
                (SELECT coalesce(sum(byte_size), 0) FROM queries) + (SELECT coalesce(sum(byte_size), 0) FROM entities)
            """
        )
        totals = CacheStatistics(
            queryCount: Int(rows.first?[0].int64Value ?? 0), entityCount: Int(rows.first?[1].int64Value ?? 0),
            byteSize: Int(rows.first?[2].int64Value ?? 0))
    }

    func query(id: String) throws -> QueryRecord? {
        let statement = try database.statement(
            "SELECT tree, cached_at, max_age, last_accessed, is_stale FROM queries WHERE id = ?"
        )
        statement.reset()
        try statement.bind([.text(id)])
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return QueryRecord(
            id: id, tree: statement.blob(at: 0) ?? [],
            cachedAt: Date(timeIntervalSince1970: statement.double(at: 1)), maxAge: statement.double(at: 2),
            lastAccessed: Date(timeIntervalSince1970: statement.double(at: 3)), isStale: statement.bool(at: 4)
        )
    }

    func entities(ids: [String]) throws -> [String: EntityRecord] {
        guard !ids.isEmpty else { return [:] }
        var found: [String: EntityRecord] = [:]
        found.reserveCapacity(ids.count)
        let statement = try database.statement("SELECT fields FROM entities WHERE id = ?")
        for id in ids {
            statement.reset()
            try statement.bind([.text(id)])
            if try statement.step() {
                found[id] = EntityRecord(id: id, fields: statement.blob(at: 0) ?? [])
            }
            statement.reset()
        }
        return found
    }

    func save(_ record: QueryRecord) throws {
        let old = try oldSize(table: "queries", id: record.id)
        try database.execute(
            """
            INSERT OR REPLACE INTO queries(id, tree, cached_at, max_age, last_accessed, is_stale, byte_size)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.id), .blob(record.tree), .real(record.cachedAt.timeIntervalSince1970),
                .real(record.maxAge), .real(record.lastAccessed.timeIntervalSince1970),
                .integer(record.isStale ? 1 : 0), .integer(Int64(record.byteSize)),
            ]
        )
        totals.byteSize += record.byteSize - (old ?? 0)
        if old == nil { totals.queryCount += 1 }
    }

    func save(_ record: EntityRecord) throws {
        let old = try oldSize(table: "entities", id: record.id)
        try database.execute(
            "INSERT OR REPLACE INTO entities(id, fields, byte_size) VALUES (?, ?, ?)",
            [.text(record.id), .blob(record.fields), .integer(Int64(record.byteSize))]
        )
        totals.byteSize += record.byteSize - (old ?? 0)
        if old == nil { totals.entityCount += 1 }
    }

    func removeQuery(id: String) throws {
        guard let old = try oldSize(table: "queries", id: id) else { return }
        try database.execute("DELETE FROM queries WHERE id = ?", [.text(id)])
        totals.byteSize -= old
        totals.queryCount -= 1
    }

    func removeEntity(id: String) throws {
        guard let old = try oldSize(table: "entities", id: id) else { return }
        try database.execute("DELETE FROM entities WHERE id = ?", [.text(id)])
        totals.byteSize -= old
        totals.entityCount -= 1
    }

    /// The stored byte size of a record, or `nil` when it does not exist. `table` is one of two constants.
    private func oldSize(table: String, id: String) throws -> Int? {
        let rows = try database.statement("SELECT byte_size FROM \(table) WHERE id = ?").query([.text(id)])
        return rows.first?[0].int64Value.map { Int($0) }
    }

    func leastRecentlyAccessedQueryIDs(limit: Int) throws -> [String] {
        try database.statement("SELECT id FROM queries ORDER BY last_accessed, id LIMIT ?")
            .query([.integer(Int64(limit))])
            .compactMap { $0[0].textValue }
    }

    func statistics() -> CacheStatistics {
        totals
    }

    func allRecords() throws -> (queries: [QueryRecord], entities: [EntityRecord]) {
        let queries = try database.connection.query(
            "SELECT id, tree, cached_at, max_age, last_accessed, is_stale FROM queries ORDER BY id"
        ).map { row in
            QueryRecord(
                id: row[0].textValue ?? "", tree: row[1].blobValue ?? [],
                cachedAt: Date(timeIntervalSince1970: row[2].doubleValue ?? 0), maxAge: row[3].doubleValue ?? 0,
                lastAccessed: Date(timeIntervalSince1970: row[4].doubleValue ?? 0),
                isStale: (row[5].int64Value ?? 0) != 0
            )
        }
        let entities = try database.connection.query("SELECT id, fields FROM entities ORDER BY id").map { row in
            EntityRecord(id: row[0].textValue ?? "", fields: row[1].blobValue ?? [])
        }
        return (queries, entities)
    }
}

/// The dependency index of a ``SQLiteCacheStorage``: the `query_entities` and `query_lists` tables.
final class SQLiteDependencyIndex: DependencyIndex {
    /// Field keys are GraphQL names, which never contain a comma.
    private static let fieldSeparator: Character = ","

    private let database: SQLiteCacheDatabase

    init(database: SQLiteCacheDatabase) {
        self.database = database
    }

    func dependencies(ofQuery id: String) throws -> QueryDependencies {
        var dependencies = QueryDependencies()
        let entityRows = try database.statement("SELECT entity_id, fields FROM query_entities WHERE query_id = ?")
            .query([.text(id)])
        for row in entityRows {
            dependencies.entities[row[0].textValue ?? ""] = Self.fields(row[1].textValue)
        }
        let listRows = try database.statement("SELECT table_name FROM query_lists WHERE query_id = ?")
            .query([.text(id)])
        dependencies.listTables = Set(listRows.compactMap { $0[0].textValue })
        return dependencies
    }

    func setDependencies(_ dependencies: QueryDependencies, ofQuery id: String) throws {
        try database.execute("DELETE FROM query_entities WHERE query_id = ?", [.text(id)])
        try database.execute("DELETE FROM query_lists WHERE query_id = ?", [.text(id)])
        let insertEntity = try database.statement(
            "INSERT INTO query_entities(query_id, entity_id, table_name, fields) VALUES (?, ?, ?, ?)"
        )
        for (entityID, fields) in dependencies.entities {
            try insertEntity.execute([
                .text(id), .text(entityID), .text(EntityRecord.table(ofEntity: entityID)),
                .text(fields.sorted().joined(separator: String(Self.fieldSeparator))),
            ])
        }
        let insertList = try database.statement("INSERT INTO query_lists(query_id, table_name) VALUES (?, ?)")
        for table in dependencies.listTables {
            try insertList.execute([.text(id), .text(table)])
        }
    }

    private static func fields(_ text: String?) -> Set<String> {
        guard let text, !text.isEmpty else { return [] }
        return Set(text.split(separator: fieldSeparator).map(String.init))
    }

    func readers(ofEntity id: String) throws -> [String: Set<String>] {
        var readers: [String: Set<String>] = [:]
        for row in try database.statement("SELECT query_id, fields FROM query_entities WHERE entity_id = ?")
            .query([.text(id)])
        {
            readers[row[0].textValue ?? ""] = Self.fields(row[1].textValue)
        }
        return readers
    }

    func queryIDs(showingTable table: String) throws -> Set<String> {
        Set(
            try database.statement("SELECT DISTINCT query_id FROM query_entities WHERE table_name = ?")
                .query([.text(table)]).compactMap { $0[0].textValue }
        )
    }

    func queryIDs(listingTable table: String) throws -> Set<String> {
        Set(
            try database.statement("SELECT query_id FROM query_lists WHERE table_name = ?")
                .query([.text(table)]).compactMap { $0[0].textValue }
        )
    }
}

extension SQLiteValue {
    fileprivate var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    fileprivate var blobValue: [UInt8]? {
        switch self {
        case .blob(let bytes): return bytes
        case .text(let text): return Array(text.utf8)
        default: return nil
        }
    }

    fileprivate var int64Value: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    fileprivate var doubleValue: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
}
