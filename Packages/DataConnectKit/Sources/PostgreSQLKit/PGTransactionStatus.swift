/// Where a connection stands with respect to transactions, as libpq tracks it (``PGConnection/transactionStatus``).
///
/// ```swift
/// try connection.execute("BEGIN")
/// connection.transactionStatus  // .inTransaction
/// try? connection.execute("SELECT 1/0")
/// connection.transactionStatus  // .inError: only ROLLBACK (or ROLLBACK TO a savepoint) works now
/// ```
public enum PGTransactionStatus: Hashable, Sendable {
    /// No transaction is open.
    case idle
    /// A command is running.
    case active
    /// A transaction is open and healthy.
    case inTransaction
    /// A transaction is open and a statement in it failed; everything but `ROLLBACK` fails until it ends.
    case inError
    /// The connection is down.
    case unknown
}
