import DataConnectEmulator
import Synchronization
import Testing

/// The test clock: actions run when, and only when, time is advanced past their deadline.
@Suite struct ManualClockTests {
    /// Collects what scheduled actions record, from any thread.
    final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func runsDueActionsInDeadlineOrderAndNothingEarly() {
        // given
        let clock = ManualClock()
        let log = Log()
        _ = clock.schedule(after: .seconds(2)) { log.append("b") }
        _ = clock.schedule(after: .seconds(1)) { log.append("a") }
        _ = clock.schedule(after: .seconds(2)) { log.append("c") }

        // when
        clock.advance(by: .milliseconds(999))
        let early = log.all
        clock.advance(by: .seconds(1) + .milliseconds(1))

        // then
        #expect(early == [])
        #expect(log.all == ["a", "b", "c"])
        #expect(clock.now == .seconds(2))
        #expect(clock.pendingCount == 0)
    }

    @Test func runsActionsScheduledWhileAdvancingWhenTheyFallDue() {
        // given: a timer that reschedules itself every second, as the hub's heartbeat does
        let clock = ManualClock()
        let log = Log()
        @Sendable func tick() {
            log.append("tick at \(clock.now)")
            _ = clock.schedule(after: .seconds(1), tick)
        }
        _ = clock.schedule(after: .seconds(1), tick)

        // when
        clock.advance(by: .milliseconds(3_500))

        // then
        #expect(log.all == ["tick at 1.0 seconds", "tick at 2.0 seconds", "tick at 3.0 seconds"])
        #expect(clock.pendingCount == 1)
    }

    @Test func cancelledActionsDoNotRun() {
        // given
        let clock = ManualClock()
        let log = Log()
        let cancelled = clock.schedule(after: .seconds(1)) { log.append("cancelled") }
        _ = clock.schedule(after: .seconds(1)) { log.append("kept") }

        // when
        cancelled.cancel()
        clock.advance(by: .seconds(1))

        // then
        #expect(log.all == ["kept"])
    }
}
