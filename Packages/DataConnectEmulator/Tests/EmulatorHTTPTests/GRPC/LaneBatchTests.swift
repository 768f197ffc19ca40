import DataConnectTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import EmulatorHTTP

/// A batch of ready gRPC calls an HTTP/2 loop hands to the request lanes: when a call of it enters the slow lane,
/// the calls after it go back to the fast lane (or end UNAVAILABLE when the lanes are stopping), each call is taken
/// once, and the count of batches in the lanes comes back to zero.
@Suite struct LaneBatchTests {
    /// Calls that record that they ran; `slow` enters the slow lane, says so and blocks until released.
    final class Calls: Sendable {
        let workers = WorkerRegistry()
        let ran = Mutex<[String]>([])
        let ranSemaphore = DispatchSemaphore(value: 0)
        let slowEntered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func call(_ name: String, outbox: StreamOutbox = StreamOutbox(wake: {})) -> LaneBatch.Call {
            LaneBatch.Call(outbox: outbox) { [self] in
                ran.withLock { $0.append(name) }
                ranSemaphore.signal()
            }
        }

        func slow(before: @escaping @Sendable () -> Void = {}) -> LaneBatch.Call {
            LaneBatch.Call(outbox: StreamOutbox(wake: {})) { [self] in
                before()
                _ = workers.current?.enterSlowLane()
                slowEntered.signal()
                _ = release.wait(timeout: .now() + HangGuard.eventSeconds)
                ran.withLock { $0.append("slow") }
            }
        }

        func waitForRuns(_ count: Int) -> Bool {
            (0..<count).allSatisfy { _ in ranSemaphore.wait(timeout: .now() + HangGuard.eventSeconds) == .success }
        }
    }

    @Test func theCallsAfterOneEnteringTheSlowLaneRunOnAnotherThreadWhileItRuns() throws {
        // given: a batch whose first call enters the slow lane and blocks
        let calls = Calls()
        let lanes = RequestLanes(
            configuration: .init(fastWorkers: 2, slowLaneCapacity: 1), threadStarted: calls.workers.register)
        let workers = LoopWorkers(lanes: lanes, threadStarted: nil, fastWorkers: 2, log: { _ in })
        let batch = [calls.slow(), calls.call("a"), calls.call("b")]

        // when
        try #require(LaneBatch(calls: batch[...], lanes: lanes, workers: workers).submit())
        try #require(calls.slowEntered.wait(timeout: .now() + HangGuard.eventSeconds) == .success)

        // then: the two after it run while it blocks; it alone finishes on its thread; nothing runs twice
        #expect(calls.waitForRuns(2))
        #expect(calls.ran.withLock { $0 } == ["a", "b"])
        calls.release.signal()
        #expect(lanes.stop(grace: HangGuard.event))
        #expect(calls.ran.withLock { $0 } == ["a", "b", "slow"])
        #expect(workers.sharedBatches.load(ordering: .relaxed) == 0)
    }

    @Test func theCallsAfterOneEnteringTheSlowLaneWhileTheLanesStopEndUnavailable() throws {
        // given: one fast worker running a batch whose first call waits, before it enters the slow lane, until the
        // lanes are stopping (a job queued behind the batch is abandoned then)
        let calls = Calls()
        let lanes = RequestLanes(
            configuration: .init(fastWorkers: 1, slowLaneCapacity: 1), threadStarted: calls.workers.register)
        let workers = LoopWorkers(lanes: lanes, threadStarted: nil, fastWorkers: 1, log: { _ in })
        let began = DispatchSemaphore(value: 0)
        let stopping = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let outbox = StreamOutbox(wake: {})
        let waitForTheStop = calls.slow(before: {
            began.signal()
            _ = proceed.wait(timeout: .now() + HangGuard.eventSeconds)
        })
        let batch = [waitForTheStop, calls.call("after", outbox: outbox)]
        try #require(LaneBatch(calls: batch[...], lanes: lanes, workers: workers).submit())
        try #require(began.wait(timeout: .now() + HangGuard.eventSeconds) == .success)
        lanes.submit(run: {}, abandon: { stopping.signal() })

        // when: the lanes stop, and then the call enters the slow lane
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            lanes.stop(grace: HangGuard.event)
            stopped.signal()
        }.start()
        try #require(stopping.wait(timeout: .now() + HangGuard.eventSeconds) == .success)
        proceed.signal()
        try #require(calls.slowEntered.wait(timeout: .now() + HangGuard.eventSeconds) == .success)

        // then: the call after it never runs and is ended UNAVAILABLE at once; the slow one finishes
        if case .trailers(let status, _)? = outbox.peek().end {
            #expect(status.code == .unavailable)
        } else {
            Issue.record("the call after the slow one was not ended")
        }
        #expect(calls.ran.withLock { $0 }.isEmpty)
        calls.release.signal()
        #expect(stopped.wait(timeout: .now() + HangGuard.eventSeconds) == .success)
        #expect(calls.ran.withLock { $0 } == ["slow"])
        #expect(workers.sharedBatches.load(ordering: .relaxed) == 0)
    }
}
