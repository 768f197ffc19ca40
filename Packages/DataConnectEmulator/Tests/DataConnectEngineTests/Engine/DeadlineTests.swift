import DataConnectEngine
import DataConnectWire
import Dispatch
import EmulatorTesting
import Foundation
import Synchronization
import Testing

/// The request's time limit enforced by a watchdog: when the deadline passes, the statement running is
/// interrupted from outside, whatever it is doing, and the request answers `DEADLINE_EXCEEDED` (HTTP 504).
@Suite(.onBothDatabases) struct DeadlineTests {
    static let operations = "query Movies @auth(level: PUBLIC) { movies { id } }"

    /// A statement that would run for hours: only an interrupt from outside ends it.
    static let endless =
        #"query { _select(sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT max(x) FROM n") }"#

    @Test func theWatchdogInterruptsAStatementWhenTheDeadlinePasses() throws {
        // given a time limit that never passes by the clock, and a scheduler the test fires
        let deadlines = ManualDeadlines()
        let backend = try TestBackend(
            Self.operations, executionLimits: ExecutionLimits(requestTimeout: .seconds(3_600)), deadlines: deadlines)

        // when the endless statement runs and its deadline passes
        let answer = Mutex<EngineResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        // The backend is used by this thread only until the other one is done with it.
        nonisolated(unsafe) let running = backend
        let thread = Thread {
            answer.withLock { $0 = running.admin(Self.endless) }
            done.signal()
        }
        thread.start()
        try #require(deadlines.waitForScheduled(), "the request never armed its deadline")
        deadlines.passAll()

        // then the statement is stopped at once and the request answers DEADLINE_EXCEEDED, naming the limit
        try #require(done.wait(timeout: .now() + 120) == .success, "the interrupted statement never returned")
        let result = try #require(answer.withLock { $0 })
        #expect(result.status == .deadlineExceeded, "\(result.body)")
        #expect(result.requestErrorMessage?.contains("limit requestTimeout = 3600 s") == true, "\(result.body)")
    }

    @Test func aRequestThatEndsInTimeLeavesNothingScheduled() throws {
        // given
        let deadlines = ManualDeadlines()
        let backend = try TestBackend(Self.operations, deadlines: deadlines)

        // when
        let result = backend.admin("{ movies { id } }")

        // then its deadline was armed while it ran, and disarmed with it
        #expect(result.status == .ok, "\(result.body)")
        #expect(deadlines.scheduledEver > 0)
        #expect(deadlines.pending == 0)
    }

    @Test func theLiveWatchdogRunsActionsByDeadlineAndForgetsCancelledOnes() {
        // given
        let watchdog = DeadlineWatchdog()
        let fired = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let now = ContinuousClock.now

        // when three actions are scheduled out of order and one is cancelled
        _ = watchdog.schedule(at: now + .milliseconds(30)) {
            fired.withLock { $0.append(2) }
            done.signal()
        }
        let cancelled = watchdog.schedule(at: now + .milliseconds(10)) { fired.withLock { $0.append(99) } }
        _ = watchdog.schedule(at: now) { fired.withLock { $0.append(1) } }
        watchdog.cancel(cancelled)

        // then the due ones run in deadline order, the cancelled one never
        #expect(done.wait(timeout: .now() + 120) == .success)
        #expect(fired.withLock { $0 } == [1, 2])
        #expect(watchdog.pendingCount == 0)
    }

    @Test func theLiveWatchdogCancelsOnlyTheActionATicketNames() {
        // given a watchdog whose actions are due in an hour, one of them cancelled and its place reused
        let watchdog = DeadlineWatchdog()
        let later = ContinuousClock.now + .seconds(3_600)
        let first = watchdog.schedule(at: later) {}
        watchdog.cancel(first)
        let second = watchdog.schedule(at: later) {}
        let tickets = (0..<64).map { offset in watchdog.schedule(at: later + .milliseconds(offset * 7 % 64)) {} }

        // when the cancelled ticket is cancelled again, then every other one, out of order
        watchdog.cancel(first)
        #expect(watchdog.pendingCount == 65)
        for (index, ticket) in tickets.enumerated().reversed() where index % 3 != 0 {
            watchdog.cancel(ticket)
            watchdog.cancel(ticket)
        }

        // then only what the tickets named is gone
        #expect(watchdog.pendingCount == 1 + tickets.indices.filter { $0 % 3 == 0 }.count)
        watchdog.cancel(second)
        for (index, ticket) in tickets.enumerated() where index % 3 == 0 { watchdog.cancel(ticket) }
        #expect(watchdog.pendingCount == 0)
    }
}

/// A ``DeadlineScheduler`` whose deadlines pass when the test says so.
final class ManualDeadlines: DeadlineScheduler, Sendable {
    private struct State {
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var next: UInt64 = 1
        /// Whether the time passed every deadline: what is scheduled from then on runs at once.
        var passed = false
    }

    private let state = Mutex(State())
    private let scheduled = DispatchSemaphore(value: 0)

    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> DeadlineTicket {
        let (id, due) = state.withLock { state in
            defer { state.next += 1 }
            if state.passed { return (state.next, true) }
            state.actions[state.next] = action
            return (state.next, false)
        }
        // Never on the scheduling thread, which may hold the lock the action takes.
        if due { DispatchQueue.global().async(execute: action) }
        scheduled.signal()
        return DeadlineTicket(id: id)
    }

    func cancel(_ ticket: DeadlineTicket) {
        _ = state.withLock { $0.actions.removeValue(forKey: ticket.id) }
    }

    /// Waits until something was scheduled (a hang guard, not a timing condition).
    func waitForScheduled() -> Bool {
        scheduled.wait(timeout: .now() + 120) == .success
    }

    /// Runs every pending action: their deadlines have passed.
    func passPending() {
        let due = state.withLock { state in
            defer { state.actions = [:] }
            return Array(state.actions.values)
        }
        for action in due { action() }
    }

    /// Moves the time past every deadline for good: pending actions run now, later ones as they are scheduled.
    func passAll() {
        state.withLock { $0.passed = true }
        passPending()
    }

    var pending: Int { state.withLock { $0.actions.count } }
    var scheduledEver: Int { state.withLock { Int($0.next) - 1 } }
}

/// A request past its short budget moves to the slow lane of the thread it started on (the watchdog moves it);
/// when the lane is full it is stopped at once with `RESOURCE_EXHAUSTED`, naming the budget.
@Suite(.onBothDatabases) struct SlowLaneTests {
    /// Runs the endless statement on a thread whose slow lane is `lane`, with a scheduler the test fires.
    static func startEndless(lane: RecordingLane) throws -> (ManualDeadlines, () -> EngineResult?) {
        let deadlines = ManualDeadlines()
        nonisolated(unsafe) let backend = try TestBackend(
            DeadlineTests.operations,
            executionLimits: ExecutionLimits(requestTimeout: .seconds(3_600), slowLaneAfter: .milliseconds(200)),
            deadlines: deadlines)
        let answer = Mutex<EngineResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            SlowLanes.register(lane)
            answer.withLock { $0 = backend.admin(DeadlineTests.endless) }
            done.signal()
        }.start()
        return (
            deadlines,
            {
                guard done.wait(timeout: .now() + 120) == .success else { return nil }
                return answer.withLock { $0 }
            }
        )
    }

    @Test func pastItsShortBudgetARequestMovesToItsThreadsSlowLaneOnce() throws {
        // given a request running on a thread whose slow lane has room
        let lane = RecordingLane(admits: true)
        let (deadlines, result) = try Self.startEndless(lane: lane)

        // when its short budget passes, and then its deadline
        try #require(deadlines.waitForScheduled(), "the request never armed its short budget")
        deadlines.passPending()
        try #require(deadlines.waitForScheduled(), "the moved request never armed its deadline")
        deadlines.passAll()

        // then it moved once, went on running, and stopped at its deadline
        let answer = try #require(result(), "the request never returned")
        #expect(lane.asked == 1)
        #expect(answer.status == .deadlineExceeded, "\(answer.body)")
    }

    @Test func aFullSlowLaneStopsTheRequestAtOnceWithResourceExhausted() throws {
        // given a request running on a thread whose slow lane is full
        let lane = RecordingLane(admits: false)
        let (deadlines, result) = try Self.startEndless(lane: lane)

        // when its short budget passes
        try #require(deadlines.waitForScheduled(), "the request never armed its short budget")
        deadlines.passAll()

        // then it is stopped with 429, naming the budget
        let answer = try #require(result(), "the request never returned")
        #expect(lane.asked == 1)
        #expect(answer.status == .resourceExhausted, "\(answer.body)")
        #expect(answer.requestErrorMessage?.contains("200 ms (slowLaneAfter)") == true, "\(answer.body)")
    }

    @Test func aRequestThatEndsWithinItsShortBudgetNeverAsks() throws {
        // given
        let deadlines = ManualDeadlines()
        let backend = try TestBackend(DeadlineTests.operations, deadlines: deadlines)
        let lane = RecordingLane(admits: false)
        SlowLanes.register(lane)
        defer { SlowLanes.register(nil) }

        // when
        let result = backend.admin("{ movies { id } }")

        // then
        #expect(result.status == .ok, "\(result.body)")
        #expect(lane.asked == 0)
        #expect(deadlines.pending == 0)
    }
}

/// A slow lane that records how often it was asked.
final class RecordingLane: SlowLane {
    private let admits: Bool
    private let count = Mutex(0)

    init(admits: Bool) {
        self.admits = admits
    }

    func enterSlowLane() -> Bool {
        count.withLock { $0 += 1 }
        return admits
    }

    var asked: Int { count.withLock { $0 } }
}
