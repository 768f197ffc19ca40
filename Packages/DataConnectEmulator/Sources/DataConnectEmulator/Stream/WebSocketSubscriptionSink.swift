import EmulatorHTTP

/// A subscriber that is one request on a WebSocket stream: each response goes out as a text frame
/// `{"result": <response>}`. The connection's ping (``SubscriptionHub/addHeartbeat(_:)``) is its heartbeat.
struct WebSocketSubscriptionSink: SubscriptionSink {
    let connection: WebSocketConnection
    /// Tells the stream that the hub ended the subscription (a `cancelled: true` response was sent).
    let ended: @Sendable () -> Void

    func send(_ response: [UInt8]) {
        var frame = Array(#"{"result":"#.utf8)
        frame.reserveCapacity(response.count + 11)
        frame += response
        frame.append(UInt8(ascii: "}"))
        connection.sendText(utf8: frame)
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
