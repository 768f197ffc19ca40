import DataConnectEncoding
import Testing

/// The frame parser on byte sequences: masking, lengths, fragments, control frames and every violation.
@Suite struct WebSocketFrameParserTests {
    /// A frame from a client (masked unless told) with any opcode and header bits.
    static func frame(
        _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, reserved: UInt8 = 0
    ) -> [UInt8] {
        let key = masked ? WebSocketMaskingKey(1, 2, 3, 4) : nil
        var bytes: [UInt8] = []
        WebSocketFrameHeader(
            opcodeBits: opcode, payloadLength: UInt64(payload.count), isFinal: fin, reservedBits: reserved,
            maskingKey: key
        ).append(to: &bytes)
        var masked = payload
        key?.apply(to: &masked)
        return bytes + masked
    }

    @Test func aMaskedTextFrameArrivingByteByByteIsOneMessage() {
        var parser = WebSocketFrameParser(maximumMessageSize: 1 << 20)
        var events: [WebSocketFrameParser.Event] = []
        for byte in Self.frame(1, Array("héllo".utf8)) { events += parser.consume([byte]) }
        #expect(events == [.message(.text("héllo"))])
    }

    @Test(arguments: [0, 125, 126, 65_535, 65_536, 200_000])
    func payloadLengthsOfEveryEncodingAreRead(_ count: Int) {
        var parser = WebSocketFrameParser(maximumMessageSize: 1 << 20)
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
        #expect(parser.consume(Self.frame(2, payload)) == [.message(.binary(payload))])
    }

    @Test func fragmentsAreJoinedAndControlFramesPassBetweenThem() {
        var parser = WebSocketFrameParser(maximumMessageSize: 1 << 20)
        let bytes =
            Self.frame(1, Array("ab".utf8), fin: false) + Self.frame(9, [7])
            + Self.frame(0, Array("cd".utf8), fin: false)
            + Self.frame(10, []) + Self.frame(0, Array("e".utf8))
        #expect(parser.consume(bytes) == [.ping([7]), .pong, .message(.text("abcde"))])
    }

    @Test func aCloseFrameCarriesItsCodeAndReason() {
        var parser = WebSocketFrameParser(maximumMessageSize: 1 << 20)
        #expect(parser.consume(Self.frame(8, [0x03, 0xE8] + Array("bye".utf8))) == [.close(.normal, "bye")])
        var empty = WebSocketFrameParser(maximumMessageSize: 1 << 20)
        #expect(empty.consume(Self.frame(8, [])) == [.close(nil, "")])
    }

    @Test(arguments: [
        ("unmasked", frame(1, [0x41], masked: false), WebSocketCloseCode.protocolError),
        ("reserved bits", frame(1, [0x41], reserved: 2), .protocolError),
        ("opcode 7", frame(7, []), .protocolError),
        ("fragmented close", frame(8, [], fin: false), .protocolError),
        ("long pong", frame(10, [UInt8](repeating: 0, count: 126)), .protocolError),
        ("stray continuation", frame(0, [0x41]), .protocolError),
        ("interrupted message", frame(2, [1], fin: false) + frame(2, [2]), .protocolError),
        ("one-byte close", frame(8, [3]), .protocolError),
        ("close code 999", frame(8, [0x03, 0xE7]), .protocolError),
        ("close code 1006", frame(8, [0x03, 0xEE]), .protocolError),
        ("close code 2000", frame(8, [0x07, 0xD0]), .protocolError),
        ("invalid UTF-8", frame(1, [0xC0, 0xAF]), .invalidPayload),
        ("surrogate in UTF-8", frame(1, [0xED, 0xA0, 0x80]), .invalidPayload),
        ("close reason not UTF-8", frame(8, [0x03, 0xE8, 0xFE]), .invalidPayload),
        ("too big", frame(2, [UInt8](repeating: 0, count: 101)), .messageTooBig),
        (
            "too big in fragments",
            frame(2, [UInt8](repeating: 0, count: 60), fin: false) + frame(0, [UInt8](repeating: 0, count: 41)),
            .messageTooBig
        ),
    ])
    func violationsFailWithTheirCode(_ name: String, _ bytes: [UInt8], _ code: WebSocketCloseCode) {
        var parser = WebSocketFrameParser(maximumMessageSize: 100)
        let events = parser.consume(bytes)
        guard case .failure(let failed, _)? = events.last else {
            Issue.record("\(name): no failure in \(events)")
            return
        }
        #expect(failed == code, "\(name)")
        #expect(parser.hasFailed)
        #expect(parser.consume(Self.frame(1, [0x41])).isEmpty)
    }

    @Test func aTooBigMessageFailsFromItsHeaderAlone() {
        var parser = WebSocketFrameParser(maximumMessageSize: 1 << 20)
        let header: [UInt8] = [0x81, 0xFF, 0, 0, 0, 0, 0, 0x10, 0, 1]
        let events = parser.consume(header)
        guard case .failure(let code, _)? = events.first else {
            Issue.record("no failure in \(events)")
            return
        }
        #expect(code == .messageTooBig)
    }

    @Test func aViolationInTheFirstTwoBytesFailsBeforeTheRestArrives() {
        // given: an unmasked frame's first two bytes of a 64-bit length whose top bit is set
        var parser = WebSocketFrameParser(maximumMessageSize: 1 << 20)

        // when / then: the mask bit is judged first, at once
        #expect(parser.consume([0x82, 0x7F]) == [.failure(.protocolError, "client frames must be masked")])
    }

    @Test func aClientRefusesMaskedFramesAndReadsUnmaskedOnes() {
        // given
        var client = WebSocketFrameParser(role: .client, maximumMessageSize: 100)
        var strict = WebSocketFrameParser(role: .client, maximumMessageSize: 100)

        // when / then
        #expect(client.consume(Self.frame(1, Array("hi".utf8), masked: false)) == [.message(.text("hi"))])
        #expect(strict.consume(Self.frame(1, [0x41])) == [.failure(.protocolError, "server frames must not be masked")])
    }

    @Test func serverFramesAreUnmaskedAndCloseReasonsStayUTF8() {
        #expect(WebSocketFrame.encode(.text, payload: Array("hi".utf8)) == [0x81, 2, 0x68, 0x69])
        #expect(
            Array(WebSocketFrame.encode(.binary, payload: [UInt8](repeating: 0, count: 300)).prefix(4)) == [
                0x82, 126, 1, 44,
            ])
        let close = WebSocketFrame.close(code: .goingAway, reason: String(repeating: "é", count: 100))
        #expect(close.count <= 127)
        #expect(String(validating: close[4...], as: UTF8.self) != nil)
    }
}
