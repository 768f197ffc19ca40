import DataConnectWire
import EmulatorHTTP

/// Where a realtime stream's answers go, and where its work runs: the WebSocket's JSON frames or the gRPC stream's
/// protobuf messages. ``StreamRequests`` speaks to its transport only through this.
protocol StreamOutput: Sendable {
    /// Sends one response given as the bytes of a bare `StreamResponse` JSON object
    /// (`{"requestId":…,"data":…,"dataEtag":…,"cancelled":false}`).
    func send(response: [UInt8])

    /// Sends one response.
    func send(_ response: StreamResponse)

    /// Reports a problem with the stream itself, one no request id can carry (a message that is not a request).
    func sendStreamError(_ error: RequestError)

    /// The sink the hub sends the subscription `requestId`'s results to; `ended` runs once the hub ended it.
    func makeSink(requestId: String, ended: @escaping @Sendable () -> Void) -> any SubscriptionSink

    /// Runs a request's engine work: where the transport wants it (inline, or on the server's request lanes).
    func run(_ work: @escaping @Sendable () -> Void)
}

/// The WebSocket side: each response is a text frame `{"result": <StreamResponse>}`; work runs on the calling
/// (reactor) thread, in order.
struct WebSocketStreamOutput: StreamOutput {
    let connection: WebSocketConnection

    func send(response: [UInt8]) {
        connection.sendText(utf8Parts: [Array(#"{"result":"#.utf8), response, [UInt8(ascii: "}")]])
    }

    func send(_ response: StreamResponse) {
        connection.sendText(utf8: response.toWebSocketJSON().serialized())
    }

    func sendStreamError(_ error: RequestError) {
        connection.sendText(utf8: error.toJSON().serialized())
    }

    func makeSink(requestId: String, ended: @escaping @Sendable () -> Void) -> any SubscriptionSink {
        WebSocketSubscriptionSink(connection: connection, ended: ended)
    }

    func run(_ work: @escaping @Sendable () -> Void) {
        work()
    }
}
