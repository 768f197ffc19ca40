import DataConnectTestSupport
import Dispatch
import EmulatorHTTP
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The native HTTP/1.1 side runs requests on its loop's thread; a request that runs long hands the loop to another
/// thread, so that the loop's other connections are served meanwhile, and finishes on its own: in the slow lane when
/// it asked for it (at nice 10, within the slow lane's capacity), beside the loop otherwise.
@Suite struct LoopHandoverTests {
    /// Runs `POST /slow` past its budget (moving it to the slow lane when `enters`) and blocks it until released;
    /// answers anything else at once.
    final class SlowResponder: HTTPResponder, @unchecked Sendable {
        let workers = WorkerRegistry()
        let enters: Bool
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        /// What `enterSlowLane()` answered, and the thread's nice value afterwards, per slow request.
        let outcomes = Mutex<[(admitted: Bool, nice: Int32)]>([])

        init(entersSlowLane: Bool) {
            self.enters = entersSlowLane
        }

        func respond(to request: HTTPRequest) -> HTTPResponse {
            guard request.path == "/slow" else { return .text("fast \(request.path)") }
            if enters {
                let admitted = workers.current?.enterSlowLane() ?? false
                let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                outcomes.withLock { $0.append((admitted, nice)) }
                started.signal()
                guard admitted else { return .text("refused") }
            } else {
                started.signal()
            }
            _ = release.wait(timeout: .now() + HangGuard.eventSeconds)
            return .text("slow")
        }

        func waitUntilStarted() -> Bool {
            started.wait(timeout: .now() + HangGuard.eventSeconds) == .success
        }
    }

    /// One loop thread, no handover by time: only the slow-lane move hands the loop over.
    static func server(
        _ responder: SlowResponder, handOverAfter: Duration? = nil, slowLaneCapacity: Int = 1
    )
        -> HTTPServer
    {
        var configuration = HTTPServer.Configuration(threadPoolSize: 1).serving(.native)
        configuration.handOverConnectionsAfter = handOverAfter
        configuration.requestLanes = RequestLanes.Configuration(fastWorkers: 1, slowLaneCapacity: slowLaneCapacity)
        configuration.laneThreadStarted = responder.workers.register
        return HTTPServer(port: 0, configuration: configuration, responder: responder)
    }

    @Test func aRequestEnteringTheSlowLaneLeavesTheLoopToItsOtherConnections() async throws {
        // given: a slow request running on the only loop, moved to the slow lane
        let responder = SlowResponder(entersSlowLane: true)
        let server = Self.server(responder)
        try server.start()
        defer { server.stop() }
        let slow = try RawHTTPConnection(port: server.port)
        try slow.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        try #require(responder.waitUntilStarted(), "the slow request never started")

        // when: another connection of the same loop asks for something cheap
        let fast = try RawHTTPConnection(port: server.port)
        try fast.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try fast.readResponse()

        // then: it is answered while the slow request runs, in the slow lane, at nice 10
        #expect(answer.text == "fast /fast")
        #expect(responder.outcomes.withLock { $0.map(\.admitted) } == [true])
        #expect(responder.outcomes.withLock { $0.map(\.nice) } == [10])
        #expect(server.requestLanes?.slowRunning == 1)
        responder.release.signal()
        #expect(try slow.readResponse().text == "slow")
        #expect(await HangGuard.wait { server.requestLanes?.slowRunning == 0 })
        // and the connection of the slow request goes on being served, on the loop's new thread
        try slow.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try slow.readResponse().text == "fast /after")
    }

    @Test func aFullSlowLaneRefusesTheNextSlowRequest() async throws {
        // given: a slow lane for one request, taken
        let responder = SlowResponder(entersSlowLane: true)
        let server = Self.server(responder, slowLaneCapacity: 1)
        try server.start()
        defer { server.stop() }
        let first = try RawHTTPConnection(port: server.port)
        try first.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        try #require(responder.waitUntilStarted())

        // when: a second request passes its budget
        let second = try RawHTTPConnection(port: server.port)
        try second.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let refused = try second.readResponse()

        // then: the slow lane refuses it (its code stops it), and the first goes on
        #expect(refused.text == "refused")
        #expect(responder.outcomes.withLock { $0.map(\.admitted) } == [true, false])
        #expect(server.requestLanes?.refusedSlowRequests == 1)
        responder.release.signal()
        #expect(try first.readResponse().text == "slow")
    }

    @Test func aRequestRunningPastTheHandoverTimeLeavesTheLoopWithoutEnteringTheSlowLane() async throws {
        // given: a request that blocks without asking for the slow lane
        let responder = SlowResponder(entersSlowLane: false)
        let server = Self.server(responder, handOverAfter: .milliseconds(20))
        try server.start()
        defer { server.stop() }
        let slow = try RawHTTPConnection(port: server.port)
        try slow.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        try #require(responder.waitUntilStarted())

        // when
        let fast = try RawHTTPConnection(port: server.port)
        try fast.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try fast.readResponse()

        // then
        #expect(answer.text == "fast /fast")
        #expect(server.requestLanes?.slowRunning == 0)
        responder.release.signal()
        #expect(try slow.readResponse().text == "slow")
    }

    @Test func requestsPipelinedBehindASlowOneAreAnsweredAfterItInOrder() async throws {
        // given
        let responder = SlowResponder(entersSlowLane: true)
        let server = Self.server(responder)
        try server.start()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.port)

        // when: a slow request with two more behind it on the same connection
        try connection.send(
            "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                + "GET /two HTTP/1.1\r\nHost: x\r\n\r\nGET /three HTTP/1.1\r\nHost: x\r\n\r\n")
        try #require(responder.waitUntilStarted())
        let other = try RawHTTPConnection(port: server.port)
        try other.send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
        let otherAnswer = try other.readResponse()
        responder.release.signal()
        let answers = try (0..<3).map { _ in try connection.readResponse().text }

        // then
        #expect(otherAnswer.text == "fast /other")
        #expect(answers == ["slow", "fast /two", "fast /three"])
    }

    @Test func stoppingWhileARequestHoldsTheLoopClosesTheConnectionsAfterTheGracePeriod() async throws {
        // given: a request that never ends by itself, on the only loop, without any handover
        let responder = SlowResponder(entersSlowLane: false)
        var configuration = HTTPServer.Configuration(threadPoolSize: 1).serving(.native)
        configuration.handOverConnectionsAfter = nil
        configuration.stopGracePeriod = .milliseconds(100)
        let server = HTTPServer(port: 0, configuration: configuration, responder: responder)
        try server.start()
        let slow = try RawHTTPConnection(port: server.port)
        try slow.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        try #require(responder.waitUntilStarted())

        // when
        server.stop()

        // then: stop returned, the connection is closed, and the request's thread ends on its own later
        #expect(slow.isClosedByServer())
        responder.release.signal()
    }
}
