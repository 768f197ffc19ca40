/// One request stream of an ``HTTP2Connection``, on the connection's thread: the request's header fields as they
/// arrive, then the call it became.
final class HTTP2Stream {
    /// What the stream turned into once its HEADERS were complete.
    enum Kind {
        /// The HEADERS block is still arriving.
        case pending
        /// Answered by the server (an error, or a plain response): the rest of the request is ignored.
        case rejected
        /// A unary call: its message is collected, then `respond` runs on the loop's thread.
        case unary(@Sendable (GRPCUnaryCall) -> GRPCUnaryResult)
        /// A bidirectional-streaming call and its handler.
        case streaming(any GRPCStreamHandler)
    }

    let id: Int32
    let outbox: StreamOutbox
    var kind = Kind.pending
    var method: String?
    var path: String?
    var authority: String?
    var metadata: [HTTPHeaders.Field] = []
    /// The header list's size as HTTP/2 counts it (name, value and 32 bytes per field).
    var headerListSize = 0
    var headersTooLarge = false
    var reader = GRPCMessageReader()
    /// A unary call's request message, once complete.
    var message: [UInt8]?
    var head: GRPCCallHead?
    var call: GRPCServerStream?
    var cancellation: GRPCCancellation?
    /// The response's HEADERS are submitted.
    var responseStarted = false
    /// nghttp2 is waiting for the outbox (the data source said "deferred").
    var isDeferred = false
    /// The client has half-closed (END_STREAM received).
    var requestComplete = false
    /// Counted in the calls in flight.
    var isCounted = false
    /// The header fields of a plain (not gRPC) response; nil for gRPC's.
    var plainResponseHeaders: [(String, String)]?
    var lastActivity = ContinuousClock.now

    init(id: Int32, outbox: StreamOutbox) {
        self.id = id
        self.outbox = outbox
    }

    /// The value of a (lower-case) header field.
    func header(_ name: String) -> String? {
        metadata.first { $0.name == name }?.value
    }
}
