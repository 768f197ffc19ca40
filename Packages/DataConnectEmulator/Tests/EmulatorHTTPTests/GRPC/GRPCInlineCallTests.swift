import DataConnectTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import EmulatorHTTP

#if canImport(Glibc)
import Glibc
#endif

/// Unary calls run on their HTTP/2 loop's thread. A call that runs long hands the loop to another thread, which goes
/// on serving the loop's other calls and connections (their resets, deadlines and new calls), and the long call
/// finishes on its own: in the slow lane when it asked for it (at nice 10), beside the loop otherwise.
@Suite struct GRPCInlineCallTests {
    /// `/test.Slow/Unary` blocks until released (entering the slow lane first when `entersSlowLane`);
    /// `/test.Echo/Unary` answers each message with itself at once; `/test.Pair/Unary` waits for a second call of its
    /// own to run at the same time and answers `together`, or `alone` when none came.
    final class Methods: Sendable {
        let workers = WorkerRegistry()
        let entersSlowLane: Bool
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        /// Slow calls that have returned (released, or past the hang guard).
        let slowEnded = Atomic<Int>(0)
        let echoes = Atomic<Int>(0)
        let pairArrivals = Atomic<Int>(0)
        let secondOfPair = DispatchSemaphore(value: 0)
        /// What `enterSlowLane()` answered, and the thread's nice value afterwards, per slow call.
        let outcomes = Mutex<[(admitted: Bool, nice: Int32)]>([])

        init(entersSlowLane: Bool = false) {
            self.entersSlowLane = entersSlowLane
        }

        var table: [String: GRPCMethod] {
            [
                "/test.Slow/Unary": .unary { [self] call in slow(call) },
                "/test.Echo/Unary": .unary { [self] call in
                    echoes.add(1, ordering: .relaxed)
                    return .ok(call.message)
                },
                "/test.Pair/Unary": .unary { [self] _ in
                    if pairArrivals.add(1, ordering: .relaxed).newValue == 2 {
                        secondOfPair.signal()
                        return .ok(Array("together".utf8))
                    }
                    let met = secondOfPair.wait(timeout: .now() + HangGuard.eventSeconds) == .success
                    return .ok(Array((met ? "together" : "alone").utf8))
                },
            ]
        }

        private func slow(_ call: GRPCUnaryCall) -> GRPCUnaryResult {
            call.cancellation.onCancel { [cancelled] in cancelled.signal() }
            if entersSlowLane {
                let admitted = workers.current?.enterSlowLane() ?? false
                let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                outcomes.withLock { $0.append((admitted, nice)) }
            }
            started.signal()
            _ = release.wait(timeout: .now() + HangGuard.eventSeconds)
            slowEnded.add(1, ordering: .relaxed)
            return .ok(Array("slow".utf8))
        }

        func waitUntilStarted() -> Bool {
            started.wait(timeout: .now() + HangGuard.eventSeconds) == .success
        }

        func waitUntilCancelled() -> Bool {
            cancelled.wait(timeout: .now() + HangGuard.eventSeconds) == .success
        }
    }

    /// One HTTP/2 loop (the fast lane has one worker), handing over after `handOverAfter` (only on slow-lane moves
    /// when nil).
    static func configuration(_ methods: Methods, handOverAfter: Duration?) -> HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration(threadPoolSize: 1)
        configuration.handOverConnectionsAfter = handOverAfter
        configuration.requestLanes = RequestLanes.Configuration(fastWorkers: 1, slowLaneCapacity: 1)
        configuration.laneThreadStarted = methods.workers.register
        return configuration
    }

    @Test func aCallRunningPastTheHandoverTimeLeavesTheLoopToTheOtherCallsOfItsConnection() async throws {
        // given: a slow call holding the only loop
        let methods = Methods()
        let configuration = Self.configuration(methods, handOverAfter: .milliseconds(20))
        try await withGRPCServer(configuration: configuration, methods: methods.table) { server in
            let client = try HTTP2TestClient(port: server.port)
            let slow = client.call("/test.Slow/Unary", messages: [[0]])
            try #require(methods.waitUntilStarted(), "the slow call never started")

            // when: another call on the same connection
            let fast = client.response(client.call("/test.Echo/Unary", messages: [[7]]))

            // then: it is answered while the slow call runs, and the slow call is answered once released
            #expect(fast.grpcStatus == 0)
            #expect(fast.messages == [[7]])
            #expect(client.streams[slow]?.closed != true)
            methods.release.signal()
            let answer = client.response(slow)
            #expect(answer.grpcStatus == 0)
            #expect(answer.messages == [Array("slow".utf8)])
            #expect(server.requestLanes?.slowRunning == 0)
        }
    }

    @Test func aCallRunningPastTheHandoverTimeLeavesTheLoopToItsOtherConnections() async throws {
        // given
        let methods = Methods()
        let configuration = Self.configuration(methods, handOverAfter: .milliseconds(20))
        try await withGRPCServer(configuration: configuration, methods: methods.table) { server in
            let first = try HTTP2TestClient(port: server.port)
            let slow = first.call("/test.Slow/Unary", messages: [[0]])
            try #require(methods.waitUntilStarted())

            // when: a new connection, served by the same (only) loop
            let second = try HTTP2TestClient(port: server.port)
            let fast = second.response(second.call("/test.Echo/Unary", messages: [[8]]))

            // then
            #expect(fast.messages == [[8]])
            methods.release.signal()
            #expect(first.response(slow).messages == [Array("slow".utf8)])
        }
    }

    @Test func callsReadTogetherWithASlowOneRunOnceEachWhileItRuns() async throws {
        // given: a slow call and three more, arriving in one write
        let methods = Methods()
        let configuration = Self.configuration(methods, handOverAfter: .milliseconds(20))
        try await withGRPCServer(configuration: configuration, methods: methods.table) { server in
            let client = try HTTP2TestClient(port: server.port)
            let slow = client.call("/test.Slow/Unary", messages: [[0]], queued: true)
            let others = (1...3).map { index in
                client.call("/test.Echo/Unary", messages: [[UInt8(index)]], queued: true)
            }

            // when
            client.flush()
            try #require(methods.waitUntilStarted())
            client.pump { client in others.allSatisfy { client.streams[$0]?.closed == true } }

            // then: the three are answered before the slow one ends, each once
            #expect(others.map { client.streams[$0]?.messages ?? [] } == [[[1]], [[2]], [[3]]])
            #expect(client.streams[slow]?.closed != true)
            methods.release.signal()
            #expect(client.response(slow).grpcStatus == 0)
            #expect(methods.echoes.load(ordering: .relaxed) == 3)
            #expect(server.grpcStatistics.callsStarted == 4)
        }
    }

    @Test func callsReadTogetherOnOneConnectionRunOnTwoThreadsWhenAWorkerIsIdle() async throws {
        // given: three fast workers: while the loop that reads both calls runs, the server's other loops wait for
        // events (each looks up every 250 ms), so a worker is idle; no handover by time
        let methods = Methods()
        var configuration = Self.configuration(methods, handOverAfter: nil)
        configuration.requestLanes = RequestLanes.Configuration(fastWorkers: 3, slowLaneCapacity: 1)
        try await withGRPCServer(configuration: configuration, methods: methods.table) { server in
            let client = try HTTP2TestClient(port: server.port)
            let calls = (0..<2).map { _ in client.call("/test.Pair/Unary", messages: [[0]], queued: true) }

            // when: both arrive in one write
            client.flush()

            // then: each waited for the other, so they ran at once: the loop kept one and a lane took the other
            #expect(calls.map { client.response($0).messages } == [[Array("together".utf8)], [Array("together".utf8)]])
        }
    }

    @Test func aCallEnteringTheSlowLaneInABatchOnALaneSendsTheCallsAfterItBackToTheFastLane() async throws {
        // given: two fast workers: while the loop that reads the calls runs, the server's other loops wait for events,
        // so a worker is idle and the loop keeps the first three of five calls read together and hands the last two
        // (the slow one, then an echo) to the lanes as one batch; no handover by time. (Were another loop awake at
        // that instant, no worker would be idle: the loop would run all five and its own handover would answer the
        // echo, so the test would pass without showing the batch's hand-back.)
        let methods = Methods(entersSlowLane: true)
        var configuration = Self.configuration(methods, handOverAfter: nil)
        configuration.requestLanes = RequestLanes.Configuration(fastWorkers: 2, slowLaneCapacity: 1)
        try await withGRPCServer(configuration: configuration, methods: methods.table) { server in
            let client = try HTTP2TestClient(port: server.port)
            let first = (1...3).map { client.call("/test.Echo/Unary", messages: [[UInt8($0)]], queued: true) }
            let slow = client.call("/test.Slow/Unary", messages: [[0]], queued: true)
            let last = client.call("/test.Echo/Unary", messages: [[4]], queued: true)

            // when: all five arrive in one write, and the slow call enters the slow lane and blocks until released
            client.flush()
            try #require(methods.waitUntilStarted())

            // then: the echo behind it is answered (on another fast thread) while it still blocks
            #expect(client.response(last).messages == [[4]])
            #expect(methods.slowEnded.load(ordering: .relaxed) == 0, "the echo waited for the slow call")
            #expect(client.streams[slow]?.closed != true)
            #expect(first.map { client.response($0).messages } == [[[1]], [[2]], [[3]]])
            methods.release.signal()
            #expect(client.response(slow).messages == [Array("slow".utf8)])
            #expect(methods.echoes.load(ordering: .relaxed) == 4)
            #expect(methods.outcomes.withLock { $0.map(\.admitted) } == [true])
            #expect(server.grpcStatistics.callsStarted == 5)
            #expect(await HangGuard.wait { server.requestLanes?.slowRunning == 0 })
        }
    }

    @Test func aCallResetWhileWaitingBehindALongOneNeverRuns() async throws {
        // given: no handover at all; a slow call, with two calls sent right behind it (read
        // with it, or while it runs). The slow call's request is written first and on its own: within one write the
        // client's nghttp2 may order the streams' DATA frames, which end the requests, as it likes.
        let methods = Methods()
        var configuration = Self.configuration(methods, handOverAfter: nil)
        // The loop reads its sockets between every two calls, however short.
        configuration.http2RoundBudget = .zero
        try await withGRPCServer(configuration: configuration, methods: methods.table) { server in
            let client = try HTTP2TestClient(port: server.port)
            let slow = client.call("/test.Slow/Unary", messages: [[0]])
            let reset = client.call("/test.Echo/Unary", messages: [[1]], queued: true)
            let kept = client.call("/test.Echo/Unary", messages: [[2]], queued: true)
            client.flush()
            try #require(methods.waitUntilStarted())

            // when: the client resets the second while the first holds the loop
            client.reset(reset)
            methods.release.signal()

            // then: the loop reads the reset before it runs the second, which never runs; the third does
            #expect(client.response(slow).grpcStatus == 0)
            #expect(client.response(kept).messages == [[2]])
            #expect(methods.echoes.load(ordering: .relaxed) == 1)
            #expect(client.streams[reset]?.messages.isEmpty == true)
        }
    }

    @Test func aCallEnteringTheSlowLaneLeavesTheLoopAndRunsAtNiceTen() async throws {
        // given: no handover by time: only the slow-lane move gives the loop away
        let methods = Methods(entersSlowLane: true)
        let configuration = Self.configuration(methods, handOverAfter: nil)
        try await withGRPCServer(configuration: configuration, methods: methods.table) { server in
            let client = try HTTP2TestClient(port: server.port)
            let slow = client.call("/test.Slow/Unary", messages: [[0]])
            try #require(methods.waitUntilStarted())

            // when
            let fast = client.response(client.call("/test.Echo/Unary", messages: [[9]]))

            // then: answered meanwhile; the slow call holds the slow lane's place, at nice 10
            #expect(fast.messages == [[9]])
            #expect(methods.outcomes.withLock { $0.map(\.admitted) } == [true])
            #expect(methods.outcomes.withLock { $0.map(\.nice) } == [10])
            #expect(server.requestLanes?.slowRunning == 1)
            methods.release.signal()
            #expect(client.response(slow).messages == [Array("slow".utf8)])
            #expect(await HangGuard.wait { server.requestLanes?.slowRunning == 0 })
            // and the connection goes on being served by the loop's new thread
            #expect(client.response(client.call("/test.Echo/Unary", messages: [[10]])).messages == [[10]])
        }
    }

    @Test func aResetByTheClientReachesACallThatLeftTheLoop() async throws {
        // given: a slow call that has left the loop (another call has been answered since)
        let methods = Methods()
        let configuration = Self.configuration(methods, handOverAfter: .milliseconds(20))
        try await withGRPCServer(configuration: configuration, methods: methods.table) { server in
            let client = try HTTP2TestClient(port: server.port)
            let slow = client.call("/test.Slow/Unary", messages: [[0]])
            try #require(methods.waitUntilStarted())
            #expect(client.response(client.call("/test.Echo/Unary", messages: [[1]])).grpcStatus == 0)

            // when
            client.reset(slow)

            // then: the call's cancellation fires while it still runs, and the call is no longer in flight
            #expect(methods.waitUntilCancelled())
            #expect(await HangGuard.wait { server.grpcStatistics.callsInFlight == 0 })
            methods.release.signal()
        }
    }

    @Test func aDeadlinePassingWhileACallHoldsTheLoopEndsTheCallWithoutItsAnswer() async throws {
        // given
        let methods = Methods()
        let configuration = Self.configuration(methods, handOverAfter: .milliseconds(20))
        try await withGRPCServer(configuration: configuration, methods: methods.table) { server in
            let client = try HTTP2TestClient(port: server.port)

            // when: the call outlives its deadline
            let slow = client.call("/test.Slow/Unary", metadata: [("grpc-timeout", "30m")], messages: [[0]])
            try #require(methods.waitUntilStarted())
            let response = client.response(slow)

            // then: DEADLINE_EXCEEDED while it runs, its cancellation fired, its late answer dropped
            #expect(response.grpcStatus == GRPCStatus.Code.deadlineExceeded.rawValue)
            #expect(response.messages.isEmpty)
            #expect(methods.waitUntilCancelled())
            methods.release.signal()
            #expect(client.response(client.call("/test.Echo/Unary", messages: [[2]])).messages == [[2]])
        }
    }

    @Test func stoppingWhileACallHoldsTheLoopCancelsItAndClosesTheConnectionAfterTheGracePeriod() async throws {
        // given: a call that never ends by itself, on the only loop, without any handover
        let methods = Methods()
        var configuration = Self.configuration(methods, handOverAfter: nil)
        configuration.stopGracePeriod = .milliseconds(100)
        let server = HTTPServer(
            port: 0, configuration: configuration, responder: GRPCTestResponder(methods: methods.table))
        try server.start()
        let client = try HTTP2TestClient(port: server.port)
        client.call("/test.Slow/Unary", messages: [[0]])
        try #require(methods.waitUntilStarted())

        // when
        server.stop()

        // then: stop returned, the call was cancelled, the connection is closed; the call's thread ends on its own
        #expect(methods.waitUntilCancelled())
        #expect(client.pump { $0.isClosed })
        #expect(server.grpcStatistics.callsInFlight == 0)
        methods.release.signal()
    }
}
