/// A complete WebSocket message, its fragments reassembled.
///
/// ```swift
/// if case .text(let text) = message { print(text) }
/// ```
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message; the server has checked that it is UTF-8.
    case text(String)
    /// A binary message.
    case binary([UInt8])
}
