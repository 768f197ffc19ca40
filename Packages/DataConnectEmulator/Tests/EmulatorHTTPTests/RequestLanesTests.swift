import DataConnectTestSupport
import Dispatch
import EmulatorHTTP
import Foundation
import Synchronization
import Testing

/// The request lanes: heavy requests run off the connections' threads, a request past its short budget leaves the
/// fast lane (which gets a thread back), and the slow lane's bound holds.
@Suite struct RequestLanesTests {
    @Test func aRequestMovedToTheSlowLaneGivesTheFastLaneAThreadBack() throws {
        // given one fast worker, running a request that moves to the slow lane and then blocks
        let workers = WorkerRegistry()
        let lanes = RequestLanes(
            configuration: .init(fastWorkers: 1, slowLaneCapacity: 1), threadStarted: workers.register)
        let release = DispatchSemaphore(value: 0)
        let moved = DispatchSemaphore(value: 0)
        let admitted = Mutex<Bool?>(nil)
        lanes.submit(
            run: {
                admitted.withLock { $0 = workers.current?.enterSlowLane() }
                moved.signal()
                release.wait()
            }, abandon: {})
        try #require(moved.wait(timeout: .now() + HangGuard.eventSeconds) == .success)

        // when a cheap request comes while the slow one still runs
        let cheap = DispatchSemaphore(value: 0)
        lanes.submit(run: { cheap.signal() }, abandon: {})

        // then it runs on a new fast thread, and the slow lane holds the first
        #expect(
            cheap.wait(timeout: .now() + HangGuard.eventSeconds) == .success, "the fast lane had no thread")
        #expect(admitted.withLock { $0 } == true)
        #expect(lanes.snapshot.slowRunning == 1)
        #expect(lanes.snapshot.fastThreads == 1)
        release.signal()
        #expect(lanes.stop(grace: HangGuard.event))
        #expect(lanes.snapshot.slowRunning == 0)
    }

    @Test func theSlowLaneRefusesOneMoreThanItsCapacity() throws {
        // given a slow lane for one request
        let workers = WorkerRegistry()
        let lanes = RequestLanes(
            configuration: .init(fastWorkers: 2, slowLaneCapacity: 1), threadStarted: workers.register)
        let release = DispatchSemaphore(value: 0)
        let answers = Mutex<[Bool]>([])
        let asked = DispatchSemaphore(value: 0)

        // when two requests pass their short budget at once
        for _ in 0..<2 {
            lanes.submit(
                run: {
                    let admitted = workers.current?.enterSlowLane() ?? false
                    answers.withLock { $0.append(admitted) }
                    asked.signal()
                    if admitted { release.wait() }
                }, abandon: {})
        }
        for _ in 0..<2 { try #require(asked.wait(timeout: .now() + HangGuard.eventSeconds) == .success) }

        // then one runs in the slow lane and the other is refused
        #expect(answers.withLock { $0.sorted { !$0 && $1 } } == [false, true])
        #expect(lanes.snapshot.slowRunning == 1)
        #expect(lanes.snapshot.refusedSlowRequests == 1)
        release.signal()
        #expect(lanes.stop(grace: HangGuard.event))
    }

    @Test func stoppingAbandonsWhatHasNotStarted() throws {
        // given one busy worker and a queued request
        let lanes = RequestLanes(configuration: .init(fastWorkers: 1, slowLaneCapacity: 1))
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<[String]>([])
        lanes.submit(
            run: {
                started.signal()
                release.wait()
                outcome.withLock { $0.append("first ran") }
            }, abandon: { outcome.withLock { $0.append("first abandoned") } })
        try #require(started.wait(timeout: .now() + HangGuard.eventSeconds) == .success)
        lanes.submit(
            run: { outcome.withLock { $0.append("second ran") } },
            abandon: {
                outcome.withLock { $0.append("second abandoned") }
                release.signal()
            })

        // when the lanes stop while the first still runs (it ends once the second is abandoned)
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            lanes.stop(grace: HangGuard.event)
            stopped.signal()
        }.start()

        // then the queued one is abandoned, the running one finishes, and nothing more is taken
        #expect(stopped.wait(timeout: .now() + HangGuard.eventSeconds) == .success)
        #expect(Set(outcome.withLock { $0 }) == ["first ran", "second abandoned"])
        #expect(lanes.submit(run: {}, abandon: {}) == false)
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aLaneRequestNeverHoldsUpTheConnectionsThread(_ http1: HTTP1Implementation) throws {
        // given one connection thread, and a responder whose lane requests block until released; the requests go
        // over blocking sockets, so that nothing here waits for a task of the (busy) concurrency pool to run
        let release = DispatchSemaphore(value: 0)
        let responder = LaneResponder(release: release)
        let server = HTTPServer(
            port: 0, configuration: HTTPServer.Configuration(threadPoolSize: 1).serving(http1), responder: responder)
        try server.start()
        defer { server.stop() }
        let slow = try RawHTTPConnection(port: server.port)
        try slow.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\na")
        try #require(responder.waitUntilBlocked(), "the lane request never started")

        // when another request comes on the same (only) connection thread
        let fast = try RawHTTPConnection(port: server.port)
        try fast.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try fast.readResponse()

        // then it is answered while the lane request still runs
        #expect(response.status == 200)
        #expect(response.text == "fast")
        release.signal()
        let slowResponse = try slow.readResponse()
        #expect(slowResponse.status == 200)
        #expect(slowResponse.text == "slow")
    }
}

/// Keeps each lane thread's worker, as the emulator registers it for its engine.
final class WorkerRegistry: Sendable {
    private static let key = "test.lane-worker"

    @Sendable func register(_ worker: LaneWorker) {
        Thread.current.threadDictionary[Self.key] = worker
    }

    var current: LaneWorker? {
        Thread.current.threadDictionary[Self.key] as? LaneWorker
    }
}

/// Runs `POST`s on the lanes (blocking until released) and answers `GET`s on the connection's thread.
struct LaneResponder: HTTPResponder {
    let release: DispatchSemaphore
    let started = DispatchSemaphore(value: 0)

    func runsInLanes(_ request: HTTPRequest) -> Bool { request.method == .post }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == .post else { return .text("fast") }
        started.signal()
        release.wait()
        return .text("slow")
    }

    func waitUntilBlocked() -> Bool {
        started.wait(timeout: .now() + HangGuard.eventSeconds) == .success
    }
}
