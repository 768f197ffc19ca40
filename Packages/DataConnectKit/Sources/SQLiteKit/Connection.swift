import CSQLite
import Synchronization

/// A connection to an SQLite database: open, run SQL, prepare statements, and group work into transactions.
///
/// ```swift
/// let connection = try Connection(path: "movies.sqlite")
/// try connection.journalMode(.wal)
/// try connection.execute("""
///     CREATE TABLE IF NOT EXISTS movies(id INTEGER PRIMARY KEY, title TEXT NOT NULL, rating REAL);
///     """)
/// try connection.transaction(.immediate) {
///     try connection.execute("INSERT INTO movies(title, rating) VALUES (?, ?)", ["Alien", 8.5])
/// }
/// let rows = try connection.query("SELECT title FROM movies WHERE rating > ?", [8.0])
/// let title: String? = rows.first?["title"]
/// ```
///
/// Defaults: `PRAGMA foreign_keys = ON`, extended result codes on, SQLite's serialized threading mode.
///
/// ## Threads
///
/// A connection opened in the default ``ThreadingMode/serialized`` mode is guarded by SQLite's own mutex: every
/// call is safe from any thread, and the connection is `Sendable`. Calls still interleave, though, so use a
/// connection **from one thread (or task) at a time** for anything that spans calls: a transaction, or a
/// ``Statement`` being bound and stepped. Statements are not `Sendable`; keep each on the thread that uses it.
///
/// ``ThreadingMode/multiThread`` drops SQLite's per-call mutex for speed. The caller must then guarantee
/// exclusive use, for example by handing connections out of a lock-guarded pool; ``interrupt()`` stays safe
/// from any thread in both modes.
///
/// The database closes when the connection and all its statements are gone.
public final class Connection: @unchecked Sendable {
    /// How to open the database file.
    public enum OpenMode: Hashable, Sendable {
        /// Read only; the file must exist.
        case readOnly
        /// Read and write; the file must exist.
        case readWrite
        /// Read and write, creating the file when missing.
        case readWriteCreate
    }

    /// Whether SQLite guards the connection with a mutex (see the discussion on ``Connection``).
    public enum ThreadingMode: Hashable, Sendable {
        /// `SQLITE_OPEN_FULLMUTEX`: every call holds the connection's mutex.
        case serialized
        /// `SQLITE_OPEN_NOMUTEX`: no mutex; the caller guarantees one thread at a time.
        case multiThread
    }

    /// The journal mode of the database (`PRAGMA journal_mode`).
    public enum JournalMode: String, Hashable, Sendable {
        /// Delete the rollback journal at the end of each transaction (SQLite's default).
        case delete
        /// Truncate the rollback journal instead of deleting it.
        case truncate
        /// Keep the rollback journal, zeroing its header.
        case persist
        /// Keep the rollback journal in memory.
        case memory
        /// Write-ahead log: readers do not block the writer nor the writer readers.
        case wal
        /// No journal; transactions cannot roll back safely.
        case off
    }

    /// How a transaction takes its locks.
    public enum TransactionKind: String, Hashable, Sendable {
        /// Take locks on first read or write.
        case deferred = "DEFERRED"
        /// Take the write lock at once, so the transaction never fails to upgrade later.
        case immediate = "IMMEDIATE"
        /// Take an exclusive lock at once.
        case exclusive = "EXCLUSIVE"
    }

    /// Options applied when opening.
    public struct Configuration: Hashable, Sendable {
        /// How to open the file; by default read-write, creating it.
        public var mode: OpenMode
        /// The threading mode; by default serialized.
        public var threading: ThreadingMode
        /// Whether to enforce foreign keys (`PRAGMA foreign_keys`); by default on.
        public var foreignKeys: Bool
        /// How long to wait for another connection's lock before failing with `SQLITE_BUSY`; by default zero.
        public var busyTimeout: Duration
        /// Whether `path` may be a `file:` URI.
        public var allowsURI: Bool

        /// Creates a configuration.
        public init(
            mode: OpenMode = .readWriteCreate, threading: ThreadingMode = .serialized, foreignKeys: Bool = true,
            busyTimeout: Duration = .zero, allowsURI: Bool = false
        ) {
            self.mode = mode
            self.threading = threading
            self.foreignKeys = foreignKeys
            self.busyTimeout = busyTimeout
            self.allowsURI = allowsURI
        }
    }

    /// The path the connection was opened with; `:memory:` for a private in-memory database.
    public let path: String

    /// The `sqlite3 *` handle.
    let handle: OpaquePointer
    /// The installed progress handler, kept alive while SQLite may call it.
    private var progressHandler: ProgressHandler?
    /// The installed busy handler, kept alive while SQLite may call it.
    private var busyHandler: BusyHandler?
    /// The installed commit hook, kept alive while SQLite may call it.
    private var commitHook: CommitHook?
    /// Set by ``interrupt()`` until ``clearInterrupt()``; the SQL functions registered through this type read it,
    /// so that one expensive call stops at the next row rather than running on after the statement was told to stop.
    let interruptSignal = InterruptSignal()

    /// Process-wide SQLite settings, applied once before the first connection opens: memory statistics
    /// off, since they take a global mutex on every allocation and serialize concurrent connections.
    static let processSetup: Void = {
        _ = csqlite_disable_memory_statistics()
    }()

    /// Opens a database.
    ///
    /// - Parameters:
    ///   - path: A file path, `:memory:` (the default) for a private in-memory database, or with
    ///     ``Configuration/allowsURI`` a `file:` URI.
    ///   - configuration: Open mode, threading mode, foreign keys and busy timeout.
    /// - Throws: ``SQLiteError``, e.g. ``ResultCode/cannotOpen`` when the file cannot be opened.
    public init(path: String = ":memory:", configuration: Configuration = Configuration()) throws(SQLiteError) {
        var flags: Int32
        switch configuration.mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        switch configuration.threading {
        case .serialized: flags |= SQLITE_OPEN_FULLMUTEX
        case .multiThread: flags |= SQLITE_OPEN_NOMUTEX
        }
        if configuration.allowsURI {
            flags |= SQLITE_OPEN_URI
        }
        _ = Connection.processSetup
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: code, sql: nil)
            sqlite3_close_v2(handle)
            throw SQLiteError(
                extendedCode: error.extendedCode, message: "cannot open \"\(path)\": \(error.message)", sql: nil
            )
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        if configuration.foreignKeys {
            try execute("PRAGMA foreign_keys = ON")
        }
        if configuration.busyTimeout > .zero {
            setBusyTimeout(configuration.busyTimeout)
        }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    // MARK: Running SQL

    /// Prepares one SQL statement.
    ///
    /// - Parameters:
    ///   - sql: Exactly one statement; a trailing `;`, whitespace and comments are allowed.
    ///   - persistent: Whether the statement will be kept and reused many times (`SQLITE_PREPARE_PERSISTENT`).
    /// - Returns: The statement, ready to bind and step.
    /// - Throws: ``SQLiteError`` for a syntax error, an unknown table or column, an empty string or more than
    ///   one statement.
    public func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql, persistent: persistent)
    }

    /// Runs one or more SQL statements separated by `;`, binding `bindings` positionally across them.
    ///
    /// Each statement takes as many bindings as it has parameters, in order; rows it returns are ignored.
    ///
    /// ```swift
    /// try connection.execute("""
    ///     CREATE TABLE genres(name TEXT PRIMARY KEY);
    ///     INSERT INTO genres VALUES (?), (?);
    ///     """, ["drama", "sci-fi"])
    /// ```
    ///
    /// - Throws: ``SQLiteError`` from the first statement that fails (earlier ones stay applied unless a
    ///   transaction surrounds the call), or ``ResultCode/range`` when the number of bindings does not match.
    public func execute(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) {
        var consumed = 0
        try forEachStatement(in: sql) { statement throws(SQLiteError) in
            let parameterCount = statement.parameterCount
            guard consumed + parameterCount <= bindings.count else {
                throw SQLiteError(
                    extendedCode: .range,
                    message: "the SQL has more parameters than the \(bindings.count) bindings given",
                    sql: statement.sql
                )
            }
            for index in 0..<parameterCount {
                try statement.bind(bindings[consumed + index], at: index + 1)
            }
            consumed += parameterCount
            while try statement.step() {}
        }
        guard consumed == bindings.count else {
            throw SQLiteError(
                extendedCode: .range,
                message: "\(bindings.count) bindings given but the SQL has \(consumed) parameters", sql: sql
            )
        }
    }

    /// Runs one statement with named bindings, e.g. `[":id": 1]` or `["id": 1]`.
    ///
    /// - Throws: ``SQLiteError``, e.g. ``ResultCode/range`` for a name the statement does not have.
    public func execute(_ sql: String, named bindings: [String: SQLiteValue]) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(named: bindings)
        while try statement.step() {}
    }

    /// Runs one statement and returns all its rows.
    ///
    /// ```swift
    /// for row in try connection.query("SELECT id, title FROM movies WHERE rating >= ?", [8.0]) {
    ///     let id: Int64? = row["id"]
    /// }
    /// ```
    ///
    /// - Throws: ``SQLiteError``.
    public func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        return try statement.rows()
    }

    /// Runs one statement with named bindings and returns all its rows.
    ///
    /// - Throws: ``SQLiteError``.
    public func query(_ sql: String, named bindings: [String: SQLiteValue]) throws(SQLiteError) -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(named: bindings)
        return try statement.rows()
    }

    /// Prepares each statement of `sql` in turn and passes it to `body`.
    private func forEachStatement(
        in sql: String, _ body: (Statement) throws(SQLiteError) -> Void
    ) throws(SQLiteError) {
        let result = sql.withCString { start in
            Result { () throws(SQLiteError) in
                var current = start
                while current.pointee != 0 {
                    var tail: UnsafePointer<CChar>?
                    guard let statement = try Statement(connection: self, start: current, tail: &tail, flags: 0) else {
                        return  // Only whitespace or comments remain.
                    }
                    try body(statement)
                    guard let tail else { return }
                    current = tail
                }
            }
        }
        try result.get()
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// ```swift
    /// let id = try connection.transaction(.immediate) {
    ///     try connection.execute("INSERT INTO movies(title) VALUES (?)", ["Alien"])
    ///     return connection.lastInsertRowID
    /// }
    /// ```
    ///
    /// A failed `COMMIT` (for example a deferred foreign key violation, or `SQLITE_BUSY`) also rolls back.
    /// Transactions do not nest: use ``savepoint(_:_:)`` inside one.
    ///
    /// - Parameters:
    ///   - kind: When the transaction takes its locks; `.immediate` for transactions that write.
    ///   - body: The work; its result is returned.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``SQLiteError`` from `BEGIN` or `COMMIT`.
    @discardableResult
    public func transaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        do {
            let result = try body()
            try execute("COMMIT TRANSACTION")
            return result
        } catch {
            if isInTransaction {
                try? execute("ROLLBACK TRANSACTION")
            }
            throw error
        }
    }

    /// Runs `body` inside a savepoint: releases it when `body` returns, rolls back to it when `body` throws.
    ///
    /// Savepoints nest, inside or outside a transaction; an outermost savepoint behaves like a deferred
    /// transaction.
    ///
    /// ```swift
    /// try connection.transaction {
    ///     try connection.execute("INSERT INTO log VALUES ('kept')")
    ///     try? connection.savepoint("attempt") {
    ///         try connection.execute("INSERT INTO log VALUES ('undone')")
    ///         throw CancellationError()
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The savepoint's name; nested savepoints may share one.
    ///   - body: The work; its result is returned.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``SQLiteError`` from `SAVEPOINT` or `RELEASE`.
    @discardableResult
    public func savepoint<T>(_ name: String = "savepoint", _ body: () throws -> T) throws -> T {
        let quoted = Self.quoteIdentifier(name)
        try execute("SAVEPOINT \(quoted)")
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT \(quoted)")
            return result
        } catch {
            try? execute("ROLLBACK TO SAVEPOINT \(quoted)")
            try? execute("RELEASE SAVEPOINT \(quoted)")
            throw error
        }
    }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    // MARK: State

    /// The rowid of the most recent successful `INSERT` on this connection.
    public var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int {
        Int(sqlite3_changes64(handle))
    }

    /// The number of rows changed since the connection opened.
    public var totalChanges: Int {
        Int(sqlite3_total_changes64(handle))
    }

    /// Whether the main database is read-only.
    public var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    /// Makes the running statement fail with ``ResultCode/interrupt`` at its next opportunity.
    ///
    /// Safe to call from any thread, which is its purpose: cancelling a long query run elsewhere.
    public func interrupt() {
        interruptSignal.raise()
        sqlite3_interrupt(handle)
    }

    /// Whether ``interrupt()`` was called since the last ``clearInterrupt()``.
    public var isInterruptRequested: Bool { interruptSignal.isRaised }

    /// Forgets an earlier ``interrupt()``, for the next user of the connection: the SQL functions registered
    /// through this type refuse to run while it stands (SQLite itself forgets it when the next statement starts).
    public func clearInterrupt() {
        interruptSignal.lower()
    }

    /// Asks `shouldInterrupt` every `instructions` virtual-machine steps of a running statement whether to
    /// stop it; when it answers `true`, the statement fails with ``ResultCode/interrupt``.
    ///
    /// This is how a caller bounds the time a statement may run, or stops statements when shutting down,
    /// without another thread: the closure runs on the thread stepping the statement. Passing `nil` removes
    /// the handler. The closure is kept until it is replaced or removed.
    ///
    /// ```swift
    /// let deadline = ContinuousClock.now + .seconds(5)
    /// connection.setProgressHandler(every: 1_000) { ContinuousClock.now >= deadline }
    /// defer { connection.setProgressHandler(every: 0, nil) }
    /// ```
    ///
    /// - Parameters:
    ///   - instructions: How many virtual-machine instructions run between two calls (at least 1).
    ///   - shouldInterrupt: Returns `true` to interrupt the running statement; `nil` removes the handler.
    public func setProgressHandler(every instructions: Int32, _ shouldInterrupt: (() -> Bool)?) {
        guard let shouldInterrupt else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            progressHandler = nil
            return
        }
        let box = ProgressHandler(shouldInterrupt)
        progressHandler = box
        sqlite3_progress_handler(
            handle, max(1, instructions),
            { context in
                guard let context else { return 0 }
                return Unmanaged<ProgressHandler>.fromOpaque(context).takeUnretainedValue().shouldInterrupt() ? 1 : 0
            }, Unmanaged.passUnretained(box).toOpaque())
    }

    /// The closure installed by ``setProgressHandler(every:_:)``, reached from SQLite's C callback.
    final class ProgressHandler {
        let shouldInterrupt: () -> Bool

        init(_ shouldInterrupt: @escaping () -> Bool) {
            self.shouldInterrupt = shouldInterrupt
        }
    }

    /// Asks `shouldRetry` what to do when a statement finds the database locked by another connection: `true`
    /// tries again, `false` fails the statement with ``ResultCode/busy``.
    ///
    /// The closure gets the number of times it was already called for this lock (0 the first time) and runs on
    /// the thread stepping the statement, which waits while it runs; it replaces the busy timeout, and
    /// ``setBusyTimeout(_:)`` replaces it. Passing `nil` removes it, so that a locked database fails at once. This
    /// is how a test learns that a connection is waiting for a lock, so that another releases it only then:
    ///
    /// ```swift
    /// waiter.setBusyHandler { attempt in
    ///     if attempt == 0 { blocked.signal() }
    ///     return released.wait(timeout: .now() + 60) == .success
    /// }
    /// ```
    ///
    /// - Parameter shouldRetry: Returns `true` to try again; `nil` removes the handler.
    public func setBusyHandler(_ shouldRetry: ((Int32) -> Bool)?) {
        guard let shouldRetry else {
            sqlite3_busy_handler(handle, nil, nil)
            busyHandler = nil
            return
        }
        let box = BusyHandler(shouldRetry)
        busyHandler = box
        sqlite3_busy_handler(
            handle,
            { context, attempt in
                guard let context else { return 0 }
                return Unmanaged<BusyHandler>.fromOpaque(context).takeUnretainedValue().shouldRetry(attempt) ? 1 : 0
            }, Unmanaged.passUnretained(box).toOpaque())
    }

    /// The closure installed by ``setBusyHandler(_:)``, reached from SQLite's C callback.
    final class BusyHandler {
        let shouldRetry: (Int32) -> Bool

        init(_ shouldRetry: @escaping (Int32) -> Bool) {
            self.shouldRetry = shouldRetry
        }
    }

    /// Calls `committed` after each transaction this connection commits to a write-ahead log, on the committing
    /// thread, once the commit is in the log and a read that starts afterwards sees it; then, as SQLite's automatic
    /// checkpoint does, runs a passive checkpoint when the log holds `checkpointPages` pages or more.
    ///
    /// It takes the place of SQLite's automatic checkpoint (`PRAGMA wal_autocheckpoint`, whose hook it replaces);
    /// `nil` removes it and turns the automatic checkpoint back on at `checkpointPages`. Nothing is called for a
    /// database that is not in WAL mode.
    ///
    /// ```swift
    /// let commits = Atomic<Int>(0)
    /// writer.setCommitHook { commits.add(1, ordering: .releasing) }
    /// ```
    ///
    /// - Parameters:
    ///   - checkpointPages: The log's size, in pages, from which each commit is followed by a checkpoint.
    ///   - committed: Called after each commit; it must not use this connection.
    public func setCommitHook(checkpointPages: Int32 = 1_000, _ committed: (@Sendable () -> Void)?) {
        guard let committed else {
            commitHook = nil
            sqlite3_wal_autocheckpoint(handle, checkpointPages)
            return
        }
        let box = CommitHook(committed, checkpointPages: checkpointPages)
        commitHook = box
        sqlite3_wal_hook(
            handle,
            { context, database, name, pages in
                guard let context else { return SQLITE_OK }
                let hook = Unmanaged<CommitHook>.fromOpaque(context).takeUnretainedValue()
                hook.committed()
                if pages >= hook.checkpointPages { sqlite3_wal_checkpoint(database, name) }
                return SQLITE_OK
            }, Unmanaged.passUnretained(box).toOpaque())
    }

    /// The closure installed by ``setCommitHook(checkpointPages:_:)``, reached from SQLite's C callback.
    final class CommitHook {
        let committed: @Sendable () -> Void
        let checkpointPages: Int32

        init(_ committed: @escaping @Sendable () -> Void, checkpointPages: Int32) {
            self.committed = committed
            self.checkpointPages = max(1, checkpointPages)
        }
    }

    /// Sets how long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    ///
    /// Zero turns waiting off. The timeout is rounded to milliseconds.
    public func setBusyTimeout(_ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        let total = milliseconds.overflow ? Int64.max : milliseconds.partialValue &+ attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: max(0, total)))
        busyHandler = nil
    }

    /// Sets the journal mode and returns the mode in effect afterwards.
    ///
    /// SQLite may refuse a change: an in-memory database stays in ``JournalMode/memory``, so check the result
    /// when it matters.
    ///
    /// - Throws: ``SQLiteError``, e.g. ``ResultCode/busy`` when another connection holds a lock.
    @discardableResult
    public func journalMode(_ mode: JournalMode) throws(SQLiteError) -> JournalMode {
        let rows = try query("PRAGMA journal_mode = \(mode.rawValue)")
        return Self.journalMode(from: rows)
    }

    /// Keeps the write-ahead log as it is when this connection closes.
    ///
    /// By default the last connection to close a WAL database copies the log into the database file and
    /// deletes the log. A database found damaged must keep its log: it holds the transactions committed since
    /// the last checkpoint, and copying them into a damaged file may damage it further.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the setting.
    public func keepWriteAheadLogOnClose() throws(SQLiteError) {
        let code = csqlite_set_no_checkpoint_on_close(handle, 1)
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code, sql: nil) }
    }

    /// The current journal mode.
    ///
    /// - Throws: ``SQLiteError``.
    public func journalMode() throws(SQLiteError) -> JournalMode {
        Self.journalMode(from: try query("PRAGMA journal_mode"))
    }

    private static func journalMode(from rows: [Row]) -> JournalMode {
        let name: String? = rows.first?[0].textValue
        return name.flatMap { JournalMode(rawValue: $0.lowercased()) } ?? .delete
    }

    /// The schema version number the application keeps in the database header (`PRAGMA user_version`).
    ///
    /// - Throws: ``SQLiteError``.
    public func userVersion() throws(SQLiteError) -> Int {
        let rows = try query("PRAGMA user_version")
        guard case .integer(let version) = rows.first?[0] else { return 0 }
        return Int(version)
    }

    /// Sets `PRAGMA user_version`.
    ///
    /// - Throws: ``SQLiteError``.
    public func setUserVersion(_ version: Int) throws(SQLiteError) {
        try execute("PRAGMA user_version = \(Int32(clamping: version))")
    }

    /// Quotes an identifier for SQL: `movie "cut"` becomes `"movie ""cut"""`.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension SQLiteValue {
    /// The text, when the value is text.
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}

/// The flag behind ``Connection/interrupt()``, read by SQL functions implemented in Swift.
///
/// SQLite checks its own interrupt flag only between virtual-machine instructions, so a function that runs long
/// on one call (a regular expression over megabytes of text) would never see it; the functions registered through
/// ``Connection`` check this flag when they are called and fail with `SQLITE_INTERRUPT` once it is raised.
final class InterruptSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }
    func lower() { raised.store(false, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
