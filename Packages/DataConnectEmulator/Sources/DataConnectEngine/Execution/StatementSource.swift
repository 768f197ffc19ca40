/// A connection lent to one request: it hands out prepared statements (cached by SQL text), runs transaction
/// control statements and lets the request's time budget stop what runs on it.
///
/// The engine runs every statement through this seam; each store (DataConnectSQLiteStore,
/// DataConnectPostgreSQLStore) lends its own connections, which run the SQL of its ``SQLDialect``.
public protocol StatementSource {
    /// A prepared statement for `sql`, ready to bind (earlier bindings and rows cleared).
    func statement(_ sql: String) throws(DatabaseError) -> any DatabaseStatement
    /// Runs SQL without parameters or rows: `BEGIN`, `COMMIT`, `SAVEPOINT` and the like.
    func execute(_ sql: String) throws(DatabaseError)
    /// Lets `budget` stop statements that run on this connection until ``removeBudget(_:)``.
    func installBudget(_ budget: RequestBudget)
    /// Stops watching the budget installed by ``installBudget(_:)``.
    func removeBudget(_ budget: RequestBudget)
    /// Stops the statement running on this connection now; called from another thread (the request's watchdog).
    var interrupter: @Sendable () -> Void { get }
    /// Whether a mutation field of one statement, which nothing may roll back once it ran (no `@check`, no
    /// `@transaction`), runs on its own in autocommit instead of between `BEGIN` and `COMMIT`: the same data
    /// either way (one statement is atomic), one round trip to a database server instead of three. `false` by
    /// default (SQLite, in process, has no round trips to save).
    var commitsSingleStatementsAlone: Bool { get }
}

extension StatementSource {
    /// `false`: fields run between `BEGIN` and `COMMIT`.
    public var commitsSingleStatementsAlone: Bool { false }
}

/// A prepared statement of one ``StatementSource``: bind values, step through rows, read columns.
///
/// Values are bound and read as ``DatabaseValue``s in their storage form (``SQLDialect``): the store converts
/// between them and its driver's types, one value at a time, without building arrays of its own.
public protocol DatabaseStatement: AnyObject {
    /// Binds the values to the placeholders `1...values.count`.
    func bindParameters(_ values: [DatabaseValue]) throws(DatabaseError)
    /// Binds native SQL's numbered parameters: each `$N` the SQL names gets `values[N - 1]`.
    ///
    /// A database that numbers parameters itself binds `values` in order; one that names them (SQLite names
    /// them `$1`, `$2`, … in the order they first appear) binds each by its name, and throws
    /// ``DatabaseError/unnumberedParameter`` for a parameter that is not `$N` with a value in `values`.
    func bindNumberedParameters(_ values: [DatabaseValue]) throws(DatabaseError)
    /// Whether the statement leaves the data unchanged, as far as the database tells before it runs: SQLite
    /// does (`sqlite3_stmt_readonly`); a database that cannot tell answers `true` and makes the native SQL
    /// queries it runs read-only instead (``NativeSQLSupport/readOnlyBrackets(insideTransaction:)``).
    var isReadOnly: Bool { get }
    /// Moves to the next row (running the statement on first call); `false` once there are no more.
    func nextRow() throws(DatabaseError) -> Bool
    /// A column of the current row in its storage form (an `INTEGER` key as `.integer`, a UUID as 32 hex
    /// digits, a timestamp in the stored text form).
    func storedValue(at index: Int) -> DatabaseValue
    /// The number of columns of the rows (known once ``nextRow()`` ran).
    var columnCount: Int { get }
    /// The names of the columns, in order (their aliases where they have one; known once ``nextRow()`` ran).
    var columnNames: [String] { get }
    /// A column of the current row as the bytes of its text, or `nil` for NULL.
    func textBytes(at index: Int) -> [UInt8]?
    /// The rows inserted, updated or deleted by the last run.
    var rowsChanged: Int { get }
    /// Ends the current run: the statement can be bound and run again.
    func finish()
}

/// A failure reported by the database, classified for the engine's error codes.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is, across databases.
    public enum Kind: Hashable, Sendable {
        /// A unique or primary-key constraint refused a row.
        case uniqueViolation
        /// A foreign-key constraint refused a row.
        case foreignKeyViolation
        /// A `NOT NULL` constraint refused a row.
        case notNullViolation
        /// A `CHECK` constraint refused a row.
        case checkViolation
        /// A number does not fit its column (integer overflow).
        case numericOutOfRange
        /// A value or the result is larger than the database allows.
        case tooBig
        /// The statement is too large or too deeply nested for the database.
        case tooComplex
        /// The database ran out of memory.
        case outOfMemory
        /// The statement was interrupted or cancelled (the request's time limit, a stop).
        case interrupted
        /// The database cannot be reached: the connection was lost, the server is down or restarting.
        case unavailable
        /// The database found its stored data damaged (SQLite's `SQLITE_CORRUPT` or `SQLITE_NOTADB`,
        /// PostgreSQL's `XX001 data_corrupted` or `XX002 index_corrupted`).
        case damaged
        /// Another failure.
        case other
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// The database's message.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension DatabaseError {
    /// The error of native SQL whose parameters are not `$1`, `$2`, … with one value each.
    public static let unnumberedParameter = DatabaseError(
        .other, "native SQL parameters are written $1, $2, ... with one value each in params")
}
