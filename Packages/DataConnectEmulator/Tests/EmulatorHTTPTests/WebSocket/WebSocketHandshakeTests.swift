import DataConnectEncoding
import Testing

@testable import EmulatorHTTP

/// The server's side of the opening handshake: which requests become WebSockets, and the 101 that answers them.
/// (SHA-1, base64 and the accept value itself are tested with their vectors in DataConnectKit's
/// DataConnectEncodingTests.)
@Suite struct WebSocketHandshakeTests {
    @Test func aValidHandshakeIsAcceptedWithTokensInAnyCase() {
        let request = HTTPRequest(
            method: .get, path: "/ws",
            headers: [
                "Upgrade": "WebSocket", "Connection": "keep-alive, Upgrade", "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            ])
        guard case .accept(let accept) = WebSocketHandshake.check(request) else {
            Issue.record("refused")
            return
        }
        #expect(accept == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let response = HTTPResponse.webSocket(for: request, handler: Silent())
        #expect(response.status.code == 101)
        #expect(response.headers["sec-websocket-accept"] == accept)
    }

    @Test(arguments: ["dGhlIHNhbXBsZSBub25jZQ", "c2hvcnQ=", "dGhlIHNhbXBsZSBub25jZR==", "dGhlIHNhbXBsZ-1ub25jZQ=="])
    func aKeyThatIsNotSixteenBytesInBase64IsRefused(_ key: String) {
        // given
        let request = HTTPRequest(
            method: .get, path: "/ws",
            headers: [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": key,
            ])

        // when / then
        guard case .refuse(let response) = WebSocketHandshake.check(request) else {
            Issue.record("accepted \(key)")
            return
        }
        #expect(response.status.code == 400)
    }

    final class Silent: WebSocketHandler {
        func webSocketDidOpen(_ connection: WebSocketConnection) {}
        func webSocket(_ connection: WebSocketConnection, didReceive message: WebSocketMessage) {}
        func webSocketDidClose(_ connection: WebSocketConnection, code: WebSocketCloseCode) {}
    }
}
