import DataConnectEncoding
import DataConnectTestSupport
import EmulatorHTTP
import Testing

/// One port, both protocols: HTTP/1.1 and WebSocket upgrades as before, HTTP/2 for connections that open with the
/// client preface; and what hostile HTTP/2 clients get (a GOAWAY, a reset or a status, never a crash: the server
/// serves the next connection).
@Suite struct HTTP2ConnectionTests {
    /// A GOAWAY frame's type.
    static let goAway: UInt8 = 7
    static let rstStream: UInt8 = 3
    static let headers: UInt8 = 1
    static let settings: UInt8 = 4

    /// Whether a unary call on a new connection is answered: the server is still up.
    static func servesAnotherCall(port: UInt16) throws -> Bool {
        let client = try HTTP2TestClient(port: port)
        return client.response(client.call("/test.Echo/Unary", messages: [[9]])).messages == [[9]]
    }

    /// Sends `bytes` on a new raw connection and reads until the server closes it (or the hang guard passes).
    static func exchangeRaw(port: UInt16, _ bytes: [UInt8]) throws -> [UInt8] {
        let connection = try LoopbackConnection(port: Int(port))
        try? connection.send(bytes)
        var received: [UInt8] = []
        while case .bytes(let more) = connection.receive() { received += more }
        return received
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func http1AndWebSocketAreStillServedBesideHTTP2(_ http1: HTTP1Implementation) async throws {
        final class Echo: WebSocketHandler {
            func webSocketDidOpen(_ connection: WebSocketConnection) {}
            func webSocket(_ connection: WebSocketConnection, didReceive message: WebSocketMessage) {
                _ = connection.send(message)
            }
            func webSocketDidClose(_ connection: WebSocketConnection, code: WebSocketCloseCode) {}
        }
        struct Both: HTTPResponder, GRPCService {
            func respond(to request: HTTPRequest) -> HTTPResponse {
                request.headers.values(for: "upgrade").isEmpty
                    ? .text("plain") : .webSocket(for: request, handler: Echo())
            }
            var grpcService: (any GRPCService)? { self }
            func method(for path: String) -> GRPCMethod? { unaryEcho }
        }
        let server = HTTPServer(port: 0, configuration: HTTPServer.Configuration().serving(http1), responder: Both())
        try server.start()
        defer { server.stop() }

        let http1 = try RawHTTPConnection(port: server.port)
        try http1.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
        let plain = try http1.readResponse()
        let webSocket = try RawHTTPConnection(port: server.port)
        try webSocket.send(WebSocketConnectionLimitTests.upgrade)
        let upgraded = try webSocket.readHead()
        try webSocket.send(WebSocketPollingModeTests.maskedTextFrame("hi"))
        let echoed = try webSocket.readBytes(4)
        let http2 = try Self.servesAnotherCall(port: server.port)

        #expect(plain.status == 200)
        #expect(plain.text == "plain")
        #expect(upgraded.status == 101)
        #expect(echoed == [0x81, 0x02] + Array("hi".utf8))
        #expect(http2)
        #expect(server.grpcStatistics.http2Connections <= 1)
    }

    @Test func aPrefaceArrivingInPiecesIsRecognized() async throws {
        try await withGRPCServer(methods: ["/test.Echo/Unary": unaryEcho]) { server in
            let client = try HTTP2TestClient(port: server.port, splitPreface: true)

            let response = client.response(client.call("/test.Echo/Unary", messages: [[5]]))

            #expect(response.messages == [[5]])
            #expect(response.grpcStatus == 0)
        }
    }

    @Test func aBadPrefaceGetsAStatusOrGoAway() async throws {
        try await withGRPCServer(methods: ["/test.Echo/Unary": unaryEcho]) { server in
            // Differs from the preface at byte 18: not HTTP/2, so libmicrohttpd answers it as HTTP/1.
            let almost = try Self.exchangeRaw(
                port: server.port, Array("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n".utf8) + [UInt8](repeating: 0x41, count: 40))
            // The whole preface, then garbage where SETTINGS belongs.
            let garbage = try Self.exchangeRaw(
                port: server.port, RawFrames.preface + [UInt8](repeating: 0xFF, count: 64))

            #expect(String(decoding: almost.prefix(9), as: UTF8.self).hasPrefix("HTTP/1.") || almost.isEmpty)
            #expect(RawFrames.types(in: garbage).contains(Self.goAway))
            #expect(try Self.servesAnotherCall(port: server.port))
        }
    }

    @Test func dataOnAClosedStreamGetsGoAwayOrReset() async throws {
        try await withGRPCServer(methods: ["/test.Echo/Unary": unaryEcho]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let stream = client.call("/test.Echo/Unary", messages: [[1]])
            _ = client.response(stream)

            try client.sendRaw(RawFrames.frame(type: 0, stream: UInt32(stream), HTTP2TestClient.frame([1, 2, 3])))
            client.pump { $0.goAway != nil || $0.isClosed }

            #expect(client.goAway != nil)
            #expect(try Self.servesAnotherCall(port: server.port))
        }
    }

    @Test func aHugeHeadersBlockIsRefused() async throws {
        try await withGRPCServer(methods: ["/test.Echo/Unary": unaryEcho]) { server in
            // 1 MiB of header fields: a HEADERS frame and CONTINUATION frames of 16 KiB.
            var block =
                RawFrames.literal(":method", "POST") + RawFrames.literal(":scheme", "http")
                + RawFrames.literal(":path", "/test.Echo/Unary") + RawFrames.literal(":authority", "x")
                + RawFrames.literal("content-type", "application/grpc")
            var index = 0
            while block.count < 1 << 20 {
                block += RawFrames.literal("x-filler-\(index)", String(repeating: "v", count: 4_000))
                index += 1
            }
            var bytes = RawFrames.preface + RawFrames.frame(type: Self.settings)
            var offset = 0
            while offset < block.count {
                let end = min(block.count, offset + 16_384)
                let type: UInt8 = offset == 0 ? Self.headers : 9
                let flags: UInt8 = end == block.count ? 0x4 : 0
                bytes += RawFrames.frame(type: type, flags: flags, stream: 1, Array(block[offset..<end]))
                offset = end
            }

            let received = try Self.exchangeRaw(port: server.port, bytes)

            let types = RawFrames.types(in: received)
            #expect(types.contains(Self.goAway) || types.contains(Self.rstStream) || types.contains(Self.headers))
            #expect(try Self.servesAnotherCall(port: server.port))
        }
    }

    @Test func aHeaderListOverTheLimitIsResourceExhausted() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.maximumHeaderSize = 4_096
        try await withGRPCServer(configuration: configuration, methods: ["/test.Echo/Unary": unaryEcho]) { server in
            let client = try HTTP2TestClient(port: server.port)

            let response = client.response(
                client.call(
                    "/test.Echo/Unary", metadata: [("x-big", String(repeating: "b", count: 5_000))], messages: [[1]]))

            #expect(
                response.grpcStatus == GRPCStatus.Code.resourceExhausted.rawValue || response.closeError != 0)
            #expect(try Self.servesAnotherCall(port: server.port))
        }
    }

    @Test func aSettingsFloodGetsGoAway() async throws {
        try await withGRPCServer(methods: ["/test.Echo/Unary": unaryEcho]) { server in
            var bytes = RawFrames.preface
            for _ in 0..<10_000 { bytes += RawFrames.frame(type: Self.settings) }

            let received = try Self.exchangeRaw(port: server.port, bytes)

            #expect(RawFrames.types(in: received).contains(Self.goAway))
            #expect(try Self.servesAnotherCall(port: server.port))
        }
    }

    @Test func aStreamLeftOpenPastTheIdleTimeoutIsEnded() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.connectionTimeout = .seconds(1)
        try await withGRPCServer(configuration: configuration, methods: ["/test.Echo/Unary": unaryEcho]) { server in
            let client = try HTTP2TestClient(port: server.port)

            let response = client.response(client.call("/test.Echo/Unary", messages: [[1]], endStream: false))

            #expect(response.grpcStatus == GRPCStatus.Code.cancelled.rawValue)
            #expect(try Self.servesAnotherCall(port: server.port))
        }
    }

    @Test func anIdleConnectionGetsGoAwayAfterTheTimeout() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.connectionTimeout = .seconds(1)
        try await withGRPCServer(configuration: configuration, methods: ["/test.Echo/Unary": unaryEcho]) { server in
            let client = try HTTP2TestClient(port: server.port)

            client.pump { $0.isClosed }

            #expect(client.goAway?.errorCode == 0)
            #expect(await HangGuard.wait { server.grpcStatistics.http2Connections == 0 })
        }
    }
}
