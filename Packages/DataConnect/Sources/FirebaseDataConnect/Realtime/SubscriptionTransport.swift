import DataConnectWire

/// One message of a realtime subscription: a `StreamResponse` of the stream protocol.
public struct StreamMessage: Hashable, Sendable {
    /// The request id the server echoes.
    public var requestID: String
    /// The result: `data`, `errors` and `extensions`, as for `:executeQuery`.
    public var response: GraphQLResponse
    /// The fingerprint of the result's bytes; sent back on reconnect so an unchanged result is not resent.
    public var dataEtag: String?
    /// Whether the server stopped serving the subscription (the operation changed, access was revoked, or the
    /// server is stopping); no message follows.
    public var cancelled: Bool

    /// Creates a message.
    public init(requestID: String, response: GraphQLResponse, dataEtag: String? = nil, cancelled: Bool = false) {
        self.requestID = requestID
        self.response = response
        self.dataEtag = dataEtag
        self.cancelled = cancelled
    }

    /// The message a stream response carries.
    init(_ response: StreamResponse) {
        self.init(
            requestID: response.requestId,
            response: GraphQLResponse(data: response.data, errors: response.errors, extensions: response.extensions),
            dataEtag: response.dataEtag, cancelled: response.cancelled)
    }
}

/// Opens realtime subscriptions: one long-lived stream of results per subscribed query.
///
/// ``StreamTransport`` implements it over the Data Connect WebSocket stream; tests script their own.
///
/// ```swift
/// for try await message in transport.subscribe(request, dataEtag: nil) { print(message.response.data ?? .null) }
/// ```
public protocol SubscriptionTransport: Sendable {
    /// Subscribes to a query; the stream yields the current result, then every change, until the server ends
    /// it (it then finishes), the connection fails (it throws a ``TransportError``) or the consumer stops.
    ///
    /// - Parameters:
    ///   - request: The query, its variables and header context (the auth token included).
    ///   - dataEtag: The etag of the result the caller already has, so an unchanged first result is skipped.
    func subscribe(_ request: OperationRequest, dataEtag: String?) -> AsyncThrowingStream<StreamMessage, any Error>

    /// The signed-in user's ID token changed (a refresh, or claims set by an admin): tell the server, so that it
    /// checks the live subscriptions again; one whose caller may no longer read it ends with `cancelled: true`
    /// and the error a new request would get.
    ///
    /// A token of another user, or `nil` after a sign-out, ends the subscriptions made as the previous user.
    /// The default does nothing, for transports whose subscriptions carry no credentials.
    ///
    /// - Parameter token: The new ID token, or `nil` when signed out.
    func authTokenChanged(_ token: String?)
}

extension SubscriptionTransport {
    /// Does nothing: the transport's subscriptions carry no credentials.
    public func authTokenChanged(_ token: String?) {}
}
