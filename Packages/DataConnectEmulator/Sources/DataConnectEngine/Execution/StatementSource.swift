import SQLiteKit

/// A connection lent to one request: it hands out prepared statements (cached by SQL text), runs transaction
/// control statements and lets the request's time budget stop what runs on it.
///
/// The engine runs every statement through this seam; ``SQLiteDialect`` SQL runs on SQLite connections
/// (``PooledConnection``) and ``PostgreSQLDialect`` SQL on PostgreSQL ones.
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
}

/// A prepared statement of one ``StatementSource``: bind values, step through rows, read columns.
///
/// Values are bound and read in their storage form (``SQLDialect``): the database's driver converts between
/// them and its own types.
public protocol DatabaseStatement: AnyObject {
    /// Binds the values to the placeholders `1...values.count`.
    func bindParameters(_ values: [SQLiteValue]) throws(DatabaseError)
    /// Moves to the next row (running the statement on first call); `false` once there are no more.
    func nextRow() throws(DatabaseError) -> Bool
    /// A column of the current row in its storage form (an `INTEGER` key as `.integer`, a UUID as 32 hex
    /// digits, a timestamp in the stored text form).
    func storedValue(at index: Int) -> SQLiteValue
    /// The number of columns of the rows (known once ``nextRow()`` ran).
    var columnCount: Int { get }
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
    /// An SQLite error, classified by its extended result code.
    public init(_ error: SQLiteError) {
        let kind: Kind =
            switch error.extendedCode {
            case .constraintUnique, .constraintPrimaryKey: .uniqueViolation
            case .constraintForeignKey: .foreignKeyViolation
            case .constraintNotNull: .notNullViolation
            case .constraintCheck: .checkViolation
            default:
                switch error.code {
                case .tooBig: .tooBig
                case .noMemory: .outOfMemory
                case .interrupt: .interrupted
                case .busy, .locked, .ioError, .cannotOpen: .unavailable
                case .corrupt, .notADatabase: .damaged
                default: .other
                }
            }
        self.init(kind, error.message)
    }

    /// Whether an SQLite error means the database is damaged: its primary code is `SQLITE_CORRUPT` or
    /// `SQLITE_NOTADB`, whatever the extended code (`SQLITE_CORRUPT_INDEX`, `SQLITE_CORRUPT_SEQUENCE`).
    static func isDamage(_ error: SQLiteError) -> Bool {
        error.code == .corrupt || error.code == .notADatabase
    }
}
