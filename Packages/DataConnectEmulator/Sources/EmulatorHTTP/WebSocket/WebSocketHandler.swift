import DataConnectEncoding

/// What an application does with one WebSocket connection.
///
/// A responder accepts a WebSocket by returning ``HTTPResponse/webSocket(for:handler:)`` with a handler for that
/// connection (one handler object per connection is the usual shape: it holds the connection's state). The server
/// calls the handler on a serial queue of the connection's own, in order: ``webSocketDidOpen(_:)`` once, then
/// ``webSocket(_:didReceive:)`` for each message, then ``webSocketDidClose(_:code:)`` once. Calls for different
/// connections run concurrently. A handler may block its connection's queue (for example to run a query) without
/// holding up other connections or the server's I/O.
///
/// ```swift
/// final class Echo: WebSocketHandler {
///     func webSocketDidOpen(_ connection: WebSocketConnection) {}
///     func webSocket(_ connection: WebSocketConnection, didReceive message: WebSocketMessage) {
///         connection.send(message)
///     }
///     func webSocketDidClose(_ connection: WebSocketConnection, code: WebSocketCloseCode) {}
/// }
/// ```
public protocol WebSocketHandler: AnyObject, Sendable {
    /// The handshake is done; the connection may send.
    func webSocketDidOpen(_ connection: WebSocketConnection)

    /// A whole message arrived (fragments reassembled, text checked to be UTF-8).
    func webSocket(_ connection: WebSocketConnection, didReceive message: WebSocketMessage)

    /// The connection ended: the close handshake finished, the peer vanished, or the server stopped.
    ///
    /// - Parameter code: The code of the close frame received or sent, ``WebSocketCloseCode/noStatusReceived``
    ///   for a close frame without one, ``WebSocketCloseCode/abnormalClosure`` when the connection ended without a
    ///   close frame.
    func webSocketDidClose(_ connection: WebSocketConnection, code: WebSocketCloseCode)
}
