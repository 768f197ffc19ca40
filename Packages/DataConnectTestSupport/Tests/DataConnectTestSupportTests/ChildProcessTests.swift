import DataConnectTestSupport
import Foundation
import Synchronization
import Testing

/// `ChildProcess`: events to wait on, signals, standard input, and the hang guard that ends a hung child.
@Suite struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test func aLineIsWaitedForAndTheProcessStopsOnASignal() async throws {
        // given
        let child = try ChildProcess(Self.shell, ["-c", "echo 'ready 42'; exec sleep 600"])

        // when
        let rest = await child.waitForLine(startingWith: "ready ")
        let result = await child.stop(signal: SIGINT)

        // then
        #expect(rest == "42")
        #expect(result.exitStatus == nil, "a signal ended it")
        #expect(!child.isRunning)
        #expect(child.output.termination == .signal(SIGINT))
    }

    @Test func runCollectsStatusAndStreamsAndFeedsStandardInput() async throws {
        // when
        let result = try await ChildProcess.run(
            Self.shell, ["-c", "tr a-z A-Z; echo warning >&2; exit 4"], environment: ChildProcess.environment(),
            standardInput: Data("quiet\n".utf8))

        // then
        #expect(result.exitStatus == 4)
        #expect(result.outputLines == ["QUIET"])
        #expect(result.errorLines == ["warning"])
    }

    @Test func aChildThatExitsWithoutTheLineEndsTheWait() async throws {
        // given
        let child = try ChildProcess(Self.shell, ["-c", "echo nothing"])

        // when / then
        #expect(await child.waitForLine(startingWith: "ready ") == nil)
        #expect(await child.waitForExit().exitStatus == 0)
    }

    @Test func aHungChildIsKilledAfterTheHangGuardAndTheTestFailsSayingSo() async throws {
        // given
        let child = try ChildProcess(Self.shell, ["-c", "exec sleep 600"])

        // when
        let reports = Mutex<[String]>([])
        let result = await HangGuard.$recorder.withValue({ message, _ in reports.withLock { $0.append(message) } }) {
            await child.waitForExit(upTo: .milliseconds(200))
        }

        // then: killed, no exit status, and the failure the test would have recorded names the process
        #expect(result.exitStatus == nil)
        #expect(!child.isRunning)
        let recorded = reports.withLock { $0 }
        #expect(recorded.count == 1 && recorded[0].contains("was still running"), "\(recorded)")
    }
}
