import DataConnectEncoding
import EmulatorHTTP
import Testing

/// A WebSocket upgrade and an echoed message under every libmicrohttpd polling mode the server can run in, so the
/// handover of upgraded sockets does not depend on the mode.
@Suite struct WebSocketPollingModeTests {
    /// Sends each text message back.
    final class Echo: WebSocketHandler {
        func webSocketDidOpen(_ connection: WebSocketConnection) {}
        func webSocket(_ connection: WebSocketConnection, didReceive message: WebSocketMessage) {
            _ = connection.send(message)
        }
        func webSocketDidClose(_ connection: WebSocketConnection, code: WebSocketCloseCode) {}
    }

    /// A masked client text frame.
    static func maskedTextFrame(_ text: String) -> [UInt8] {
        WebSocketFrame.encode(.text, payload: Array(text.utf8), maskingKey: WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D))
    }

    @Test(arguments: HTTP1Implementation.allCases, [(1, true), (1, false), (3, true), (2, false)])
    func upgradesAndEchoesInEveryPollingMode(
        _ http1: HTTP1Implementation, _ mode: (threads: Int, epoll: Bool)
    ) async throws {
        // given
        let (threads, epoll) = mode
        let configuration = HTTPServer.Configuration(threadPoolSize: threads, usesEpoll: epoll)
        try await withServer(
            http1,
            configuration: configuration,
            respond: { request in .webSocket(for: request, handler: Echo()) }
        ) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send(
                "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            let head = try connection.readHead()
            try connection.send(Self.maskedTextFrame("hello"))
            let echoed = try connection.readBytes(2 + 5)

            // then: the RFC 6455 example accept value, then the message back, unmasked
            #expect(head.status == 101)
            #expect(head.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
            #expect(echoed == [0x81, 0x05] + Array("hello".utf8))
        }
    }
}
