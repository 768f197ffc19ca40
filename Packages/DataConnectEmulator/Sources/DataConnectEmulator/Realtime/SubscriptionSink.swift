import Synchronization

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

    /// Sends a group's result to this subscriber, whose response begins with `prefix` (`{"requestId":"…",`).
    ///
    /// The hub shares one ``HubResult`` among the subscribers of a group; a transport that re-encodes results keeps
    /// its encoding there (``HubResult/encoded(_:)``), so it is made once per result. By default, the JSON parts.
    func send(_ result: HubResult, prefix: [UInt8])

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

    /// Sends `prefix` and the result's JSON ``HubResult/tail``.
    public func send(_ result: HubResult, prefix: [UInt8]) {
        send(prefix, result.tail)
    }
}

/// One result of a subscription group, shared by the subscribers it goes to: the engine's response body (`nil`
/// when only the etag is sent: nothing changed since the subscriber's etag), its etag, and the JSON every
/// subscriber's response ends with.
///
/// A transport that re-encodes results (gRPC's protobuf) keeps its encoding here, made by the first of the group's
/// subscribers to need it: a result goes to thousands of subscribers, and is encoded once.
public final class HubResult: Sendable {
    /// The engine's response body (`{"data":…,"errors":…,"extensions":…}`), or `nil` for an unchanged etag.
    public let body: [UInt8]?
    /// The etag of the result.
    public let etag: String
    /// What follows a subscriber's `{"requestId":"…",` in its JSON response:
    /// `"data":…,"errors":…,"extensions":…,"dataEtag":"…","cancelled":false}`, or only the last two members.
    public let tail: [UInt8]
    private let encoding = Mutex<(any Sendable)?>(nil)

    /// Wraps a result; `tail` is made here.
    public init(body: [UInt8]?, etag: String) {
        self.body = body
        self.etag = etag
        var tail: [UInt8] = []
        if let body, body.count >= 2 {
            // `{"data":…,"errors":…,"extensions":…}` loses its braces; the etag and `cancelled` follow.
            tail = Array(body[1..<(body.count - 1)])
            tail += Array(#",""#.utf8)
        } else {
            tail = [UInt8(ascii: "\"")]
        }
        tail += Array(#"dataEtag":"\#(etag)","cancelled":false}"#.utf8)
        self.tail = tail
    }

    /// The transport's encoding of this result: made by `make` on the first call, the same value afterwards (a
    /// value of another type than the first call's is made again and not kept).
    public func encoded<Encoding: Sendable, Failure: Error>(
        _ make: () throws(Failure) -> Encoding
    ) throws(Failure) -> Encoding {
        try encoding.withLock { (cached: inout (any Sendable)?) throws(Failure) -> Encoding in
            if let found = cached as? Encoding { return found }
            let made = try make()
            if cached == nil { cached = made }
            return made
        }
    }
}
