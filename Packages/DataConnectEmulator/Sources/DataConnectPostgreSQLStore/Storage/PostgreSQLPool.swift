import DataConnectEngine
import Foundation
import PostgreSQLKit
import Synchronization

/// A few connections to one PostgreSQL database, lent out one request at a time.
///
/// Reads and writes both borrow any free connection: PostgreSQL runs them concurrently and keeps each
/// transaction's writes apart, so, unlike SQLite, writes are not serialized in the process. Every connection
/// works in UTC with the request time limit as its statement timeout.
///
/// A connection that lost the server is reset (reconnected) when it is next lent; while the server is down,
/// requests fail at once with ``DatabaseError/Kind/unavailable`` instead of waiting.
public final class PostgreSQLPool: DatabaseAccess, @unchecked Sendable {
    /// The connection string, as given.
    public let connectionString: String
    /// The number of connections.
    public let size: Int

    private let condition = NSCondition()
    private var free: [PostgreSQLSource]
    private let all: [PostgreSQLSource]
    private let closing = Atomic<Bool>(false)
    /// Threads waiting for a free connection.
    private let waiters = Atomic<Int>(0)
    /// Whether the server reported damaged data (`XX001`, `XX002`) to a request.
    public let storageHealth = StorageHealth(location: "PostgreSQL", remedy: StorageFailure.postgreSQLRemedy)

    /// ``storageHealth``, as the engine reads it: once damage is recorded, every request answers `UNAVAILABLE`.
    public var health: StorageHealth? { storageHealth }

    /// Connects `size` connections.
    ///
    /// - Throws: ``PGError`` (one line naming host, port and cause) when the server cannot be reached or
    ///   refuses the login.
    public init(connectionString: String, size: Int = 4) throws(PGError) {
        self.connectionString = connectionString
        self.size = max(1, size)
        var sources: [PostgreSQLSource] = []
        for _ in 0..<self.size {
            sources.append(try PostgreSQLSource(try PGConnection(connectionString)))
        }
        all = sources
        free = sources
    }

    public var isClosing: Bool { closing.load(ordering: .relaxed) }

    /// Whether a thread waits for a free connection: a holder that can, such as a ``PostgreSQLPipe``, gives its
    /// connection back at its next pause.
    var hasWaiters: Bool { waiters.load(ordering: .relaxed) > 0 }

    /// Marks the pool as closing and cancels every statement running now.
    public func beginClosing() {
        closing.store(true, ordering: .relaxed)
        for source in all { source.cancel() }
    }

    public func read<T>(_ body: (any StatementSource) throws -> T) throws -> T {
        try withConnection(body)
    }

    public func write<T>(_ body: (any StatementSource) throws -> T) throws -> T {
        try withConnection(body)
    }

    /// Runs `body` with a connection of the pool, reconnecting it first when it lost the server.
    ///
    /// - Throws: ``DatabaseError`` of kind ``DatabaseError/Kind/unavailable`` when the pool is closing or the
    ///   server cannot be reached; what `body` throws.
    public func withConnection<T>(_ body: (PostgreSQLSource) throws -> T) throws -> T {
        let source = try borrow()
        defer { giveBack(source) }
        do {
            return try body(source)
        } catch {
            storageHealth.recordDamage(ifReportedBy: error)
            throw error
        }
    }

    /// Takes a connection out of the pool, waiting for one to be free, and reconnects it when it lost the server;
    /// ``giveBack(_:)`` returns it.
    ///
    /// - Throws: ``DatabaseError`` of kind ``DatabaseError/Kind/interrupted`` when the pool is closing,
    ///   ``DatabaseError/Kind/unavailable`` when the server cannot be reached (the connection is back in the pool then).
    func borrow() throws(DatabaseError) -> PostgreSQLSource {
        // Interrupted, as a statement cancelled by the stop is: the request's budget says why.
        if isClosing { throw DatabaseError(.interrupted, "the database is closing") }
        condition.lock()
        if free.isEmpty {
            waiters.add(1, ordering: .relaxed)
            while free.isEmpty { condition.wait() }
            waiters.subtract(1, ordering: .relaxed)
        }
        let source = free.removeLast()
        condition.unlock()
        do {
            try source.ensureConnected()
        } catch {
            giveBack(source)
            throw error
        }
        return source
    }

    /// Returns a borrowed connection, rolling back a transaction it left open.
    func giveBack(_ source: PostgreSQLSource) {
        source.endLoan()
        condition.lock()
        free.append(source)
        condition.signal()
        condition.unlock()
    }
}

/// One pooled PostgreSQL connection with its prepared statements, cached by SQL text.
public final class PostgreSQLSource: StatementSource, @unchecked Sendable {
    /// The connection.
    public let connection: PGConnection
    private var statements = LRUCache<String, PostgreSQLStatement>(capacity: 2_000)
    private let canceller: Mutex<PGCanceller?>
    /// The statement timeout set on the session, in milliseconds.
    private var statementTimeout: Int64 = -1
    /// The budget of the request holding the connection, checked before each statement runs.
    private(set) var budget: RequestBudget?

    init(_ connection: PGConnection) throws(PGError) {
        self.connection = connection
        canceller = Mutex(try? connection.makeCanceller())
        try Self.configure(connection)
    }

    /// Session settings the engine's SQL relies on.
    static func configure(_ connection: PGConnection) throws(PGError) {
        try connection.execute("SET TIME ZONE 'UTC'; SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 1")
    }

    /// Whether the connection must be reconnected before its next use although libpq still counts it connected
    /// (a pipeline that broke off with results pending).
    var needsReset = false

    /// Reconnects when the connection lost the server.
    func ensureConnected() throws(DatabaseError) {
        guard !connection.isConnected || needsReset else { return }
        needsReset = false
        do {
            try connection.reset()
            try Self.configure(connection)
            statementTimeout = -1
            canceller.withLock { $0 = try? connection.makeCanceller() }
        } catch {
            throw DatabaseError(.unavailable, error.description)
        }
    }

    /// Cancels the statement running now, if any (from any thread).
    func cancel() {
        canceller.withLock { try? $0?.cancel() }
    }

    /// Rolls back a transaction left open, so that nothing outlives the loan.
    func endLoan() {
        switch connection.transactionStatus {
        case .inTransaction, .inError: try? connection.execute("ROLLBACK")
        default: break
        }
    }

    public func statement(_ sql: String) throws(DatabaseError) -> any DatabaseStatement {
        try cachedStatement(sql)
    }

    /// The connection's statement for `sql` if it exists on the server already, without preparing anything (for a
    /// connection in pipeline mode, where preparing cannot happen).
    func preparedStatement(_ sql: String) -> PGStatement? {
        guard let cached = statements[sql]?.statement, cached.isPreparedOnServer else { return nil }
        return cached
    }

    /// The connection's prepared statement for `sql`, prepared on first use.
    func cachedStatement(_ sql: String) throws(DatabaseError) -> PostgreSQLStatement {
        if let cached = statements[sql] {
            cached.finish()
            return cached
        }
        let prepared: PGStatement
        do {
            prepared = try connection.prepare(sql)
        } catch {
            throw DatabaseError(error)
        }
        let statement = PostgreSQLStatement(prepared, source: self)
        statements[sql] = statement
        return statement
    }

    /// Runs SQL without parameters or rows; a `ROLLBACK` outside any transaction (after a field that ran alone,
    /// in autocommit) is skipped rather than sent.
    public func execute(_ sql: String) throws(DatabaseError) {
        if sql == "ROLLBACK" && connection.transactionStatus == .idle { return }
        do {
            try connection.execute(sql)
        } catch {
            throw DatabaseError(error)
        }
    }

    /// Bounds the request by its time limit: each statement checks the budget before it runs, and runs under
    /// PostgreSQL's `statement_timeout` set to the limit; a stop cancels running statements through
    /// ``PostgreSQLPool/beginClosing()``.
    public func installBudget(_ budget: RequestBudget) {
        self.budget = budget
        setStatementTimeout(budget.limit)
    }

    /// Sets the session's `statement_timeout` to `limit` unless it is set to that already.
    func setStatementTimeout(_ limit: Duration) {
        let (seconds, attoseconds) = limit.components
        let milliseconds = max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
        guard milliseconds != statementTimeout else { return }
        if (try? connection.execute("SET statement_timeout = \(milliseconds)")) != nil {
            statementTimeout = milliseconds
        }
    }

    public func removeBudget(_ budget: RequestBudget) {
        self.budget = nil
    }

    /// `true`: a field of one statement runs in autocommit, one round trip instead of three (`BEGIN`, the
    /// statement, `COMMIT`).
    public var commitsSingleStatementsAlone: Bool { true }

    /// PostgreSQL's cancel request for the statement running on this connection.
    public var interrupter: @Sendable () -> Void {
        { [self] in cancel() }
    }
}

extension StorageFailure {
    /// What to do with a PostgreSQL database that reports damaged data.
    static let postgreSQLRemedy =
        "Check the server's log; rebuild a damaged index with REINDEX, or restore the database from a backup, "
        + "then restart the emulator"
}
