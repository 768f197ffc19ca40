import EmulatorHTTP

/// Where one subscriber's responses go: a server-sent-events stream, or one subscription on a WebSocket.
///
/// The hub hands a sink each response as the bytes of a bare `StreamResponse` JSON object
/// (`{"requestId":…,"data":…,"dataEtag":…,"cancelled":false}`); the sink frames it for its transport. Sinks are
/// called from the hub's threads and must not block.
public protocol SubscriptionSink: Sendable {
    /// Sends one response.
    func send(_ response: [UInt8])

    /// Sends the last response (`cancelled: true`): the hub no longer serves this subscriber.
    func finish(with response: [UInt8])

    /// Runs once per heartbeat interval, for transports that need a sign of life per subscriber.
    func heartbeat()

    /// Runs `handler` once the transport has sent everything and let go of the subscriber (at once if it has).
    ///
    /// The hub's shutdown waits for it, briefly, so that the last responses reach the clients before the server
    /// closes their connections.
    func whenEnded(_ handler: @escaping @Sendable () -> Void)
}

/// A subscriber on a server-sent-events stream: each response is one `data:` line, the heartbeat a `: ping` comment.
struct ServerSentEventsSink: SubscriptionSink {
    let stream: HTTPBodyStream

    func send(_ response: [UInt8]) {
        stream.write(Array("data: ".utf8) + response + [0x0A, 0x0A])
    }

    func finish(with response: [UInt8]) {
        send(response)
        stream.finish()
    }

    func heartbeat() {
        stream.write(Array(": ping\n\n".utf8))
    }

    func whenEnded(_ handler: @escaping @Sendable () -> Void) {
        stream.onTermination(handler)
    }
}
