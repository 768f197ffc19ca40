import DataConnectWire
import FirebaseCore
import Synchronization
import Testing

@testable import FirebaseDataConnect

@Suite struct DataConnectLoggerTests {
    /// A logger at `level` whose lines go to the returned list.
    private func logger(at level: FirebaseLoggerLevel) -> (DataConnectLogger, LockedList<String>) {
        let lines = LockedList<String>()
        return (DataConnectLogger(level: { level }, write: { lines.append($0) }), lines)
    }

    @Test func writesOnlyMessagesAtOrBelowTheLevelWithTheSDKPrefix() {
        // given
        let (logger, lines) = logger(at: .notice)

        // when
        for level in FirebaseLoggerLevel.allCases { logger.log(level, "at \(level.name)") }

        // then
        #expect(
            lines.all == [
                "[FirebaseDataConnect] error: at error",
                "[FirebaseDataConnect] warning: at warning",
                "[FirebaseDataConnect] notice: at notice",
            ])
    }

    @Test func aFilteredMessageIsNotBuilt() {
        // given
        let (logger, lines) = logger(at: .error)
        let built = Atomic(0)

        // when
        logger.log(
            .debug,
            {
                built.add(1, ordering: .relaxed)
                return "expensive"
            }())

        // then
        let builds = built.load(ordering: .relaxed)
        #expect(builds == 0)
        #expect(lines.all.isEmpty)
    }

    @Test func readsTheLevelAtEachMessage() {
        // given
        let level = Mutex(FirebaseLoggerLevel.error)
        let lines = LockedList<String>()
        let logger = DataConnectLogger(level: { level.withLock { $0 } }, write: { lines.append($0) })

        // when
        logger.log(.debug, "before")
        level.withLock { $0 = .debug }
        logger.log(.debug, "after")

        // then
        #expect(lines.all == ["[FirebaseDataConnect] debug: after"])
    }
}
