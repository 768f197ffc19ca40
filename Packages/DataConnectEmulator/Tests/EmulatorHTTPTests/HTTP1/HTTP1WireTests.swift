import DataConnectTestSupport
import Dispatch
import Foundation
import Testing

@testable import EmulatorHTTP

#if canImport(Glibc)
import Glibc
#endif

/// What reaches the HTTP/1.1 side over the wire, well formed or hostile: requests in many small pieces, many
/// pipelined requests, `Expect: 100-continue`, and input meant to exhaust or confuse it. Each hostile exchange gets an
/// answer or a close, never a crash or a hang, and the server goes on serving.
@Suite struct HTTP1WireTests {
    /// Sends `bytes` in pieces of `size`.
    static func sendInPieces(_ bytes: [UInt8], size: Int, on connection: RawHTTPConnection) throws {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            try connection.send(Array(bytes[offset..<end]))
            offset = end
        }
    }

    static func expectStillServing(_ server: HTTPServer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("GET /alive HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().status == 200, sourceLocation: sourceLocation)
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aRequestArrivingInManySmallPiecesIsServed(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        let body = (0..<3_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            let connection = try RawHTTPConnection(port: server.port)
            let head = Array("POST /pieces HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
            var chunked = Array("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            for start in stride(from: 0, to: body.count, by: 700) {
                let piece = body[start..<min(body.count, start + 700)]
                chunked += Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8)
            }
            chunked += Array("0\r\n\r\n".utf8)

            // when: the head in 3-byte pieces and the body byte by byte, then a chunked body byte by byte
            try Self.sendInPieces(head, size: 3, on: connection)
            try Self.sendInPieces(body, size: 1, on: connection)
            let first = try connection.readResponse()
            try Self.sendInPieces(chunked, size: 1, on: connection)
            let second = try connection.readResponse()

            // then
            #expect(first.body == body)
            #expect(second.body == body)
            #expect(recorder.requests.map(\.path) == ["/pieces", "/chunked"])
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aHundredPipelinedRequestsInOneWriteAreAnsweredInOrder(_ http1: HTTP1Implementation) async throws {
        // given
        try await withServer(http1, respond: { .json($0.body) }) { server in
            let connection = try RawHTTPConnection(port: server.port)
            var requests = ""
            for index in 0..<100 {
                let body = #"{"n":\#(index)}"#
                requests +=
                    index.isMultiple(of: 2)
                    ? "POST /n HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    : "POST /n HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "\(String(body.utf8.count, radix: 16))\r\n\(body)\r\n0\r\n\r\n"
            }

            // when
            try connection.send(requests)
            let answers = try (0..<100).map { _ in try connection.readResponse().text }

            // then
            #expect(answers == (0..<100).map { #"{"n":\#($0)}"# })
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aClientExpecting100ContinueSendsItsBodyAfterIt(_ http1: HTTP1Implementation) async throws {
        // given
        try await withServer(http1, respond: { .json($0.body) }) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when: the head alone, then the body once 100 Continue is in
            try connection.send("POST /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 7\r\n\r\n")
            let interim = try connection.readHead()
            try connection.send(#"{"e":1}"#)
            let final = try connection.readResponse()

            // then
            #expect(interim.status == 100)
            #expect(final.status == 200)
            #expect(final.text == #"{"e":1}"#)
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aBodyOverTheLimitIsRefusedWithout100Continue(_ http1: HTTP1Implementation) async throws {
        // given
        try await withServer(http1, respond: { .json($0.body) }) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send(
                "POST /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 99999999\r\n\r\n")
            let answer = try connection.readResponse()

            // then
            #expect(answer.status == 413)
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func stopLetsTheRequestInFlightFinishThenCloses(_ http1: HTTP1Implementation) async throws {
        // given: a request in flight, and an idle kept-alive connection; a grace period the request cannot outlast
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var configuration = HTTPServer.Configuration().serving(http1)
        configuration.stopGracePeriod = HangGuard.event
        let stopBegan = DispatchSemaphore(value: 0)
        configuration.stopBegan = { stopBegan.signal() }
        let server = HTTPServer(
            port: 0, configuration: configuration,
            respond: { request in
                guard request.path == "/slow" else { return .text("idle") }
                started.signal()
                _ = release.wait(timeout: .now() + HangGuard.eventSeconds)
                return .text("finished")
            })
        try server.start()
        let idle = try RawHTTPConnection(port: server.port)
        try idle.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try idle.readResponse()
        let busy = try RawHTTPConnection(port: server.port)
        try busy.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        try #require(started.wait(timeout: .now() + HangGuard.eventSeconds) == .success)

        // when: the server stops, and the request ends within the grace period
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        try #require(stopBegan.wait(timeout: .now() + HangGuard.eventSeconds) == .success)
        if http1 == .native {
            // the native side closes idle connections as soon as it stops (libmicrohttpd once the grace is over)
            #expect(idle.isClosedByServer())
        }
        release.signal()
        let answer = try busy.readResponse()

        // then: the answer went out, then every connection closed
        #expect(answer.text == "finished")
        #expect(busy.isClosedByServer())
        #expect(idle.isClosedByServer())
        #expect(stopped.wait(timeout: .now() + HangGuard.eventSeconds) == .success)
    }

    // MARK: Hostile input

    @Test func tenThousandHeaderFieldsOverTheSizeLimitGet431() async throws {
        try await withServer(.native, respond: { _ in .text("ok") }) { server in
            // given: 10,000 fields of about 20 bytes, 200 KB
            let fields = (0..<10_000).map { "X-Field-\($0): value\r\n" }.joined()
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try? connection.send("GET / HTTP/1.1\r\nHost: x\r\n" + fields + "\r\n")
            let answer = try connection.readResponse()

            // then
            #expect(answer.status == 431)
            #expect(answer.headers["Content-Type"] == "application/json")
            try Self.expectStillServing(server)
        }
    }

    @Test func tenThousandSmallHeaderFieldsWithinTheLimitReachTheResponder() async throws {
        let recorder = RequestRecorder()
        try await withServer(.native, respond: echoResponder(recorder: recorder)) { server in
            // given: 10,000 fields of 5 bytes, 50 KB
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "a:b\r\n", count: 10_000) + "\r\n")
            let answer = try connection.readResponse()

            // then
            #expect(answer.status == 200)
            #expect(recorder.requests.first?.headers.count == 10_001)
        }
    }

    @Test func anEndlessHeaderLineIsRefusedWhileItIsStillComing() async throws {
        try await withServer(.native, respond: { _ in .text("ok") }) { server in
            // given
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\nX-Endless: ")

            // when: the line goes on, 4 KiB at a time, past twice the header limit
            let piece = [UInt8](repeating: UInt8(ascii: "e"), count: 4_096)
            for _ in 0..<48 { try connection.send(piece) }
            let answer = try connection.readResponse()

            // then: refused, with what was received by then, and the line still unfinished
            #expect(answer.status == 431)
            #expect(answer.text.contains("request header fields exceed 81920 bytes"))
            try Self.expectStillServing(server)
        }
    }

    @Test func aConnectionThatSendsHalfARequestAndStopsIsClosedAtTheIdleTimeout() async throws {
        // given: a one-second idle timeout
        let configuration = HTTPServer.Configuration(connectionTimeout: .seconds(1))
        try await withServer(.native, configuration: configuration, respond: { _ in .text("ok") }) { server in
            let half = try RawHTTPConnection(port: server.port)
            try half.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nfive.")

            // when: another connection is served meanwhile
            try Self.expectStillServing(server)

            // then: the half request's connection is closed without an answer
            #expect(half.readToEnd().isEmpty)
        }
    }

    @Test(arguments: [
        ("binary garbage", "\u{0}\u{1}\u{2}\u{3}\r\n\r\n", 400),
        ("a header line without a colon", "GET / HTTP/1.1\r\nHost: x\r\nwhat is this\r\n\r\n", 400),
        (
            "Content-Length with chunked",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400
        ),
        ("a negative Content-Length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        (
            "an overflowing Content-Length",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            413
        ),
        (
            "an overflowing chunk size",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n", 413
        ),
    ])
    func hostileInputGetsAJSONRefusalAndAClose(name: String, request: String, status: Int) async throws {
        let recorder = RequestRecorder()
        try await withServer(.native, respond: echoResponder(recorder: recorder)) { server in
            // given
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try? connection.send(request)
            let answer = try connection.readResponse()

            // then
            #expect(answer.status == status, "\(name)")
            #expect(answer.text.hasPrefix(#"{"error":{"code":\#(status),"#), "\(name)")
            #expect(connection.isClosedByServer(), "\(name)")
            #expect(recorder.requests.isEmpty, "\(name)")
            try Self.expectStillServing(server)
        }
    }

    @Test func connectionsOverTheLimitAreClosedUnanswered() async throws {
        // given: room for two connections
        let configuration = HTTPServer.Configuration(connectionLimit: 2)
        try await withServer(.native, configuration: configuration, respond: { _ in .text("ok") }) { server in
            let first = try RawHTTPConnection(port: server.port)
            let second = try RawHTTPConnection(port: server.port)
            for connection in [first, second] {
                try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try connection.readResponse()
            }

            // when
            let third = try RawHTTPConnection(port: server.port)
            try? third.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")

            // then
            #expect(third.readToEnd().isEmpty)
            try first.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try first.readResponse().text == "ok")
        }
    }
}
