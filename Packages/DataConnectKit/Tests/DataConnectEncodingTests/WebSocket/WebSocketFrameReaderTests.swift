import DataConnectEncoding
import Testing

/// The raw frame reader: frames handed over as they are, whatever they break, in pieces as they arrive.
@Suite struct WebSocketFrameReaderTests {
    @Test func framesArrivingInPiecesComeOutWholeAndInOrder() throws {
        // given: three frames, cut into 3-byte pieces
        let key = WebSocketMaskingKey(9, 8, 7, 6)
        let bytes =
            WebSocketFrame.encode(.text, payload: Array("one".utf8), isFinal: false, maskingKey: key)
            + WebSocketFrame.encode(.continuation, payload: [UInt8](repeating: 1, count: 300))
            + WebSocketFrame.close(code: .normal, reason: "done")
        var reader = WebSocketFrameReader()
        var frames: [WebSocketFrameReader.Frame] = []

        // when
        for start in stride(from: 0, to: bytes.count, by: 3) {
            reader.append(bytes[start..<min(start + 3, bytes.count)])
            while let frame = try reader.next() { frames.append(frame) }
        }

        // then
        #expect(frames.map(\.opcode) == [.text, .continuation, .close])
        #expect(frames.map(\.isFinal) == [false, true, true])
        #expect(frames.map(\.isMasked) == [true, false, false])
        #expect(frames[0].text == "one")
        #expect(frames[1].payload.count == 300)
        #expect(frames[2].closeCode == .normal)
        #expect(reader.bufferedCount == 0)
    }

    @Test func whatAParserRefusesIsHandedOverAsItIs() throws {
        // given: an undefined opcode with reserved bits, unmasked
        var bytes: [UInt8] = []
        WebSocketFrameHeader(opcodeBits: 0x3, payloadLength: 1, isFinal: true, reservedBits: 4, maskingKey: nil)
            .append(to: &bytes)
        var reader = WebSocketFrameReader()
        reader.append(bytes + [0x41])

        // when
        let frame = try #require(try reader.next())

        // then
        #expect(frame.opcode == nil && frame.opcodeBits == 3)
        #expect(frame.header.reservedBits == 4)
        #expect(frame.payload == [0x41])
        #expect(frame.closeCode == nil)
    }
}
