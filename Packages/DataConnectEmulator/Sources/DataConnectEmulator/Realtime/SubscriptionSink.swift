/// Where one subscriber's responses go: one subscription on a WebSocket stream, or a test's recorder.
///
/// The hub hands a sink each response as the bytes of a bare `StreamResponse` JSON object
/// (`{"requestId":…,"data":…,"dataEtag":…,"cancelled":false}`); the sink frames it for its transport. Sinks are
/// called from the hub's threads and must not block.
public protocol SubscriptionSink: Sendable {
    /// Sends one response.
    func send(_ response: [UInt8])

    /// Sends one response given in two parts (their concatenation), so that a transport can copy them straight
    /// into its frame: the hub shares `body` among the subscribers of a group.
    func send(_ head: [UInt8], _ body: [UInt8])

    /// Sends the last response (`cancelled: true`): the hub no longer serves this subscriber.
    func finish(with response: [UInt8])

    /// Runs `handler` once the transport has sent everything and let go of the subscriber (at once if it has).
    ///
    /// The hub's shutdown waits for it, briefly, so that the last responses reach the clients before the server
    /// closes their connections.
    func whenEnded(_ handler: @escaping @Sendable () -> Void)
}

extension SubscriptionSink {
    /// Joins the parts and sends them as one response.
    public func send(_ head: [UInt8], _ body: [UInt8]) {
        send(head + body)
    }
}
