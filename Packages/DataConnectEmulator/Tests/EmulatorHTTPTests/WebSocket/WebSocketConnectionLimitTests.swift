import DataConnectEncoding
import EmulatorHTTP
import Testing

/// An upgraded connection leaves libmicrohttpd (which frees its memory pool) and counts against the WebSocket limit
/// instead: with `connectionLimit` 1, one open WebSocket leaves room for a plain request, and a second upgrade is
/// answered with 503.
@Suite struct WebSocketConnectionLimitTests {
    /// Sends each text message back.
    final class Echo: WebSocketHandler {
        func webSocketDidOpen(_ connection: WebSocketConnection) {}
        func webSocket(_ connection: WebSocketConnection, didReceive message: WebSocketMessage) {
            _ = connection.send(message)
        }
        func webSocketDidClose(_ connection: WebSocketConnection, code: WebSocketCloseCode) {}
    }

    static let upgrade =
        "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    /// Sends `request` on a new connection and reads the response head, retrying while libmicrohttpd, which frees
    /// the upgraded connection on its own thread, still counts it (it then closes new connections unanswered).
    static func firstAnswer(port: UInt16, to request: String) throws -> RawHTTPResponse? {
        for _ in 0..<1_000 {
            let connection = try RawHTTPConnection(port: port)
            try connection.send(request)
            if let head = try? connection.readHead() { return head }
        }
        return nil
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func anOpenWebSocketCountsAgainstTheWebSocketLimitOnly(_ http1: HTTP1Implementation) async throws {
        // given: a single worker admitting one connection, and one WebSocket open
        let configuration = HTTPServer.Configuration(threadPoolSize: 1, connectionLimit: 1)
        try await withServer(
            http1,
            configuration: configuration,
            respond: { request in
                request.headers.values(for: "upgrade").isEmpty
                    ? .text("plain") : .webSocket(for: request, handler: Echo())
            }
        ) { server in
            let webSocket = try RawHTTPConnection(port: server.port)
            try webSocket.send(Self.upgrade)
            let opened = try webSocket.readHead()
            try webSocket.send(WebSocketPollingModeTests.maskedTextFrame("hi"))
            let echoed = try webSocket.readBytes(2 + 2)

            // when
            let plain = try Self.firstAnswer(port: server.port, to: "GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
            let second = try Self.firstAnswer(port: server.port, to: Self.upgrade)

            // then
            #expect(opened.status == 101)
            #expect(echoed == [0x81, 0x02] + Array("hi".utf8))
            #expect(plain?.status == 200)
            #expect(second?.status == 503)
        }
    }
}
