import DataConnectWire
import SQLiteKit

/// The time one request may still spend in the database, checked by SQLite while it steps statements.
///
/// Installed on the connection a request borrows; when the request's time limit passes, or the database
/// starts closing (the emulator is stopping), the running statement fails with `SQLITE_INTERRUPT` and the
/// request ends with ``error``. Only the thread running the request touches it.
final class RequestBudget {
    /// Why statements were stopped.
    enum StopReason {
        /// The request ran past its time limit.
        case deadline
        /// The database is closing.
        case closing
    }

    /// The request's time limit.
    let limit: Duration
    /// When the request must be done.
    let deadline: ContinuousClock.Instant
    let database: any DatabaseAccess
    /// Set once statements were told to stop.
    private(set) var stopReason: StopReason?

    /// How many virtual-machine instructions run between two checks: the clock is read about every
    /// few microseconds of work, which costs nothing measurable.
    static let checkInterval: Int32 = 1_000

    init(limit: Duration, database: any DatabaseAccess) {
        self.limit = limit
        self.deadline = ContinuousClock.now + limit
        self.database = database
    }

    /// Bounds the statements `connection` runs until ``remove(from:)``.
    func install(on connection: Connection) {
        connection.setProgressHandler(every: Self.checkInterval) { [self] in shouldInterrupt() }
    }

    /// Stops bounding `connection`'s statements.
    func remove(from connection: Connection) {
        connection.setProgressHandler(every: 0, nil)
    }

    func shouldInterrupt() -> Bool {
        if stopReason != nil { return true }
        if database.isClosing {
            stopReason = .closing
        } else if ContinuousClock.now >= deadline {
            stopReason = .deadline
        }
        return stopReason != nil
    }

    /// The request's answer once its statements were stopped.
    var error: ExecutionError? {
        switch stopReason {
        case nil: nil
        case .deadline?:
            ExecutionError(
                code: .deadlineExceeded,
                message: "the request ran longer than its time limit (limit requestTimeout = \(Self.describe(limit)))",
                isRequestLevel: true)
        case .closing?:
            ExecutionError(
                code: .unavailable, message: "the emulator is stopping; the request was cancelled",
                isRequestLevel: true)
        }
    }

    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return "\(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}

extension ExecutionError {
    /// The error for generated SQL the database refused to prepare.
    ///
    /// The engine's SQL always prepares unless the operation crosses one of SQLite's own limits (nesting
    /// deeper than its parser stack, more arguments to a function, a deeper expression tree, more bound
    /// values or joined tables than it allows), so the request is refused as too large, with SQLite's reason.
    static func refusedByDatabase(_ error: SQLiteError) -> ExecutionError {
        switch error.code {
        case .noMemory:
            return ExecutionError(
                code: .resourceExhausted, message: "the database ran out of memory for this operation",
                isRequestLevel: true)
        default:
            return ExecutionError(
                code: .invalidArgument,
                message:
                    "the operation is too large or too deeply nested for the database (SQLite: \(error.message)); "
                    + "select fewer fields, nest fewer relations or use fewer filter terms",
                isRequestLevel: true)
        }
    }

    /// The error for a statement that failed while it ran, other than a constraint.
    static func failedInDatabase(_ error: SQLiteError) -> ExecutionError {
        switch error.code {
        case .tooBig:
            ExecutionError(
                code: .invalidArgument,
                message: "a value or the result is larger than the database allows (SQLite: \(error.message))",
                isRequestLevel: true)
        case .noMemory:
            ExecutionError(
                code: .resourceExhausted, message: "the database ran out of memory for this operation",
                isRequestLevel: true)
        case .interrupt:
            // Replaced by the request's ``RequestBudget/error``, which knows why.
            ExecutionError(code: .cancelled, message: "the request was interrupted", isRequestLevel: true)
        default:
            ExecutionError(code: .internal, message: "internal error: \(error.message)")
        }
    }
}
