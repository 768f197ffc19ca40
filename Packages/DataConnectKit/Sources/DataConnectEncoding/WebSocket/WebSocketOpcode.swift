/// What a WebSocket frame carries (RFC 6455 §5.2): the opcodes the protocol defines.
///
/// A frame's header keeps its four opcode bits as they arrived (``WebSocketFrameHeader/opcodeBits``), so a reader
/// can report an undefined opcode; this type names the defined ones.
///
/// ```swift
/// WebSocketOpcode.ping.isControl   // true
/// WebSocketOpcode(rawValue: 0x3)   // nil: reserved
/// ```
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    /// A further fragment of the message a text or binary frame started.
    case continuation = 0x0
    /// A text message (UTF-8), or its first fragment.
    case text = 0x1
    /// A binary message, or its first fragment.
    case binary = 0x2
    /// The close handshake: an optional code and reason.
    case close = 0x8
    /// A ping, which the peer answers with a pong carrying the same payload.
    case ping = 0x9
    /// A pong.
    case pong = 0xA

    /// Whether this is a control frame (close, ping, pong): never fragmented, at most 125 bytes of payload.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
