import DataConnectWire

/// The time one request may still spend in the database, checked by SQLite while it steps statements.
///
/// Installed on the connection a request borrows; when the request's time limit passes, or the database
/// starts closing (the emulator is stopping), the running statement fails with `SQLITE_INTERRUPT` and the
/// request ends with ``error``. A database that cannot call back while it steps (PostgreSQL) bounds each
/// statement by ``limit`` and cancels statements when it closes; the engine then asks
/// ``noteInterrupted()`` why. Only the thread running the request touches it.
public final class RequestBudget {
    /// Why statements were stopped.
    enum StopReason {
        /// The request ran past its time limit.
        case deadline
        /// The database is closing.
        case closing
    }

    /// The request's time limit.
    public let limit: Duration
    /// When the request must be done.
    let deadline: ContinuousClock.Instant
    let database: any DatabaseAccess
    /// Set once statements were told to stop.
    private(set) var stopReason: StopReason?

    /// How many virtual-machine instructions run between two checks: the clock is read about every
    /// few microseconds of work, which costs nothing measurable.
    public static let checkInterval: Int32 = 1_000

    init(limit: Duration, database: any DatabaseAccess) {
        self.limit = limit
        self.deadline = ContinuousClock.now + limit
        self.database = database
    }

    /// Bounds the statements `source` runs until ``remove(from:)``.
    func install(on source: any StatementSource) {
        source.installBudget(self)
    }

    /// Stops bounding `source`'s statements.
    func remove(from source: any StatementSource) {
        source.removeBudget(self)
    }

    /// Whether the running statement should stop now (the time limit passed, or the database is closing);
    /// once `true`, always `true`. For a database that checks while it steps (SQLite's progress handler).
    public func shouldInterrupt() -> Bool {
        if stopReason != nil { return true }
        if database.isClosing {
            stopReason = .closing
        } else if ContinuousClock.now >= deadline {
            stopReason = .deadline
        }
        return stopReason != nil
    }

    /// Records why a statement was interrupted by the database itself (its statement timeout or a cancel
    /// while closing), when no check of ours stopped it.
    func noteInterrupted() {
        if stopReason == nil { stopReason = database.isClosing ? .closing : .deadline }
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
    /// The answer when the database refuses to prepare a statement: the operation is too large or too deeply
    /// nested for it (the compiler writes valid SQL), or the database is unreachable.
    static func refusedByDatabase(_ error: DatabaseError) -> ExecutionError {
        switch error.kind {
        case .outOfMemory:
            return ExecutionError(
                code: .resourceExhausted, message: "the database ran out of memory for this operation",
                isRequestLevel: true)
        case .unavailable, .interrupted, .damaged:
            return .failedInDatabase(error)
        default:
            return ExecutionError(
                code: .invalidArgument,
                message:
                    "the operation is too large or too deeply nested for the database (\(error.message)); "
                    + "select fewer fields, nest fewer relations or use fewer filter terms",
                isRequestLevel: true)
        }
    }

    /// The answer when a statement fails while it runs.
    static func failedInDatabase(_ error: DatabaseError) -> ExecutionError {
        switch error.kind {
        case .tooBig:
            ExecutionError(
                code: .invalidArgument,
                message: "a value or the result is larger than the database allows (\(error.message))",
                isRequestLevel: true)
        case .outOfMemory:
            ExecutionError(
                code: .resourceExhausted, message: "the database ran out of memory for this operation",
                isRequestLevel: true)
        case .interrupted:
            // Replaced by the request's ``RequestBudget/error``, which knows why.
            ExecutionError(code: .cancelled, message: "the request was interrupted", isRequestLevel: true)
        case .unavailable:
            .databaseUnavailable(error)
        case .damaged:
            .databaseDamaged(error)
        case .tooComplex:
            ExecutionError(
                code: .invalidArgument,
                message: "the operation is too large for the database (\(error.message))", isRequestLevel: true)
        default:
            ExecutionError(code: .internal, message: "internal error: \(error.message)")
        }
    }

    /// The answer when the database is damaged: `UNAVAILABLE` for the whole request; the engine records the
    /// damage (``StorageHealth``) and answers with its message.
    static func databaseDamaged(_ error: DatabaseError) -> ExecutionError {
        var failure = ExecutionError(
            code: .unavailable, message: "the database is damaged: \(error.message)", isRequestLevel: true)
        failure.damage = error.message
        return failure
    }

    /// The answer when the database cannot be reached: `UNAVAILABLE`, so that clients retry.
    static func databaseUnavailable(_ error: DatabaseError) -> ExecutionError {
        ExecutionError(
            code: .unavailable, message: "the database is unavailable: \(error.message)", isRequestLevel: true)
    }
}
