import DataConnectEngine
import Foundation
import SQLiteKit
import Synchronization

/// Where the emulator keeps its data.
public enum DatabaseLocation: Hashable, Sendable {
    /// An in-memory database private to one ``SQLitePool``, shared by its connections; gone with the pool.
    case memory
    /// A database file, created (with its folder) when missing.
    case file(String)

    /// The file under an emulator data directory: `<directory>/dataconnect.sqlite`.
    public static func dataDirectory(_ directory: String) -> DatabaseLocation {
        .file(directory.hasSuffix("/") ? directory + SQLitePool.fileName : directory + "/" + SQLitePool.fileName)
    }
}

/// One writer connection and a few reader connections to the same database, lent out one request at a time.
///
/// Mutations are serialized: ``write(_:)`` runs its body on the single writer connection behind a lock. Queries
/// run concurrently: ``read(_:)`` borrows a free reader connection, waiting when all are lent out. Readers are
/// `PRAGMA query_only`.
///
/// ```swift
/// let pool = try SQLitePool(location: .dataDirectory(".dataconnect/data"), readers: 3)
/// try pool.write { db in
///     try db.connection.transaction(.immediate) {
///         try db.cachedStatement("INSERT INTO genre (name) VALUES (?)").execute(["drama"])
///     }
/// }
/// let count = try pool.read { db in try db.cachedStatement("SELECT count(*) FROM genre").query()[0][0] }
/// ```
///
/// **Files** are opened in WAL mode with `synchronous = NORMAL` and a page cache of up to 32 MiB per
/// connection: readers never block the writer nor the writer
/// readers, and a reader sees the last transaction committed when its own read began. A committed transaction
/// survives the process being killed (`kill -9`); only an operating-system crash or power loss may lose the
/// last few commits, never corrupt the file.
///
/// **Memory** databases use SQLite's `memdb` VFS under a unique name (`file:/dataconnect-<random>?vfs=memdb`),
/// which lets the pool's connections share one database (a shared-cache `:memory:` database would fail reads
/// with `SQLITE_LOCKED` instead of waiting). `memdb` has no WAL and locks the whole database: while a write
/// transaction is open, new reads wait for its commit (up to the busy timeout, then `SQLITE_BUSY`), and the
/// commit waits for running reads to finish. Reads still run concurrently with each other.
///
/// Every connection has `foreign_keys = ON` and a busy timeout. Calling ``write(_:)`` inside ``write(_:)``
/// deadlocks. Calling ``read(_:)`` inside ``write(_:)`` sees only committed data; in memory it waits for the
/// writer's open transaction, so do not read from inside a write transaction there.
public final class SQLitePool: Sendable {
    /// The database file's name inside a data directory.
    public static let fileName = "dataconnect.sqlite"

    /// Where the data lives.
    public let location: DatabaseLocation
    /// The name SQLite opened: the file path, or the `file:` URI of the in-memory database.
    public let path: String
    /// The number of reader connections.
    public let readerCount: Int

    private let writer: WriterSlot
    let readers: ReaderShelf
    /// Every connection, for ``beginClosing()``; `interrupt()` is safe from any thread.
    private let connections: [Connection]
    private let closing = Atomic<Bool>(false)
    /// Whether the database was found damaged: every error ``read(_:)`` and ``write(_:)`` see is checked.
    public let health: StorageHealth
    /// How many times ``write(_:)`` ran, for the integrity probe.
    private let writeCount = Atomic<Int>(0)
    /// Whether readers keep their read transaction between loans (``read(_:)``): for files, where a reader's open
    /// snapshot does not block the writer. In memory, it would.
    let keepsSnapshots: Bool
    /// How long a reader keeps one snapshot at most, however busy: how late a write of another process may be seen.
    let snapshotLifetime: Duration
    /// How long a kept snapshot may stay unused before the watchdog ends it.
    let snapshotIdleRelease: Duration
    /// Runs the release of idle snapshots.
    let snapshotWatchdog: any DeadlineScheduler
    /// How many transactions the writer committed: a reader's kept snapshot is current while this is unchanged.
    let commits = Atomic<UInt64>(0)
    /// Set while ``checkpoint()`` waits for the readers to leave the log: readers keep no snapshot then.
    let snapshotsPaused = Atomic<Int>(0)
    /// Whether a release of idle snapshots is scheduled on the watchdog.
    let releaseScheduled = Atomic<Bool>(false)

    /// Opens the database and all its connections.
    ///
    /// - Parameters:
    ///   - location: In memory, or a file.
    ///   - readers: How many reader connections to keep (at least 1); 3 by default.
    ///   - busyTimeout: How long a connection waits for another's lock before failing with `SQLITE_BUSY`.
    ///   - snapshotLifetime: How long a reader of a file keeps one read snapshot at most between loans while no
    ///     write of the pool commits (5 ms by default; see ``read(_:)``).
    ///   - snapshotIdleRelease: How long such a snapshot may stay unused before it ends (2 ms by default).
    ///   - snapshotWatchdog: What ends snapshots left unused; the process's ``DeadlineWatchdog`` by default.
    /// - Throws: ``SQLiteError`` when the database cannot be opened, or a file-system error when the folder
    ///   cannot be created; ``StorageError/unsupportedJournalMode(_:)`` when the file refuses WAL mode;
    ///   ``StorageError/dataDirectoryIsFile(_:)`` or ``StorageError/databasePathIsDirectory(_:)`` when the path
    ///   names the wrong kind of thing; ``StorageError/damagedDatabase(path:reason:)`` when the file is damaged.
    public init(
        location: DatabaseLocation, readers: Int = 3, busyTimeout: Duration = .seconds(5),
        snapshotLifetime: Duration = .milliseconds(5), snapshotIdleRelease: Duration = .milliseconds(2),
        snapshotWatchdog: any DeadlineScheduler = DeadlineWatchdog.shared
    ) throws {
        self.location = location
        self.snapshotLifetime = snapshotLifetime
        self.snapshotIdleRelease = snapshotIdleRelease
        self.snapshotWatchdog = snapshotWatchdog
        self.readerCount = max(1, readers)
        var configuration = Connection.Configuration(
            mode: .readWriteCreate, threading: .multiThread, foreignKeys: true, busyTimeout: busyTimeout)
        switch location {
        case .memory:
            var random = SystemRandomNumberGenerator()
            let name = (0..<2).map { _ in String(random.next() as UInt64, radix: 16) }.joined(separator: "-")
            path = "file:/dataconnect-\(name)?vfs=memdb"
            configuration.allowsURI = true
            health = StorageHealth(location: "memory", remedy: "Restart the emulator")
        case .file(let file):
            path = file
            health = StorageHealth(location: file, remedy: StorageFailure.sqliteRemedy(file))
            let folder = (file as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            if !folder.isEmpty {
                if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
                    throw StorageError.dataDirectoryIsFile(folder)
                }
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) {
                if isDirectory.boolValue { throw StorageError.databasePathIsDirectory(file) }
                try DatabaseFileCheck.verify(file)
            }
        }
        let writerConnection = try Connection(path: path, configuration: configuration)
        if case .file = location {
            let mode = try writerConnection.journalMode(.wal)
            guard mode == .wal else { throw StorageError.unsupportedJournalMode(mode.rawValue) }
            try writerConnection.execute("PRAGMA synchronous = NORMAL")
            try writerConnection.execute("PRAGMA cache_size = \(Self.pageCacheSize)")
        }
        keepsSnapshots = location != .memory
        writer = WriterSlot(SQLitePooledConnection(writerConnection, role: .writer))
        configuration.mode = .readWrite
        var readerConnections: [SQLitePooledConnection] = []
        for _ in 0..<readerCount {
            let connection = try Connection(path: path, configuration: configuration)
            try connection.execute("PRAGMA query_only = ON")
            if case .file = location { try connection.execute("PRAGMA cache_size = \(Self.pageCacheSize)") }
            readerConnections.append(SQLitePooledConnection(connection, role: .reader))
        }
        self.readers = ReaderShelf(readerConnections)
        self.connections = [writerConnection] + readerConnections.map(\.connection)
        if keepsSnapshots {
            writerConnection.setCommitHook { [weak self] in self?.commits.add(1, ordering: .releasing) }
        }
    }

    /// The page cache of each file connection, in SQLite's unit (negative: KiB): 32 MiB at most, filled only
    /// as pages are read. SQLite's default of 2 MiB makes every scan of a table larger than that read it again
    /// from the operating system.
    static let pageCacheSize = -32_768

    /// Copies every committed transaction from the write-ahead log into the database file and empties the log,
    /// so that the file alone holds the data (for a clean stop, a backup or a check of the file).
    ///
    /// Waits for running writes; readers are not disturbed. Does nothing for an in-memory database.
    ///
    /// - Throws: ``SQLiteError`` when the checkpoint fails.
    public func checkpoint() throws {
        guard case .file = location else { return }
        // A truncating checkpoint waits until no reader uses the log: readers stop keeping their snapshot meanwhile.
        snapshotsPaused.add(1, ordering: .sequentiallyConsistent)
        defer { snapshotsPaused.subtract(1, ordering: .sequentiallyConsistent) }
        releaseSnapshots(idleFor: nil)
        try write { try $0.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Whether ``beginClosing()`` was called: long requests check it and stop.
    public var isClosing: Bool { closing.load(ordering: .relaxed) }

    /// Marks the pool as closing and interrupts every statement running now, so that the process can stop
    /// even while a long request runs. Statements started afterwards run normally unless their caller checks
    /// ``isClosing`` (the engine's requests do, through their progress handler).
    public func beginClosing() {
        closing.store(true, ordering: .relaxed)
        for connection in connections { connection.interrupt() }
    }

    /// The name under which the pool's connections open another database file (`ATTACH`, `VACUUM INTO`).
    ///
    /// A connection inherits the VFS it was opened with, so the in-memory pool names files with a `file:` URI
    /// that selects the operating system's VFS; otherwise the file would be created inside `memdb`.
    func attachableName(ofFile file: String) -> String {
        guard case .memory = location else { return file }
        var escaped = ""
        for character in file {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:" + (escaped.hasPrefix("//") ? "/." + escaped : escaped) + "?vfs=unix"
    }

    /// Runs `body` with a reader connection, waiting for one to be free.
    ///
    /// The connection is the caller's until `body` returns; statements obtained from
    /// ``SQLitePooledConnection/cachedStatement(_:)`` are reset and a transaction left open is rolled back afterwards.
    ///
    /// On a file, `body` runs inside a read transaction that the reader keeps for the next loans while no write of
    /// the pool commits, for ``snapshotLifetime`` at most (see ``keepSnapshot(on:)``): `body` sees every
    /// transaction the pool committed before `read` was called, its statements all see the same snapshot, and it
    /// must not begin a transaction of its own. A write of another process on the same file may be seen up to
    /// ``snapshotLifetime`` late.
    ///
    /// - Parameter body: The read; it must not keep the connection or its statements.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func read<T>(_ body: (SQLitePooledConnection) throws -> T) rethrows -> T {
        let connection = readers.checkOut()
        defer { readers.checkIn(connection, keepingSnapshot: snapshotsPaused.load(ordering: .relaxed) == 0) }
        if keepsSnapshots { keepSnapshot(on: connection) }
        do {
            return try body(connection)
        } catch {
            health.recordSQLiteDamage(ifReportedBy: error)
            throw error
        }
    }

    /// Runs `body` with the writer connection, after every earlier write has finished.
    ///
    /// `body` decides on transactions (`connection.transaction(.immediate) { ... }`); a transaction it leaves
    /// open is rolled back afterwards.
    ///
    /// - Parameter body: The write; it must not keep the connection or its statements.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func write<T>(_ body: (SQLitePooledConnection) throws -> T) rethrows -> T {
        writeCount.add(1, ordering: .relaxed)
        do {
            return try writer.withConnection(body)
        } catch {
            health.recordSQLiteDamage(ifReportedBy: error)
            throw error
        }
    }

    /// How many writes ran since the pool opened; the integrity probe checks the file only after writes.
    var writes: Int { writeCount.load(ordering: .relaxed) }

    /// Keeps the write-ahead log when the connections close, instead of copying it into the database file and
    /// deleting it: for a database found damaged, whose log holds the transactions committed since the last
    /// checkpoint. Call it once no request runs any more (the emulator is stopping).
    func keepWriteAheadLogOnClose() {
        guard case .file = location else { return }
        write { _ in
            for connection in connections { try? connection.keepWriteAheadLogOnClose() }
        }
    }

    /// The writer, behind a lock.
    private final class WriterSlot: @unchecked Sendable {
        private let lock = NSLock()
        private let connection: SQLitePooledConnection

        init(_ connection: SQLitePooledConnection) {
            self.connection = connection
        }

        func withConnection<T>(_ body: (SQLitePooledConnection) throws -> T) rethrows -> T {
            lock.lock()
            defer {
                connection.endLoan()
                lock.unlock()
            }
            return try body(connection)
        }
    }

    /// The free reader connections, behind a condition variable.
    ///
    /// A thread gets back the connection it used last when that one is free. A connection that hops between
    /// threads frees, on one thread, the memory SQLite allocated for it on another (its statements' registers,
    /// the text its JSON functions build), and each such free takes the other thread's `malloc` arena lock; its
    /// pages also move between the cores' caches.
    final class ReaderShelf: @unchecked Sendable {
        private let condition = NSCondition()
        private var free: [SQLitePooledConnection]
        private let total: Int

        init(_ connections: [SQLitePooledConnection]) {
            free = connections
            total = connections.count
        }

        func checkOut() -> SQLitePooledConnection {
            let thread = pthread_self()
            condition.lock()
            defer { condition.unlock() }
            while free.isEmpty {
                condition.wait()
            }
            if let index = free.lastIndex(where: { $0.lastBorrower.map { pthread_equal($0, thread) != 0 } ?? false }) {
                free.swapAt(index, free.count - 1)
            }
            let connection = free.removeLast()
            connection.lastBorrower = thread
            return connection
        }

        func checkIn(_ connection: SQLitePooledConnection, keepingSnapshot: Bool) {
            connection.endLoan(keepingSnapshot: keepingSnapshot)
            condition.lock()
            free.append(connection)
            condition.signal()
            condition.unlock()
        }

        /// Calls `body` with each free connection, under the lock (no one borrows them meanwhile); answers whether
        /// `body` answered `true` for one, or a connection is lent out.
        func withFreeConnections(_ body: (SQLitePooledConnection) -> Bool) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            var any = free.count < total
            for connection in free where body(connection) { any = true }
            return any
        }
    }
}

/// A connection lent by a ``SQLitePool``, with a cache of prepared statements keyed by their SQL text.
///
/// ```swift
/// try pool.read { db in
///     let select = try db.cachedStatement("SELECT name FROM chef WHERE id = ?")
///     return try select.query(["c1"]).first?["name"] as String?
/// }
/// ```
///
/// A pooled connection belongs to one borrower at a time and must not outlive the `read` or `write` call that
/// lent it; it is not `Sendable`.
public final class SQLitePooledConnection {
    /// Whether the connection serves reads or writes.
    public enum Role: Hashable, Sendable {
        /// The single writer.
        case writer
        /// One of the `query_only` readers.
        case reader
    }

    /// How many statements a connection keeps prepared before it starts over.
    public static let statementCacheCapacity = 512

    /// The underlying connection.
    public let connection: Connection
    /// Whether the connection is the writer or a reader.
    public let role: Role
    /// Whether the engine has set up this connection (functions and pragmas); only its borrower touches it.
    var isPreparedForEngine = false
    /// The request budget the progress handler asks (see `installBudget(_:)`); only its borrower touches it.
    let budgetSlot = BudgetSlot()
    /// The thread that borrowed the connection last; read and written only under the pool's lock.
    fileprivate var lastBorrower: pthread_t?
    /// The read transaction a reader keeps open between loans, if any; touched by its borrower, or under the pool's
    /// lock while the connection is free.
    var keptSnapshot: KeptSnapshot?
    /// `BEGIN` and `COMMIT`, prepared on first use, for ``keptSnapshot``.
    var transactionStatements: (begin: Statement, commit: Statement)?

    private var statements: [String: Statement] = [:]
    private var lent: [Statement] = []
    /// The statements used last, newest first: looked up before ``statements``. A compiled plan hands the same
    /// `String` every time, and `==` on two copies of one string compares no bytes, where the dictionary hashes the
    /// whole text (a list's statement is kilobytes).
    private var recent: [(sql: String, statement: Statement)] = []
    /// How many statements ``recent`` keeps.
    private static let recentCapacity = 8

    init(_ connection: Connection, role: Role) {
        self.connection = connection
        self.role = role
    }

    /// The statement for `sql`, prepared on first use and reused afterwards; reset, with bindings cleared.
    ///
    /// There is one statement per SQL text: asking again for the same SQL resets the statement, so finish
    /// stepping through one use before starting the next.
    ///
    /// - Parameter sql: Exactly one SQL statement; the text is the cache key.
    /// - Returns: A statement ready to bind and step.
    /// - Throws: ``SQLiteError`` when the SQL does not prepare.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let index = recent.firstIndex(where: { $0.sql == sql }) {
            let statement = recent[index].statement
            if index > 0 { recent.insert(recent.remove(at: index), at: 0) }
            return lend(statement, reset: true)
        }
        if let statement = statements[sql] {
            remember(sql, statement)
            return lend(statement, reset: true)
        }
        if statements.count >= Self.statementCacheCapacity {
            statements.removeAll(keepingCapacity: true)
            recent.removeAll(keepingCapacity: true)
        }
        let statement = try connection.prepare(sql, persistent: true)
        statements[sql] = statement
        remember(sql, statement)
        return lend(statement, reset: false)
    }

    private func lend(_ statement: Statement, reset: Bool) -> Statement {
        if reset {
            statement.reset()
            statement.clearBindings()
        }
        lent.append(statement)
        return statement
    }

    private func remember(_ sql: String, _ statement: Statement) {
        if recent.count >= Self.recentCapacity { recent.removeLast() }
        recent.insert((sql, statement), at: 0)
    }

    /// The number of prepared statements in the cache.
    public var cachedStatementCount: Int {
        statements.count
    }

    /// Drops every cached statement, e.g. after the schema changed shape.
    public func clearStatementCache() {
        statements.removeAll()
        recent.removeAll()
        lent.removeAll()
    }

    /// Resets the statements lent since the connection was borrowed and rolls back a transaction left open, so
    /// that no lock outlives the loan; a reader's kept snapshot stays when `keepingSnapshot` says so (the pool
    /// ends it later, see ``SQLitePool/keepSnapshot(on:)``).
    func endLoan(keepingSnapshot: Bool = false) {
        for statement in lent {
            statement.reset()
        }
        lent.removeAll(keepingCapacity: true)
        if keptSnapshot != nil {
            // The loan may have ended the transaction (a failed statement, SQL that commits): then there is none.
            guard connection.isInTransaction else {
                keptSnapshot = nil
                return
            }
            if keepingSnapshot { return }
            endSnapshot()
        }
        if connection.isInTransaction {
            try? connection.execute("ROLLBACK TRANSACTION")
        }
    }
}

/// A storage failure that is not an SQLite error.
public enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The database file did not accept `PRAGMA journal_mode = WAL`; the mode in effect.
    case unsupportedJournalMode(String)
    /// There is no exported database at the path.
    case missingSnapshot(String)
    /// The export metadata file is not a JSON object.
    case invalidExportMetadata(path: String, reason: String)
    /// The database file exists but is damaged; the file was left as it is.
    case damagedDatabase(path: String, reason: String)
    /// The database file exists but holds no bytes (a database file always holds at least one page).
    case emptyDatabaseFile(String)
    /// The data directory is a file.
    case dataDirectoryIsFile(String)
    /// The database file's path names a directory.
    case databasePathIsDirectory(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unsupportedJournalMode(let mode):
            "the database file cannot use WAL mode (journal mode is \(mode))"
        case .missingSnapshot(let path):
            "no exported Data Connect database at \(path)"
        case .invalidExportMetadata(let path, let reason):
            "\(path) is not valid export metadata: \(reason)"
        case .damagedDatabase(let path, let reason):
            "the database file \(path) is damaged: \(reason). It was not modified. To recover, restore a copy "
                + "(or an export, with --import DIR), try `sqlite3 \(path) .recover`, or move the file away to "
                + "start with an empty database. " + WriteAheadLog.refusalNote(forDatabase: path)
        case .dataDirectoryIsFile(let path):
            "the data directory \(path) is a file, not a directory: name a directory (it is created when missing) "
                + "or move the file away"
        case .databasePathIsDirectory(let path):
            "the database path \(path) is a directory, not a database file: move the directory away, or name "
                + "another data directory"
        case .emptyDatabaseFile(let path):
            "the database file \(path) is empty (0 bytes), so its data is gone or was never written. It was not "
                + "modified. Restore a copy (or an export, with --import DIR), or delete the file to start with an "
                + "empty database"
        }
    }
}
