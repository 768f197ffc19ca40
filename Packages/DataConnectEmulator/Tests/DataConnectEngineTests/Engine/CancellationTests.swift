import DataConnectEngine
import DataConnectWire
import Dispatch
import EmulatorTesting
import Foundation
import Synchronization
import Testing

/// A transport's say over a running request (what a gRPC call's `RST_STREAM` and `grpc-timeout` become): a
/// ``RequestCancellation`` stops the running statement and the request answers `CANCELLED`; a caller's deadline
/// earlier than the engine's time limit is the one the watchdog enforces, answering `DEADLINE_EXCEEDED` naming it.
@Suite(.onBothDatabases) struct CancellationTests {
    static let operations = DeadlineTests.operations
    static let endless = DeadlineTests.endless

    static func endlessRequest(
        deadline: ContinuousClock.Instant? = nil, cancellation: RequestCancellation? = nil
    ) -> EngineRequest {
        EngineRequest(
            kind: .admin(query: endless, operationName: nil, readOnly: false), enforceAuth: false, deadline: deadline,
            cancellation: cancellation)
    }

    /// Runs `request` on another thread; returns a wait for its answer (hang-guarded).
    static func start(_ request: EngineRequest, on backend: TestBackend) -> () -> EngineResult? {
        let answer = Mutex<EngineResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        // The backend is used by this thread only until the other one is done with it.
        nonisolated(unsafe) let running = backend
        Thread {
            answer.withLock { $0 = running.run(request) }
            done.signal()
        }.start()
        return {
            guard done.wait(timeout: .now() + 120) == .success else { return nil }
            return answer.withLock { $0 }
        }
    }

    @Test func cancellingStopsTheRunningStatementAndAnswersCancelled() throws {
        // given a request whose time limit never passes by the clock
        let deadlines = ManualDeadlines()
        let backend = try TestBackend(
            Self.operations, executionLimits: ExecutionLimits(requestTimeout: .seconds(3_600)), deadlines: deadlines)
        let cancellation = RequestCancellation()

        // when the endless statement runs and the caller cancels it
        let wait = Self.start(Self.endlessRequest(cancellation: cancellation), on: backend)
        try #require(deadlines.waitForScheduled(), "the request never armed its deadline")
        cancellation.cancel()

        // then it stops at once with CANCELLED, and nothing stays scheduled for it
        let result = try #require(wait(), "the cancelled statement never returned")
        #expect(result.status == .cancelled, "\(result.body)")
        #expect(result.requestErrorMessage?.contains("cancelled") == true, "\(result.body)")
        #expect(deadlines.pending == 0)
    }

    @Test func aRequestCancelledBeforeItRunsRunsNoSQL() throws {
        // given
        let backend = try TestBackend(Self.operations)
        let cancellation = RequestCancellation()
        cancellation.cancel()

        // when
        let result = backend.run(
            EngineRequest(
                kind: .admin(query: "{ movies { id } }", operationName: nil, readOnly: false), enforceAuth: false,
                cancellation: cancellation))

        // then
        #expect(result.status == .cancelled, "\(result.body)")
        #expect(result.sql.isEmpty, "\(result.sql)")
    }

    @Test func aCallersEarlierDeadlineIsTheOneEnforced() throws {
        // given an engine limit of an hour and a caller that waits a minute
        let deadlines = ManualDeadlines()
        let backend = try TestBackend(
            Self.operations, executionLimits: ExecutionLimits(requestTimeout: .seconds(3_600)), deadlines: deadlines)

        // when the caller's deadline passes
        let wait = Self.start(Self.endlessRequest(deadline: .now + .seconds(60)), on: backend)
        try #require(deadlines.waitForScheduled(), "the request never armed its deadline")
        deadlines.passAll()

        // then DEADLINE_EXCEEDED names the call's deadline, not the engine's limit
        let result = try #require(wait(), "the interrupted statement never returned")
        #expect(result.status == .deadlineExceeded, "\(result.body)")
        #expect(result.requestErrorMessage?.contains("grpc-timeout") == true, "\(result.body)")
    }

    @Test func aCallersLaterDeadlineLeavesTheEnginesLimit() throws {
        // given an engine limit of an hour and a caller that would wait a day
        let deadlines = ManualDeadlines()
        let backend = try TestBackend(
            Self.operations, executionLimits: ExecutionLimits(requestTimeout: .seconds(3_600)), deadlines: deadlines)

        // when the deadline passes
        let wait = Self.start(Self.endlessRequest(deadline: .now + .seconds(86_400)), on: backend)
        try #require(deadlines.waitForScheduled(), "the request never armed its deadline")
        deadlines.passAll()

        // then the engine's limit is the one named
        let result = try #require(wait(), "the interrupted statement never returned")
        #expect(result.status == .deadlineExceeded, "\(result.body)")
        #expect(result.requestErrorMessage?.contains("limit requestTimeout = 3600 s") == true, "\(result.body)")
    }

    @Test func cancellingAfterTheRequestEndedChangesNothing() throws {
        // given a request that ended
        let backend = try TestBackend(Self.operations)
        let cancellation = RequestCancellation()
        let result = backend.run(
            EngineRequest(
                kind: .admin(query: "{ movies { id } }", operationName: nil, readOnly: false), enforceAuth: false,
                cancellation: cancellation))

        // when the caller cancels late
        cancellation.cancel()

        // then the answer stood, and the signal fired (nothing left registered to run)
        #expect(result.status == .ok, "\(result.body)")
        #expect(cancellation.isCancelled)
    }
}
