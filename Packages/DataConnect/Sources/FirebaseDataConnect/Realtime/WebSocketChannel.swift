import DataConnectEncoding

/// Where a WebSocket connects: host, port, TLS and the request target.
///
/// ```swift
/// let address = WebSocketAddress(host: "127.0.0.1", port: 9399, secure: false, target: "/ws/…/services/movies")
/// address.url  // ws://127.0.0.1:9399/ws/…/services/movies
/// ```
struct WebSocketAddress: Hashable, Sendable {
    /// The host name or IP address; IPv6 addresses without brackets.
    var host: String
    /// The TCP port.
    var port: Int
    /// Whether to use TLS (`wss`).
    var secure: Bool
    /// The path and query of the upgrade request.
    var target: String

    /// `ws[s]://host[:port]/target`, leaving out the scheme's default port.
    var url: String {
        let scheme = secure ? "wss" : "ws"
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let defaultPort = secure ? 443 : 80
        return port == defaultPort ? "\(scheme)://\(hostPart)\(target)" : "\(scheme)://\(hostPart):\(port)\(target)"
    }

    /// The `Host` header: the host, with the port unless it is the scheme's default.
    var hostHeader: String {
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? hostPart : "\(hostPart):\(port)"
    }
}

/// What a WebSocket reports, in order, from the thread that serves it.
enum WebSocketEvent: Hashable, Sendable {
    /// The upgrade succeeded; frames queued before it are being sent.
    case opened
    /// A whole text message (fragments joined), as UTF-8 bytes.
    case text([UInt8])
    /// A whole binary message (fragments joined).
    case binary([UInt8])
    /// The connection closed with a close frame: the peer's code and reason, or ours after ``WebSocketChannel/close(code:reason:)``.
    /// The last event.
    case closed(code: WebSocketCloseCode?, reason: String)
    /// The connection could not be opened, or was lost without a close frame (including a peer that stopped
    /// answering pings). The last event.
    case failed(TransportError)
}

/// One WebSocket connection, seen from the code that speaks a protocol over it.
///
/// ``WebSocketConnection`` is the live implementation; unit tests of ``StreamTransport`` use a scripted one. Both
/// methods may be called from any thread, including from the event handler, and never block.
protocol WebSocketChannel: AnyObject, Sendable {
    /// Queues one text message; messages go out in order, once the connection is open. Ignored after the end.
    func send(text: [UInt8])
    /// Sends a close frame with `code` and `reason` after the queued messages, then ends with
    /// ``WebSocketEvent/closed(code:reason:)``. Before the connection is open, abandons it instead.
    func close(code: WebSocketCloseCode, reason: String)
}

/// Opens a WebSocket and reports its events to `handler`; the seam ``StreamTransport`` is tested through.
typealias WebSocketConnector =
    @Sendable (_ address: WebSocketAddress, _ handler: @escaping @Sendable (WebSocketEvent) -> Void) ->
    any WebSocketChannel

// The close codes the stream uses are DataConnectEncoding's `WebSocketCloseCode`: `.normal` when no subscriptions
// are left or the auth state changed, `.goingAway` when the client goes away, `.protocolError` for a frame that is
// not a stream response.
