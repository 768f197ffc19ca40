import DataConnectEmulator
import DataConnectWire
import Testing

/// The opening handshake of the stream endpoint, every path form a released SDK connects to, and the Host and
/// Origin rules it shares with REST.
@Suite(.on(.sqlite), .serialized, .timeLimit(.minutes(3)))  // the WebSocket handshake
struct StreamHandshakeTests {
    @Test func handshakeAnswers101WithTheAcceptKey() throws {
        // given
        let fixture = try RealtimeFixture()

        // when
        let client = try WebSocketClient(port: fixture.emulator.port, path: RealtimeFixture.streamPath)

        // then: RFC 6455's own example key and answer
        #expect(client.status == 101)
        #expect(client.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(client.headers["upgrade"]?.lowercased() == "websocket")
        #expect(client.headers["connection"]?.lowercased().contains("upgrade") == true)
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        let name: String
        let method: String
        let path: String
        let headers: [(String, String)]
        let status: Int
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = {
        let path = RealtimeFixture.streamPath
        let standard = WebSocketClient.standardHeaders()
        func without(_ name: String) -> [(String, String)] { standard.filter { $0.0 != name } }
        func replacing(_ name: String, _ value: String) -> [(String, String)] {
            standard.map { $0.0 == name ? ($0.0, value) : $0 }
        }
        return [
            Refusal(name: "no Upgrade", method: "GET", path: path, headers: without("Upgrade"), status: 426),
            Refusal(name: "Upgrade: h2c", method: "GET", path: path, headers: replacing("Upgrade", "h2c"), status: 426),
            Refusal(
                name: "version 8", method: "GET", path: path, headers: replacing("Sec-WebSocket-Version", "8"),
                status: 426),
            Refusal(
                name: "Connection: keep-alive", method: "GET", path: path,
                headers: replacing("Connection", "keep-alive"), status: 400),
            Refusal(name: "no key", method: "GET", path: path, headers: without("Sec-WebSocket-Key"), status: 400),
            Refusal(
                name: "short key", method: "GET", path: path, headers: replacing("Sec-WebSocket-Key", "c2hvcnQ="),
                status: 400),
            Refusal(name: "POST", method: "POST", path: path, headers: standard, status: 400),
            Refusal(
                name: "unknown path form", method: "GET",
                path: "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/services/shop",
                headers: standard, status: 404),
            Refusal(
                name: "another service", method: "GET",
                path: "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/zoo",
                headers: standard, status: 404),
        ]
    }()

    @Test(arguments: refusals) func refusedHandshakesGetAnErrorAndNoUpgrade(_ refusal: Refusal) throws {
        // given
        let fixture = try RealtimeFixture()

        // when
        let client = try WebSocketClient(
            port: fixture.emulator.port, path: refusal.path, method: refusal.method, headers: refusal.headers)

        // then
        #expect(client.status == refusal.status)
        #expect(client.headers["sec-websocket-accept"] == nil)
        let body = try JSONValue(parsing: client.body)
        #expect(body["error"]?["code"]?.intValue == refusal.status)
        if refusal.status == 426 {
            #expect(client.headers["sec-websocket-version"] == "13")
        }
    }

    @Test func aForeignOriginIsRefusedBeforeTheUpgrade() throws {
        // given
        let fixture = try RealtimeFixture()

        // when
        let foreign = try WebSocketClient(
            port: fixture.emulator.port, path: RealtimeFixture.streamPath,
            headers: WebSocketClient.standardHeaders(extra: [("Origin", "https://evil.example")]))
        let local = try WebSocketClient(
            port: fixture.emulator.port, path: RealtimeFixture.streamPath,
            headers: WebSocketClient.standardHeaders(extra: [("Origin", "http://localhost:5173")]))

        // then
        #expect(foreign.status == 403)
        #expect(try JSONValue(parsing: foreign.body)["error"]?["status"] == "PERMISSION_DENIED")
        #expect(local.status == 101)
    }

    @Test func aForeignHostIsRefused() throws {
        // given
        let fixture = try RealtimeFixture()
        let headers = WebSocketClient.standardHeaders().map { $0.0 == "Host" ? ("Host", "attacker.example") : $0 }

        // when
        let client = try WebSocketClient(
            port: fixture.emulator.port, path: RealtimeFixture.streamPath, headers: headers)

        // then
        #expect(client.status == 403)
    }

    static let pathForms = [
        // The JS SDK, and the Flutter SDK's current transport.
        "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/shop",
        // The Flutter SDK's first WebSocket transport and the JS SDK's first builds.
        "/ws/google.firebase.dataconnect.v1.ConnectorStreamService/Connect/locations/us-central1",
    ]

    @Test(arguments: pathForms) func everyReleasedPathFormServesTheStream(_ path: String) throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream(path: path)

        // when
        client.send(RealtimeFixture.subscribe("1", "ListAuthors", first: true))

        // then
        let result = try #require(client.nextResult())
        #expect(result["requestId"] == "1")
        #expect(result["data"]?["authors"]?.arrayValue?.count == 2)
    }
}
