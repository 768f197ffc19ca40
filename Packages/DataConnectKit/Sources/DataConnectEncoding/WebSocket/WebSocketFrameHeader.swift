/// The header of one WebSocket frame (RFC 6455 §5.2): FIN, the reserved bits, the opcode, the mask and the length.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-------+-+-------------+-------------------------------+
/// |F|R|R|R| opcode|M| Payload len |    Extended payload length    |
/// |I|S|S|S|  (4)  |A|     (7)     |             (16/64)           |
/// |N|V|V|V|       |S|             |   (if payload len==126/127)   |
/// | |1|2|3|       |K|             |                               |
/// +-+-+-+-+-------+-+-------------+ - - - - - - - - - - - - - - - +
/// |     Extended payload length continued, if payload len == 127  |
/// + - - - - - - - - - - - - - - - +-------------------------------+
/// |                               |Masking-key, if MASK set to 1  |
/// +-------------------------------+-------------------------------+
/// ```
///
/// The header holds what the bits say without judging it: an undefined opcode, reserved bits or a mask where the
/// other side must not send one are for the reader's role to refuse (``WebSocketFrameParser`` does). Lengths are
/// written in the shortest form (7 bits up to 125, 16 bits up to 65,535, 64 bits above); any form is read.
///
/// ```swift
/// var frame: [UInt8] = []
/// WebSocketFrameHeader(opcode: .text, payloadLength: 5).append(to: &frame)   // [0x81, 0x05]
/// let (header, count) = try WebSocketFrameHeader.decode(frame)!               // count == 2
/// ```
public struct WebSocketFrameHeader: Sendable, Hashable {
    /// Whether this is the last frame of its message (FIN).
    public var isFinal: Bool
    /// RSV1, RSV2 and RSV3 as a number from 0 to 7 (RSV1 is 4); 0 unless an extension is negotiated.
    public var reservedBits: UInt8
    /// The four opcode bits as sent, defined or not.
    public var opcodeBits: UInt8
    /// The masking key; `nil` for an unmasked frame.
    public var maskingKey: WebSocketMaskingKey?
    /// The payload's length in bytes.
    public var payloadLength: UInt64

    /// Creates the header of a frame with a defined opcode and no reserved bits.
    ///
    /// - Parameters:
    ///   - opcode: What the frame carries.
    ///   - payloadLength: The payload's length in bytes.
    ///   - isFinal: Whether the frame ends its message.
    ///   - maskingKey: The key a client masks the payload with; `nil` for a server's frame.
    public init(
        opcode: WebSocketOpcode, payloadLength: Int, isFinal: Bool = true, maskingKey: WebSocketMaskingKey? = nil
    ) {
        self.init(
            opcodeBits: opcode.rawValue, payloadLength: UInt64(payloadLength), isFinal: isFinal, reservedBits: 0,
            maskingKey: maskingKey)
    }

    /// Creates any header the format can express, including ones a peer must refuse (for tests of such peers).
    ///
    /// - Parameters:
    ///   - opcodeBits: The opcode, 0 to 15.
    ///   - payloadLength: The length the header announces.
    ///   - isFinal: The FIN bit.
    ///   - reservedBits: RSV1 to RSV3 as a number from 0 to 7.
    ///   - maskingKey: The masking key, or `nil`.
    public init(
        opcodeBits: UInt8, payloadLength: UInt64, isFinal: Bool, reservedBits: UInt8,
        maskingKey: WebSocketMaskingKey?
    ) {
        self.isFinal = isFinal
        self.reservedBits = reservedBits & 0x07
        self.opcodeBits = opcodeBits & 0x0F
        self.maskingKey = maskingKey
        self.payloadLength = payloadLength
    }

    /// The opcode, when it is one RFC 6455 defines.
    public var opcode: WebSocketOpcode? { WebSocketOpcode(rawValue: opcodeBits) }

    /// The header's length on the wire: 2 bytes, the extended length (2 or 8), the masking key (4).
    public var byteCount: Int {
        let extended = payloadLength < 126 ? 0 : payloadLength <= 0xFFFF ? 2 : 8
        return 2 + extended + (maskingKey == nil ? 0 : 4)
    }

    /// Appends the header's bytes to `bytes` (the payload, masked when there is a key, follows).
    ///
    /// - Parameter bytes: Where the header goes.
    public func append(to bytes: inout [UInt8]) {
        bytes.append((isFinal ? 0x80 : 0) | reservedBits << 4 | opcodeBits)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        if payloadLength < 126 {
            bytes.append(maskBit | UInt8(payloadLength))
        } else if payloadLength <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(payloadLength >> 8), UInt8(truncatingIfNeeded: payloadLength)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: payloadLength >> UInt64(shift)))
            }
        }
        if let maskingKey {
            for shift in stride(from: 24, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: maskingKey.value >> UInt32(shift)))
            }
        }
    }

    /// Reads the header at the start of `bytes`.
    ///
    /// - Parameter bytes: Bytes received, starting at a frame's first byte.
    /// - Returns: The header and its length in bytes; `nil` when `bytes` ends before the header does.
    /// - Throws: ``WebSocketFrameError`` (1002) for a 64-bit length with its most significant bit set.
    public static func decode(
        _ bytes: some RandomAccessCollection<UInt8>
    ) throws(WebSocketFrameError) -> (header: WebSocketFrameHeader, byteCount: Int)? {
        let decoded =
            bytes.withContiguousStorageIfAvailable { buffer in
                Result { () throws(WebSocketFrameError) in try decode(buffer) }
            }
            ?? Array(bytes).withUnsafeBufferPointer { buffer in
                Result { () throws(WebSocketFrameError) in try decode(buffer) }
            }
        return try decoded.get()
    }

    /// ``decode(_:)`` on a buffer.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) throws(WebSocketFrameError) -> (header: WebSocketFrameHeader, byteCount: Int)? {
        guard let (length, lengthEnd) = try payloadLength(bytes) else { return nil }
        var count = lengthEnd
        let first = bytes[0]
        let second = bytes[1]
        var maskingKey: WebSocketMaskingKey?
        if second & 0x80 != 0 {
            guard bytes.count >= count + 4 else { return nil }
            maskingKey = WebSocketMaskingKey(bytes[count], bytes[count + 1], bytes[count + 2], bytes[count + 3])
            count += 4
        }
        let header = WebSocketFrameHeader(
            opcodeBits: first & 0x0F, payloadLength: length, isFinal: first & 0x80 != 0,
            reservedBits: first >> 4 & 0x07, maskingKey: maskingKey)
        return (header, count)
    }

    /// The payload length a header announces and where it ends, read from the header's first 2, 4 or 10 bytes.
    ///
    /// - Returns: The length and the byte count of the header without its masking key; `nil` when `bytes` ends
    ///   first.
    /// - Throws: ``WebSocketFrameError`` (1002) for a 64-bit length with its most significant bit set.
    static func payloadLength(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) throws(WebSocketFrameError) -> (length: UInt64, byteCount: Int)? {
        guard bytes.count >= 2 else { return nil }
        let short = UInt64(bytes[1] & 0x7F)
        switch short {
        case 126:
            guard bytes.count >= 4 else { return nil }
            return (UInt64(bytes[2]) << 8 | UInt64(bytes[3]), 4)
        case 127:
            guard bytes.count >= 10 else { return nil }
            var length: UInt64 = 0
            for index in 2..<10 { length = length << 8 | UInt64(bytes[index]) }
            guard length >> 63 == 0 else {
                throw WebSocketFrameError(.protocolError, "the most significant bit of a 64-bit length must be 0")
            }
            return (length, 10)
        default:
            return (short, 2)
        }
    }
}

/// Bytes that are not a well-formed WebSocket frame, with the close code to answer them with.
///
/// ```swift
/// catch let error as WebSocketFrameError { connection.close(code: error.code, reason: error.reason) }
/// ```
public struct WebSocketFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code to close the connection with: 1002, 1007 or 1009.
    public var code: WebSocketCloseCode
    /// What is wrong, for the close frame's reason.
    public var reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: What is wrong.
    public init(_ code: WebSocketCloseCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The code and the reason.
    public var description: String { "\(code): \(reason)" }
}
