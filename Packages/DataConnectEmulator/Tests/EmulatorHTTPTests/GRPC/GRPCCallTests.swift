import DataConnectTestSupport
import Dispatch
import EmulatorHTTP
import Foundation
import Synchronization
import Testing

/// gRPC over HTTP/2 on the server's one port: unary calls, their errors and limits, deadlines, cancellation,
/// concurrency and bidirectional streams.
@Suite struct GRPCCallTests {
    @Test func aUnaryCallIsAnsweredWithItsMessageAndStatusOK() async throws {
        // given
        let seen = Mutex<GRPCCallHead?>(nil)
        let method = GRPCMethod.unary { call in
            seen.withLock { $0 = call.head }
            return .ok(Array("re: ".utf8) + call.message)
        }
        try await withGRPCServer(methods: ["/test.Echo/Unary": method]) { server in
            let client = try HTTP2TestClient(port: server.port)

            // when
            let stream = client.call(
                "/test.Echo/Unary", metadata: [("x-token", "abc"), ("grpc-timeout", "10S")],
                messages: [Array("hello".utf8)])
            let response = client.response(stream)

            // then
            #expect(response.status == "200")
            #expect(response.headers.contains { $0 == ("content-type", "application/grpc") })
            #expect(response.headers.contains { $0 == ("grpc-accept-encoding", "identity") })
            #expect(response.messages == [Array("re: hello".utf8)])
            #expect(response.grpcStatus == 0)
            let head = seen.withLock { $0 }
            #expect(head?.path == "/test.Echo/Unary")
            #expect(head?.metadata["x-token"] == "abc")
            #expect(head?.deadline != nil)
            #expect(head?.remoteAddress == "127.0.0.1")
            #expect(head?.authority == "127.0.0.1:\(server.port)")
            #expect(server.grpcStatistics.callsStarted == 1)
        }
    }

    @Test func anUnknownMethodIsUnimplementedTrailersOnly() async throws {
        try await withGRPCServer(methods: [:]) { server in
            let client = try HTTP2TestClient(port: server.port)

            let response = client.response(client.call("/test.Nothing/Here", messages: [[1, 2, 3]]))

            #expect(response.isTrailersOnly)
            #expect(response.grpcStatus == GRPCStatus.Code.unimplemented.rawValue)
            #expect(response.grpcMessage?.contains("/test.Nothing/Here") == true)
        }
    }

    @Test func aMessageOverTheLimitIsResourceExhausted() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.maximumBodySize = 1_024
        try await withGRPCServer(configuration: configuration, methods: ["/test.Echo/Unary": unaryEcho]) { server in
            let client = try HTTP2TestClient(port: server.port)

            let large = client.response(
                client.call("/test.Echo/Unary", messages: [[UInt8](repeating: 7, count: 2_000)]))
            let fits = client.response(client.call("/test.Echo/Unary", messages: [[UInt8](repeating: 7, count: 1_024)]))

            #expect(large.grpcStatus == GRPCStatus.Code.resourceExhausted.rawValue)
            #expect(large.grpcMessage?.contains("1024") == true)
            #expect(fits.grpcStatus == 0)
            #expect(fits.messages.first?.count == 1_024)
        }
    }

    @Test func aCompressedMessageIsRefusedWithAStatus() async throws {
        try await withGRPCServer(methods: ["/test.Echo/Unary": unaryEcho]) { server in
            let client = try HTTP2TestClient(port: server.port)

            let response = client.response(client.call("/test.Echo/Unary", messages: [[1, 2, 3]], flag: 1))

            #expect(response.grpcStatus == GRPCStatus.Code.unimplemented.rawValue)
            #expect(response.messages.isEmpty)
        }
    }

    @Test func zeroOrTwoMessagesToAUnaryMethodAreInternal() async throws {
        try await withGRPCServer(methods: ["/test.Echo/Unary": unaryEcho]) { server in
            let client = try HTTP2TestClient(port: server.port)

            let none = client.response(client.call("/test.Echo/Unary"))
            let two = client.response(client.call("/test.Echo/Unary", messages: [[1], [2]]))

            #expect(none.grpcStatus == GRPCStatus.Code.internal.rawValue)
            #expect(two.grpcStatus == GRPCStatus.Code.internal.rawValue)
        }
    }

    @Test func aRequestThatIsNotGRPCIsToldToUseHTTP1() async throws {
        try await withGRPCServer(methods: [:]) { server in
            let client = try HTTP2TestClient(port: server.port)

            let response = client.response(client.call("/v1/anything", contentType: "application/json", method: "GET"))

            #expect(response.status == "505")
            let body = String(decoding: response.data, as: UTF8.self)
            #expect(body.hasPrefix(#"{"error":{"code":505,"message":""#))
            #expect(body.contains("HTTP/1.1"))
        }
    }

    @Test func aDeadlineShorterThanTheHandlerIsDeadlineExceededAndCancelsTheCall() async throws {
        // given: a handler that runs until its call is cancelled
        let cancelled = Flag()
        let method = GRPCMethod.unary { call in
            if call.cancellation.waitUntilCancelled() { cancelled.set() }
            return .ok([1])
        }
        try await withGRPCServer(methods: ["/test.Slow/Unary": method]) { server in
            let client = try HTTP2TestClient(port: server.port)

            // when
            let response = client.response(
                client.call("/test.Slow/Unary", metadata: [("grpc-timeout", "50m")], messages: [[0]]))

            // then
            #expect(response.grpcStatus == GRPCStatus.Code.deadlineExceeded.rawValue)
            #expect(response.messages.isEmpty)
            #expect(await HangGuard.wait { cancelled.isSet })
        }
    }

    @Test func aResetByTheClientFiresTheCancellation() async throws {
        let started = Flag()
        let cancelled = Flag()
        let method = GRPCMethod.unary { call in
            call.cancellation.onCancel { cancelled.set() }
            started.set()
            _ = call.cancellation.waitUntilCancelled()
            return .ok([1])
        }
        try await withGRPCServer(methods: ["/test.Slow/Unary": method]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let stream = client.call("/test.Slow/Unary", messages: [[0]])
            client.pump { _ in started.isSet }

            client.reset(stream)

            #expect(await HangGuard.wait { cancelled.isSet })
            #expect(await HangGuard.wait { server.grpcStatistics.callsInFlight == 0 })
        }
    }

    @Test func twoHundredConcurrentStreamsFinishWhileOneIsSlow() async throws {
        // given: one slow call that waits for the others
        let finishedOther = DispatchSemaphore(value: 0)
        let slow = GRPCMethod.unary { _ in
            for _ in 0..<199 { _ = finishedOther.wait(timeout: .now() + HangGuard.eventSeconds) }
            return .ok([0])
        }
        let fast = GRPCMethod.unary { call in
            finishedOther.signal()
            return .ok(call.message)
        }
        try await withGRPCServer(methods: ["/test.Slow/Unary": slow, "/test.Echo/Unary": fast]) { server in
            let client = try HTTP2TestClient(port: server.port)
            // Every call's HEADERS and message first, the requests left open: all 200 are in flight at once.
            var streams = [client.call("/test.Slow/Unary", messages: [[0]], endStream: false)]
            for index in 1..<200 {
                streams.append(client.call("/test.Echo/Unary", messages: [[UInt8(index % 256)]], endStream: false))
            }
            client.pump { _ in server.grpcStatistics.callsInFlight == 200 }

            // when
            for stream in streams { client.send([], on: stream, raw: true, end: true) }
            client.pump { client in streams.allSatisfy { client.streams[$0]?.closed == true } }

            // then
            let statuses = streams.map { client.streams[$0]?.grpcStatus }
            #expect(statuses.allSatisfy { $0 == 0 })
            #expect(server.grpcStatistics.peakCallsInFlight >= 128)
            #expect(
                streams.dropFirst().enumerated().allSatisfy { index, stream in
                    client.streams[stream]?.messages == [[UInt8((index + 1) % 256)]]
                })
        }
    }

    @Test func aBidirectionalStreamEchoesWithSendsFromAnotherThread() async throws {
        // given: a handler that answers each message, and the end, from a queue of its own
        final class Echo: GRPCStreamHandler {
            let stream: GRPCServerStream
            let queue = DispatchQueue(label: "echo")
            init(stream: GRPCServerStream) { self.stream = stream }
            func received(_ message: [UInt8]) {
                queue.async { [stream] in stream.send(parts: [Array("echo ".utf8), message]) }
            }
            func clientFinished() {
                queue.async { [stream] in stream.finish(GRPCStatus(.ok)) }
            }
            func cancelled() {}
        }
        let method = GRPCMethod.bidirectionalStreaming { _, stream in Echo(stream: stream) }
        try await withGRPCServer(methods: ["/test.Echo/Stream": method]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let stream = client.call("/test.Echo/Stream", endStream: false)

            // when
            client.send(Array("a".utf8), on: stream)
            client.pump { $0.streams[stream]?.messages.count == 1 }
            client.send(Array("b".utf8), on: stream)
            client.send(Array("c".utf8), on: stream, end: true)
            let response = client.response(stream)

            // then
            #expect(response.messages == ["echo a", "echo b", "echo c"].map { Array($0.utf8) })
            #expect(response.grpcStatus == 0)
            #expect(response.headerBlocks == 2)
        }
    }

    @Test func stopSaysGoAwayLetsTheCallInFlightFinishThenCloses() async throws {
        // given: a call in flight
        let started = Flag()
        let release = DispatchSemaphore(value: 0)
        let method = GRPCMethod.unary { call in
            started.set()
            _ = release.wait(timeout: .now() + HangGuard.eventSeconds)
            return .ok(call.message)
        }
        let server = HTTPServer(
            port: 0, responder: GRPCTestResponder(methods: ["/test.Slow/Unary": method]))
        try server.start()
        defer { server.stop() }
        let client = try HTTP2TestClient(port: server.port)
        let stream = client.call("/test.Slow/Unary", messages: [[42]])
        client.pump { _ in started.isSet }

        // when
        let stopped = Flag()
        Thread.detachNewThread {
            server.stop()
            stopped.set()
        }
        let sawGoAway = client.pump { $0.goAway != nil }
        release.signal()
        let response = client.response(stream)
        client.pump { $0.isClosed }

        // then
        #expect(sawGoAway)
        #expect(response.grpcStatus == 0)
        #expect(response.messages == [[42]])
        #expect(client.isClosed)
        #expect(await HangGuard.wait { stopped.isSet })
    }
}
