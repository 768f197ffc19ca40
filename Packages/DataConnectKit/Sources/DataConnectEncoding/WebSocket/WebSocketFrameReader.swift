/// Cuts whole frames out of bytes as they arrive, without judging them: any opcode, reserved bits, masked or not.
///
/// For peers that must see frames as they are (test clients and servers that check what the other side sends, or
/// send what it must refuse). A peer that wants messages, with the protocol's rules enforced, uses
/// ``WebSocketFrameParser``.
///
/// ```swift
/// var reader = WebSocketFrameReader()
/// reader.append(bytesFromSocket)
/// while let frame = try reader.next() {
///     if frame.opcode == .text { print(frame.text) }
/// }
/// ```
public struct WebSocketFrameReader: Sendable {
    /// One frame: its header and its payload, unmasked.
    public struct Frame: Sendable, Hashable {
        /// The header as it arrived (the masking key included, when there was one).
        public var header: WebSocketFrameHeader
        /// The payload, unmasked.
        public var payload: [UInt8]

        /// Creates a frame.
        ///
        /// - Parameters:
        ///   - header: The header.
        ///   - payload: The payload, unmasked.
        public init(header: WebSocketFrameHeader, payload: [UInt8]) {
            self.header = header
            self.payload = payload
        }

        /// Whether the frame ends its message (FIN).
        public var isFinal: Bool { header.isFinal }
        /// The four opcode bits as sent.
        public var opcodeBits: UInt8 { header.opcodeBits }
        /// The opcode, when it is a defined one.
        public var opcode: WebSocketOpcode? { header.opcode }
        /// Whether the frame was masked.
        public var isMasked: Bool { header.maskingKey != nil }
        /// The payload decoded as UTF-8 (invalid sequences replaced).
        public var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's code; `nil` for other frames and for a close frame without one.
        public var closeCode: WebSocketCloseCode? {
            opcode == .close ? WebSocketCloseCode(payload: payload) : nil
        }
    }

    private var buffer: [UInt8] = []
    private var offset = 0

    /// Creates a reader with nothing buffered.
    public init() {}

    /// The bytes received but not yet part of a whole frame.
    public var bufferedCount: Int { buffer.count - offset }

    /// Adds bytes as they arrive.
    ///
    /// - Parameter bytes: The next bytes of the stream.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if offset > 0 && offset == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            offset = 0
        }
        buffer += bytes
    }

    /// Drops whatever is buffered.
    public mutating func removeAll() {
        buffer.removeAll(keepingCapacity: true)
        offset = 0
    }

    /// The next whole frame, or `nil` while its bytes have not all arrived.
    ///
    /// - Returns: The frame, its payload unmasked.
    /// - Throws: ``WebSocketFrameError`` for a header no frame can have (a 64-bit length with its top bit set).
    public mutating func next() throws(WebSocketFrameError) -> Frame? {
        let start = offset
        let decoded = try buffer.withUnsafeBufferPointer { buffer throws(WebSocketFrameError) in
            try WebSocketFrameHeader.decode(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
        guard let (header, headerCount) = decoded, header.payloadLength <= UInt64(Int.max - headerCount),
            buffer.count - start >= headerCount + Int(header.payloadLength)
        else { return nil }
        let payloadStart = start + headerCount
        var payload = Array(buffer[payloadStart..<(payloadStart + Int(header.payloadLength))])
        header.maskingKey?.apply(to: &payload)
        offset = payloadStart + payload.count
        if offset == buffer.count || offset >= 65_536 {
            buffer.removeFirst(offset)
            offset = 0
        }
        return Frame(header: header, payload: payload)
    }
}
