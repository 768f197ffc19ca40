import DataConnectWire
import Synchronization

/// The time one request may still spend in the database, and the watchdog that enforces it.
///
/// Installed on the connection a request borrows. Two mechanisms stop its statements: a watchdog
/// (``DeadlineScheduler``) that interrupts the connection when the time limit passes, from another thread,
/// whatever the statement is doing (SQLite's `sqlite3_interrupt`, PostgreSQL's cancel); and SQLite's progress
/// handler, which asks ``shouldInterrupt()`` every ``checkInterval`` virtual-machine steps (the time limit, a
/// closing database, the stop the watchdog recorded). The progress handler alone cannot bound a request whose
/// single steps are expensive (a function over megabytes of text); the watchdog alone would miss a stop asked for
/// between two statements. The request then ends with ``error``.
///
/// The watchdog also moves a request that runs past its short budget (``ExecutionLimits/slowLaneAfter``) into the
/// slow lane of the server thread running it (``SlowLanes``), or stops it when that lane is full.
public final class RequestBudget: @unchecked Sendable {
    /// Why statements were stopped.
    enum StopReason: UInt8 {
        /// Not stopped.
        case running = 0
        /// The request ran past its time limit.
        case deadline = 1
        /// The database is closing.
        case closing = 2
        /// The request ran past its short budget while the slow lane was full.
        case slowLaneFull = 3
        /// The caller's own deadline (a gRPC call's `grpc-timeout`) passed before the time limit.
        case callerDeadline = 4
        /// The caller cancelled the request (``RequestCancellation``).
        case cancelled = 5
    }

    /// The request's time limit.
    public let limit: Duration
    /// When the request must be done: the time limit, or the caller's deadline when that comes first.
    let deadline: ContinuousClock.Instant
    /// Whether ``deadline`` is the caller's rather than the time limit.
    let deadlineIsCaller: Bool
    /// The caller's signal, watched while the budget is installed.
    let cancellation: RequestCancellation?
    /// How long the request may run in the database (from when it first gets a connection) before it moves to the
    /// slow lane; `nil` for never.
    let slowLaneAfter: Duration?
    let database: any DatabaseAccess
    let scheduler: any DeadlineScheduler
    private let stop = Atomic<UInt8>(StopReason.running.rawValue)
    /// What the watchdog acts on, shared between the thread running the request and the watchdog's.
    private struct Watch {
        /// Interrupts the connection the budget is installed on; `nil` while it is on none. Cleared before the
        /// connection goes back to its pool, so that a late watchdog never stops another request.
        var interrupter: (@Sendable () -> Void)?
        /// The slow lane of the thread running the request, if its server has one.
        var lane: (any SlowLane)?
        /// When the request moves to the slow lane, if it is still running: ``slowLaneAfter`` after it first got a
        /// connection (time spent waiting for one does not count).
        var slowLaneAt: ContinuousClock.Instant?
        /// Whether the request was moved to the slow lane.
        var movedToSlowLane = false
        /// The watchdog's next action while installed.
        var ticket: DeadlineTicket?
        /// The registration with ``cancellation`` while installed.
        var cancellationID: UInt64?
    }
    private let watch = Mutex(Watch())

    /// How many virtual-machine instructions run between two checks: the clock is read about every
    /// few microseconds of work, which costs nothing measurable.
    public static let checkInterval: Int32 = 1_000

    init(
        limits: ExecutionLimits, database: any DatabaseAccess, scheduler: any DeadlineScheduler,
        callerDeadline: ContinuousClock.Instant? = nil, cancellation: RequestCancellation? = nil
    ) {
        let now = ContinuousClock.now
        self.limit = limits.requestTimeout
        let own = now + limits.requestTimeout
        if let callerDeadline, callerDeadline < own {
            self.deadline = callerDeadline
            self.deadlineIsCaller = true
        } else {
            self.deadline = own
            self.deadlineIsCaller = false
        }
        self.cancellation = cancellation
        self.slowLaneAfter = limits.slowLaneAfter
        self.database = database
        self.scheduler = scheduler
    }

    /// Why statements were stopped, if they were.
    var stopReason: StopReason? {
        let reason = StopReason(rawValue: stop.load(ordering: .acquiring)) ?? .running
        return reason == .running ? nil : reason
    }

    /// Records why statements stop; the first reason stays.
    private func record(_ reason: StopReason) {
        _ = stop.compareExchange(
            expected: StopReason.running.rawValue, desired: reason.rawValue, ordering: .acquiringAndReleasing)
    }

    /// Bounds the statements `source` runs until ``remove(from:)``.
    func install(on source: any StatementSource) {
        source.installBudget(self)
        let lane = slowLaneAfter == nil ? nil : SlowLanes.current
        watch.withLock { watch in
            watch.interrupter = source.interrupter
            if watch.lane == nil, let lane, let slowLaneAfter {
                watch.lane = lane
                watch.slowLaneAt = ContinuousClock.now + slowLaneAfter
            }
            if watch.ticket == nil { arm(&watch) }
        }
        if let cancellation, let id = cancellation.onCancel({ [weak self] in self?.cancel() }) {
            watch.withLock { $0.cancellationID = id }
        }
    }

    /// Stops bounding `source`'s statements.
    func remove(from source: any StatementSource) {
        let cancellationID = watch.withLock { watch -> UInt64? in
            watch.interrupter = nil
            if let ticket = watch.ticket { scheduler.cancel(ticket) }
            watch.ticket = nil
            defer { watch.cancellationID = nil }
            return watch.cancellationID
        }
        if let cancellationID { cancellation?.remove(cancellationID) }
        source.removeBudget(self)
    }

    /// Schedules the watchdog's next action: the move to the slow lane when it is due before the deadline, the
    /// deadline otherwise. (The scheduler never calls back while it is scheduling, so this may hold the lock.)
    /// The action holds the budget strongly: a weak reference would give every request's budget a side table,
    /// and ``remove(from:)`` cancels the action, so the budget lives no longer than its request (or, were it never
    /// removed, than its deadline).
    private func arm(_ watch: inout Watch) {
        if !watch.movedToSlowLane, watch.lane != nil, let slowLaneAt = watch.slowLaneAt, slowLaneAt < deadline {
            watch.ticket = scheduler.schedule(at: slowLaneAt) { [self] in moveToSlowLane() }
        } else {
            watch.ticket = scheduler.schedule(at: deadline) { [self] in expire() }
        }
    }

    /// The watchdog's action at the short budget: the request moves to its thread's slow lane, or, the lane being
    /// full, is stopped now.
    func moveToSlowLane() {
        watch.withLock { watch in
            watch.ticket = nil
            guard watch.interrupter != nil, !watch.movedToSlowLane, let lane = watch.lane else { return }
            watch.movedToSlowLane = true
            if lane.enterSlowLane() {
                arm(&watch)
            } else {
                record(.slowLaneFull)
                interrupt(&watch)
            }
        }
    }

    /// The watchdog's action at the deadline: the running statement is interrupted now.
    func expire() {
        watch.withLock { watch in
            watch.ticket = nil
            record(deadlineIsCaller ? .callerDeadline : .deadline)
            interrupt(&watch)
        }
    }

    /// The caller's cancellation: the running statement is interrupted now.
    func cancel() {
        watch.withLock { watch in
            record(.cancelled)
            if let ticket = watch.ticket { scheduler.cancel(ticket) }
            watch.ticket = nil
            interrupt(&watch)
        }
    }

    /// Interrupts the connection, and again every ``reinterruptInterval`` while the request holds it: an interrupt
    /// that lands between two statements is lost on PostgreSQL (a cancel request stops only what runs), and the
    /// check before each statement may have passed just before it.
    private func interrupt(_ watch: inout Watch) {
        guard let interrupter = watch.interrupter else { return }
        interrupter()
        watch.ticket = scheduler.schedule(at: ContinuousClock.now + Self.reinterruptInterval) { [weak self] in
            self?.interruptAgain()
        }
    }

    private func interruptAgain() {
        watch.withLock { watch in
            watch.ticket = nil
            interrupt(&watch)
        }
    }

    /// How often a stopped request's connection is interrupted again while the request still holds it.
    static let reinterruptInterval: Duration = .milliseconds(100)

    /// Whether the running statement should stop now (the time limit passed, the database is closing, or the
    /// watchdog stopped the request); once `true`, always `true`. For a database that checks while it steps
    /// (SQLite's progress handler), and before each statement.
    public func shouldInterrupt() -> Bool {
        if stopReason != nil { return true }
        if database.isClosing {
            record(.closing)
            return true
        }
        if ContinuousClock.now >= deadline {
            record(deadlineIsCaller ? .callerDeadline : .deadline)
            return true
        }
        return false
    }

    /// Records why a statement was interrupted by the database itself (its statement timeout or a cancel
    /// while closing), when no check of ours stopped it.
    func noteInterrupted() {
        if stopReason == nil {
            record(database.isClosing ? .closing : deadlineIsCaller ? .callerDeadline : .deadline)
        }
    }

    /// The request's answer once its statements were stopped.
    var error: ExecutionError? {
        switch stopReason {
        case nil, .running?: nil
        case .deadline?:
            ExecutionError(
                code: .deadlineExceeded,
                message: "the request ran longer than its time limit (limit requestTimeout = \(Self.describe(limit)))",
                isRequestLevel: true)
        case .callerDeadline?:
            ExecutionError(code: .deadlineExceeded, message: Self.callerDeadlineMessage, isRequestLevel: true)
        case .cancelled?:
            ExecutionError(code: .cancelled, message: Self.cancelledMessage, isRequestLevel: true)
        case .closing?:
            ExecutionError(
                code: .unavailable, message: "the emulator is stopping; the request was cancelled",
                isRequestLevel: true)
        case .slowLaneFull?:
            ExecutionError(
                code: .resourceExhausted,
                message:
                    "the request ran longer than \(Self.describe(slowLaneAfter ?? .zero)) (slowLaneAfter) while the "
                    + "slow lane was full; retry once the slow requests running now have ended",
                isRequestLevel: true)
        }
    }

    /// The answer to a request whose caller's deadline passed.
    static let callerDeadlineMessage = "the call's deadline (grpc-timeout) passed before the request ended"

    /// The answer to a request its caller cancelled.
    static let cancelledMessage = "the caller cancelled the request"

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
        var failure = ExecutionError(
            code: .unavailable, message: "the database is unavailable: \(error.message)", isRequestLevel: true)
        failure.unreachable = error.message
        return failure
    }
}
