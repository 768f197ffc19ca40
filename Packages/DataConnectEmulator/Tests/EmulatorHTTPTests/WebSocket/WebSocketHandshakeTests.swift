import Testing

@testable import EmulatorHTTP

/// SHA-1, base64 and the accept value of the opening handshake, against published vectors.
@Suite struct WebSocketHandshakeTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        ),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
    ])
    func sha1MatchesTheStandardVectors(_ input: String, _ digest: String) {
        #expect(Self.hex(SHA1.hash(Array(input.utf8))) == digest)
    }

    @Test func sha1OfAMillionAs() {
        #expect(
            Self.hex(SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
    ])
    func base64RoundTripsTheRFC4648Vectors(_ plain: String, _ encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test(arguments: ["Zg=", "Zh==", "Z===", "Zm9v!A==", "Zg==Zg==", "=Zg="])
    func base64RefusesMalformedText(_ text: String) {
        #expect(Base64.decode(text) == nil)
    }

    @Test func acceptValueIsTheRFCExample() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

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

    final class Silent: WebSocketHandler {
        func webSocketDidOpen(_ connection: WebSocketConnection) {}
        func webSocket(_ connection: WebSocketConnection, didReceive message: WebSocketMessage) {}
        func webSocketDidClose(_ connection: WebSocketConnection, code: WebSocketCloseCode) {}
    }
}
