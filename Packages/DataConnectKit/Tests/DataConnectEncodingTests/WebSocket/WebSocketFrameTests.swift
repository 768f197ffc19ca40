import DataConnectEncoding
import Testing

/// Frames written and read against RFC 6455 §5.7's examples, every length encoding, masking and close payloads.
@Suite struct WebSocketFrameTests {
    /// The masking key of RFC 6455 §5.7's examples.
    static let rfcKey = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
    static let hello = Array("Hello".utf8)

    // MARK: RFC 6455 §5.7

    @Test func aSingleFrameUnmaskedTextMessage() throws {
        // given
        let bytes: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]

        // when / then
        #expect(WebSocketFrame.encode(.text, payload: Self.hello) == bytes)
        let (header, count) = try #require(try WebSocketFrameHeader.decode(bytes))
        #expect(header == WebSocketFrameHeader(opcode: .text, payloadLength: 5))
        #expect(count == 2)
    }

    @Test func aSingleFrameMaskedTextMessage() throws {
        // given
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]

        // when / then
        #expect(WebSocketFrame.encode(.text, payload: Self.hello, maskingKey: Self.rfcKey) == bytes)
        let (header, count) = try #require(try WebSocketFrameHeader.decode(bytes))
        #expect(header.maskingKey == Self.rfcKey && header.payloadLength == 5 && count == 6)
        var reader = WebSocketFrameReader()
        reader.append(bytes)
        #expect(try reader.next() == WebSocketFrameReader.Frame(header: header, payload: Self.hello))
    }

    @Test func aFragmentedUnmaskedTextMessage() {
        // given
        let first: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C]
        let second: [UInt8] = [0x80, 0x02, 0x6C, 0x6F]

        // when / then
        #expect(WebSocketFrame.encode(.text, payload: Array("Hel".utf8), isFinal: false) == first)
        #expect(WebSocketFrame.encode(.continuation, payload: Array("lo".utf8)) == second)
        var parser = WebSocketFrameParser(role: .client, maximumMessageSize: 100)
        #expect(parser.consume(first + second) == [.message(.text("Hello"))])
    }

    @Test func anUnmaskedPingAndAMaskedPong() {
        // given
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]

        // when / then
        #expect(WebSocketFrame.encode(.ping, payload: Self.hello) == ping)
        #expect(WebSocketFrame.encode(.pong, payload: Self.hello, maskingKey: Self.rfcKey) == pong)
        var client = WebSocketFrameParser(role: .client, maximumMessageSize: 100)
        #expect(client.consume(ping) == [.ping(Self.hello)])
        var server = WebSocketFrameParser(role: .server, maximumMessageSize: 100)
        #expect(server.consume(pong) == [.pong])
    }

    @Test func binaryMessagesOf256BytesAnd64KiBUseTheExtendedLengths() {
        // when
        let medium = WebSocketFrame.encode(.binary, payload: [UInt8](repeating: 7, count: 256))
        let large = WebSocketFrame.encode(.binary, payload: [UInt8](repeating: 7, count: 65_536))

        // then
        #expect(Array(medium.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(medium.count == 4 + 256)
        #expect(Array(large.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0, 0])
        #expect(large.count == 10 + 65_536)
    }

    // MARK: Headers

    @Test(arguments: [0, 1, 125, 126, 127, 65_535, 65_536, 1 << 40])
    func everyLengthRoundTripsThroughTheShortestForm(_ length: Int) throws {
        // given
        let header = WebSocketFrameHeader(
            opcodeBits: 0x3, payloadLength: UInt64(length), isFinal: false, reservedBits: 5,
            maskingKey: WebSocketMaskingKey(value: 0x0102_0304))
        var bytes: [UInt8] = []

        // when
        header.append(to: &bytes)

        // then
        #expect(bytes.count == header.byteCount)
        #expect(bytes.count == (length < 126 ? 6 : length < 65_536 ? 8 : 14))
        let (decoded, count) = try #require(try WebSocketFrameHeader.decode(bytes))
        #expect(decoded == header && count == bytes.count)
        #expect(decoded.opcode == nil)
        for cut in 0..<bytes.count { #expect(try WebSocketFrameHeader.decode(bytes.prefix(cut)) == nil) }
    }

    @Test func aLengthWithItsTopBitSetIsNoFrame() {
        #expect(throws: WebSocketFrameError(.protocolError, "the most significant bit of a 64-bit length must be 0")) {
            try WebSocketFrameHeader.decode([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 1])
        }
    }

    // MARK: Masking

    @Test func maskingInPiecesEqualsMaskingWhole() {
        // given
        let key = WebSocketMaskingKey.random()
        let payload = (0..<1_000).map { UInt8(truncatingIfNeeded: $0) }
        var whole = payload
        key.apply(to: &whole)

        // when: the same payload masked in pieces of odd sizes, each with its offset
        var pieces: [UInt8] = []
        var start = 0
        for size in [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 392] {
            var piece = Array(payload[start..<(start + size)])
            key.apply(to: &piece, offset: start)
            pieces += piece
            start += size
        }

        // then
        #expect(pieces == whole)
        key.apply(to: &whole)
        #expect(whole == payload)
    }

    // MARK: Close frames

    @Test func closePayloadsCarryTheCodeAndAReasonCutAtAWholeCharacter() {
        // given
        let long = String(repeating: "é", count: 100)

        // when
        let close = WebSocketFrame.close(code: .goingAway, reason: long)

        // then
        #expect(Array(close.prefix(4)) == [0x88, 124, 0x03, 0xE9])
        #expect(String(validating: close[4...], as: UTF8.self) == String(repeating: "é", count: 61))
        #expect(WebSocketCloseCode(payload: close[2...]) == .goingAway)
        #expect(WebSocketCloseCode(payload: [0x03]) == nil)
        #expect(WebSocketFrame.closePayload(code: 4001, reason: "bye") == [0x0F, 0xA1] + Array("bye".utf8))
    }

    @Test(
        arguments: [
            (1000, true), (1003, true), (1004, false), (1005, false), (1006, false), (1007, true), (1014, true),
            (1015, false), (2999, false), (3000, true), (4999, true), (5000, false),
        ] as [(UInt16, Bool)])
    func onlyCodesAPeerMaySendAreValidOnTheWire(_ code: UInt16, _ valid: Bool) {
        #expect(WebSocketCloseCode(rawValue: code).isValidOnTheWire == valid)
    }

    // MARK: Handshake

    @Test func theAcceptValueIsTheRFCExample() {
        #expect(WebSocketKey.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(WebSocketKey.isValid("dGhlIHNhbXBsZSBub25jZQ=="))
        #expect(!WebSocketKey.isValid("dGhlIHNhbXBsZSBub25jZQ"))
        #expect(!WebSocketKey.isValid("c2hvcnQ="))
        #expect(WebSocketKey.isValid(WebSocketKey.random()))
    }
}
