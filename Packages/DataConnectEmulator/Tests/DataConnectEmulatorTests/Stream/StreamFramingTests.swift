import DataConnectEmulator
import DataConnectWire
import Testing

/// RFC 6455 at the frame level against the live stream endpoint: fragments, control frames, the close handshake,
/// and every kind of bad frame, each answered with the right close code and never a crash.
@Suite(.on(.sqlite), .serialized, .timeLimit(.minutes(3)))  // WebSocket framing
struct StreamFramingTests {
    @Test func fragmentedTextIsReassembledAroundAnInterleavedPing() throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()
        let text = Array(RealtimeFixture.subscribe("1", "ListAuthors", first: true).jsonString().utf8)
        let third = text.count / 3

        // when: three fragments, a ping between the first two
        client.sendFrame(opcode: 1, payload: Array(text[..<third]), fin: false)
        client.sendFrame(opcode: 9, payload: Array("hello".utf8))
        client.sendFrame(opcode: 0, payload: Array(text[third..<(2 * third)]), fin: false)
        client.sendFrame(opcode: 0, payload: Array(text[(2 * third)...]))

        // then: the pong first, then the result
        let pong = try #require(client.readFrame())
        #expect(pong.opcode == 10)
        #expect(pong.text == "hello")
        #expect(client.nextResult()?["data"]?["authors"]?.arrayValue?.count == 2)
    }

    @Test func pongsAreIgnored() throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()

        // when
        client.sendFrame(opcode: 10, payload: Array("unsolicited".utf8))
        client.send(RealtimeFixture.subscribe("1", "ListAuthors", first: true))

        // then
        #expect(client.nextResult()?["requestId"] == "1")
    }

    @Test func theCloseHandshakeEchoesTheCodeAndEndsTheSubscriptions() async throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()
        client.send(RealtimeFixture.subscribe("1", "ListBooks", first: true))
        _ = try #require(client.nextResult())
        #expect(fixture.hub.subscriberCount == 1)

        // when
        client.sendFrame(opcode: 8, payload: [0x03, 0xE8] + Array("bye".utf8))

        // then
        #expect(client.closeCode() == 1000)
        #expect(client.endsStream())
        await fixture.hub.waitUntilSubscriberCount(is: 0)
    }

    @Test func aCloseWithoutCodeIsAnsweredWithoutCode() throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()

        // when
        client.sendFrame(opcode: 8, payload: [])

        // then
        let frame = try #require(client.readFrame())
        #expect(frame.opcode == 8)
        #expect(frame.payload.isEmpty)
        #expect(client.endsStream())
    }

    struct BadFrame: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let code: UInt16
        var testDescription: String { name }
    }

    static let badFrames: [BadFrame] = [
        BadFrame(
            name: "unmasked", bytes: WebSocketClient.frame(opcode: 1, payload: [0x7B, 0x7D], masked: false), code: 1002),
        BadFrame(
            name: "reserved bit", bytes: WebSocketClient.frame(opcode: 1, payload: [0x7B, 0x7D], reserved: 4),
            code: 1002),
        BadFrame(name: "opcode 3", bytes: WebSocketClient.frame(opcode: 3, payload: []), code: 1002),
        BadFrame(name: "opcode 11", bytes: WebSocketClient.frame(opcode: 11, payload: []), code: 1002),
        BadFrame(
            name: "fragmented ping", bytes: WebSocketClient.frame(opcode: 9, payload: [1], fin: false), code: 1002),
        BadFrame(
            name: "126-byte ping", bytes: WebSocketClient.frame(opcode: 9, payload: [UInt8](repeating: 0, count: 126)),
            code: 1002),
        BadFrame(name: "continuation first", bytes: WebSocketClient.frame(opcode: 0, payload: [0x7B]), code: 1002),
        BadFrame(
            name: "text inside a fragmented message",
            bytes: WebSocketClient.frame(opcode: 1, payload: [0x7B], fin: false)
                + WebSocketClient.frame(opcode: 1, payload: [0x7D]), code: 1002),
        BadFrame(name: "one-byte close", bytes: WebSocketClient.frame(opcode: 8, payload: [0x03]), code: 1002),
        BadFrame(name: "close code 1005", bytes: WebSocketClient.frame(opcode: 8, payload: [0x03, 0xED]), code: 1002),
        BadFrame(
            name: "invalid UTF-8", bytes: WebSocketClient.frame(opcode: 1, payload: [0x22, 0xC3, 0x28, 0x22]),
            code: 1007),
        BadFrame(
            name: "invalid UTF-8 across fragments",
            bytes: WebSocketClient.frame(opcode: 1, payload: [0x22, 0xE2, 0x82], fin: false)
                + WebSocketClient.frame(opcode: 0, payload: [0x41, 0x22]), code: 1007),
        BadFrame(
            name: "close reason not UTF-8", bytes: WebSocketClient.frame(opcode: 8, payload: [0x03, 0xE8, 0xFF]),
            code: 1007),
        BadFrame(
            name: "a message over 1 MiB",
            bytes: WebSocketClient.frame(opcode: 1, payload: [], announcedLength: (1 << 20) + 1), code: 1009),
        BadFrame(
            name: "fragments over 1 MiB",
            bytes: WebSocketClient.frame(opcode: 2, payload: [UInt8](repeating: 0x61, count: 1 << 19), fin: false)
                + WebSocketClient.frame(opcode: 0, payload: [UInt8](repeating: 0x61, count: (1 << 19) + 1)),
            code: 1009),
    ]

    @Test(arguments: badFrames) func badFramesCloseTheConnectionWithTheirCode(_ bad: BadFrame) throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()

        // when
        client.sendRaw(bad.bytes)

        // then: the close code, the end of the connection, and an emulator that goes on serving
        #expect(client.closeCode() == bad.code)
        #expect(client.endsStream())
        let next = try fixture.openStream()
        next.send(RealtimeFixture.subscribe("1", "ListAuthors", first: true))
        #expect(next.nextResult()?["requestId"] == "1")
    }

    @Test func theServerPingsEachIntervalAndClosesWhenAPongIsMissed() throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()
        client.send(RealtimeFixture.subscribe("1", "ListAuthors", first: true))
        _ = try #require(client.nextResult())

        // when: a heartbeat, answered
        fixture.clock.advance(by: fixture.hub.configuration.heartbeatInterval)
        let ping = try #require(client.readFrame())
        #expect(ping.opcode == 9)
        client.sendFrame(opcode: 10, payload: ping.payload)
        // the pong is read before the next heartbeat: a request sent after it is answered after it
        client.send(RealtimeFixture.execute("2", "ListAuthors"))
        #expect(client.nextResult()?["requestId"] == "2")
        fixture.clock.advance(by: fixture.hub.configuration.heartbeatInterval)
        #expect(client.readFrame()?.opcode == 9)

        // when: that ping goes unanswered for an interval
        fixture.clock.advance(by: fixture.hub.configuration.heartbeatInterval)

        // then
        #expect(client.closeCode() == 1001)
    }

    @Test func stoppingClosesOpenSocketsWithGoingAway() async throws {
        // given: three sockets with live subscriptions
        let fixture = try RealtimeFixture()
        var clients: [WebSocketClient] = []
        for _ in 0..<3 {
            let client = try fixture.openStream()
            client.send(RealtimeFixture.subscribe("1", "ListBooks", first: true))
            _ = try #require(client.nextResult())
            clients.append(client)
        }

        // when
        fixture.emulator.stop()

        // then: each subscription ends with cancelled, then the socket with 1001
        for client in clients {
            let last = try #require(client.nextResult())
            #expect(last["cancelled"] == .bool(true))
            #expect(client.closeCode() == 1001)
            #expect(client.endsStream())
        }
    }
}
