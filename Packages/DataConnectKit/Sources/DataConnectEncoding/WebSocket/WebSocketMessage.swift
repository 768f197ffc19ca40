/// A complete WebSocket message, its fragments reassembled.
///
/// ```swift
/// if case .text(let text) = message { print(text) }
/// ```
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message; the parser has checked that it is UTF-8.
    case text(String)
    /// A binary message.
    case binary([UInt8])
}
