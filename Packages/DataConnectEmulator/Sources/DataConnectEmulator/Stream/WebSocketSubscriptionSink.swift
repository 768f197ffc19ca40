import EmulatorHTTP

/// A subscriber that is one request on a WebSocket stream: each response goes out as a text frame
/// `{"result": <response>}`. The connection's ping (``SubscriptionHub/addHeartbeat(_:)``) is its heartbeat.
///
/// A class, so that the hub's copies of a subscriber retain one object: a group's fan-out copies each of its
/// subscribers from two threads.
final class WebSocketSubscriptionSink: SubscriptionSink {
    let connection: WebSocketConnection
    /// Tells the stream that the hub ended the subscription (a `cancelled: true` response was sent).
    let ended: @Sendable () -> Void

    init(connection: WebSocketConnection, ended: @escaping @Sendable () -> Void) {
        self.connection = connection
        self.ended = ended
    }

    /// `{"result":` and `}`, around each response.
    private static let resultOpening = Array(#"{"result":"#.utf8)
    private static let resultClosing = [UInt8(ascii: "}")]

    func send(_ response: [UInt8]) {
        connection.sendText(utf8Parts: [Self.resultOpening, response, Self.resultClosing])
    }

    /// Copies the parts once, into the connection's outgoing buffer, inside `{"result":…}`.
    func send(_ head: [UInt8], _ body: [UInt8]) {
        connection.sendText(utf8Parts: [Self.resultOpening, head, body, Self.resultClosing])
    }

    func finish(with response: [UInt8]) {
        send(response)
        ended()
    }

    func whenEnded(_ handler: @escaping @Sendable () -> Void) {
        // The frame is queued on the connection in order; the server sends it before it closes the connection.
        handler()
    }
}
