/// What a bidirectional-streaming method is told about its call, on the connection's thread.
public protocol GRPCStreamHandler: Sendable {
    /// One request message; on the connection's thread, so it must not block (offload with
    /// ``GRPCServerStream/submit(_:)``).
    func received(_ message: [UInt8])
    /// The client half-closed: it sends no more messages.
    func clientFinished()
    /// The call ended without the method finishing it: RST_STREAM, the connection lost, the server stopping (or
    /// the deadline passing, or a message over the limit). Not called after ``GRPCServerStream/finish(_:)``.
    func cancelled()
}

/// The server's side of a bidirectional-streaming call: messages to the client, then the status.
///
/// Usable from any thread. Messages are queued in order and written as the client's flow-control window allows;
/// a client that reads too slowly lets one stream's queue grow to 8 MiB (or more for a single message), after which
/// the stream is finished with RESOURCE_EXHAUSTED rather than holding more memory. Other streams of the connection
/// are never held up.
public final class GRPCServerStream: Sendable {
    /// What the call's HEADERS said.
    public let head: GRPCCallHead
    let outbox: StreamOutbox
    private let lanes:
        @Sendable (_ run: @escaping @Sendable () -> Void, _ abandon: @escaping @Sendable () -> Void) ->
            Bool

    init(
        head: GRPCCallHead, outbox: StreamOutbox,
        lanes:
            @escaping @Sendable (_ run: @escaping @Sendable () -> Void, _ abandon: @escaping @Sendable () -> Void)
            -> Bool
    ) {
        self.head = head
        self.outbox = outbox
        self.lanes = lanes
    }

    /// Queues one message (from any thread; in order; written as flow control allows). Dropped once finished.
    public func send(_ message: [UInt8]) {
        outbox.appendMessage(parts: CollectionOfOne(message))
    }

    /// Queues one message whose bytes are the parts' concatenation.
    public func send(parts: [[UInt8]]) {
        outbox.appendMessage(parts: parts)
    }

    /// Ends the call with `status` (the trailers); later sends are dropped, and later calls do nothing.
    public func finish(_ status: GRPCStatus) {
        outbox.finish(.trailers(status, HTTPHeaders()))
    }

    /// Ends the call with `status` and extra trailers.
    func finish(_ status: GRPCStatus, trailers: HTTPHeaders) {
        outbox.finish(.trailers(status, trailers))
    }

    /// Whether messages may still be sent: not finished, not cancelled.
    public var isOpen: Bool {
        outbox.isOpen
    }

    /// Runs `work` on the server's request lanes; when the server is stopping instead, the call is finished with
    /// UNAVAILABLE.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        let submitted = lanes(work) { [outbox] in outbox.finishStopping() }
        if !submitted { outbox.finishStopping() }
    }
}
