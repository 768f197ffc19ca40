/// One WebSocket frame as the server writes it (RFC 6455 §5.2): final, unmasked.
///
/// The server never fragments what it sends: each message is one frame.
///
/// ```swift
/// let bytes = WebSocketFrame.encode(.text, payload: Array(#"{"result":{}}"#.utf8))
/// ```
public enum WebSocketFrame {
    /// A frame's opcode.
    public enum Opcode: UInt8, Sendable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Whether this is a control frame (close, ping, pong).
        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// The bytes of one final, unmasked frame carrying `payload`.
    public static func encode(_ opcode: Opcode, payload: some Collection<UInt8>) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(payload.count + 10)
        appendHeader(opcode, payloadCount: payload.count, to: &frame)
        frame += payload
        return frame
    }

    /// Appends the header of an unmasked, final frame whose payload is `count` bytes long (the payload follows).
    public static func appendHeader(_ opcode: Opcode, payloadCount count: Int, to frame: inout [UInt8]) {
        frame.append(0x80 | opcode.rawValue)
        if count < 126 {
            frame.append(UInt8(count))
        } else if count <= 0xFFFF {
            frame += [126, UInt8(count >> 8), UInt8(truncatingIfNeeded: count)]
        } else {
            frame.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                frame.append(UInt8(truncatingIfNeeded: count >> shift))
            }
        }
    }

    /// The bytes of a close frame with `code` and `reason` (cut to fit the 125-byte limit of control frames).
    public static func close(code: WebSocketCloseCode, reason: String) -> [UInt8] {
        var payload = [UInt8(code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
        var reasonBytes: [UInt8] = []
        // Whole characters only, so the reason stays UTF-8.
        for scalar in reason.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            guard reasonBytes.count + bytes.count <= 123 else { break }
            reasonBytes += bytes
        }
        payload += reasonBytes
        return encode(.close, payload: payload)
    }
}
