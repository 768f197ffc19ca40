import DataConnectEmulator
import DataConnectEngine
import DataConnectWire
import FirebaseDataConnect
import Synchronization

/// A ``FirebaseDataConnect/SubscriptionTransport`` that subscribes on an emulator's realtime hub in this process.
///
/// No socket: each subscription becomes a subscriber of the emulator's `SubscriptionHub`, checked as the
/// WebSocket stream checks it (operation, `@auth`, variables, the per-client limit) with the caller read from the
/// request's `X-Firebase-Auth-Token`. The hub's responses are read as `StreamResponse`s, so the first result, each
/// push after a committed mutation, `@refresh` ticks and the etag of an unchanged result arrive as they would over
/// the stream; a refused subscription, like on the stream, answers one response with the error and
/// `cancelled: true`. What is not exercised is the WebSocket itself (framing, pings, reconnects): use a live
/// ``TestEmulator`` for those.
///
/// ```swift
/// let emulator = try TestEmulator.inProcess(backend: "Backend/movies")
/// let dataConnect = DataConnect(
///     app: app, connectorConfig: config, transport: emulator.transport,
///     subscriptionTransport: emulator.subscriptionTransport)
/// for await update in try await dataConnect.query(name: "listMovies", variables: NoVariables(),
///                                                 resultsDataType: MovieList.self).subscribe() { … }
/// ```
public struct InProcessSubscriptionTransport: SubscriptionTransport {
    /// The request id every in-process subscription uses: each has a sequence of its own.
    static let requestID = "1"

    /// Serves the subscriptions.
    public let hub: SubscriptionHub
    /// The subscriptions whose consumers have not stopped, for ``authTokenChanged(_:)``.
    private let live = LiveRegistrations()

    /// Creates a transport subscribing on `hub`.
    ///
    /// - Parameter hub: Usually `emulator.responder.hub`.
    public init(hub: SubscriptionHub) {
        self.hub = hub
    }

    /// Checks every live subscription against the caller's new token, as the WebSocket stream does with a
    /// `headers` frame: one the caller may no longer read ends with `cancelled: true` and the error a new request
    /// would get; one made as another user (or when signed out) ends; the others run with the new claims.
    ///
    /// - Parameter token: The new ID token, or `nil` when signed out.
    public func authTokenChanged(_ token: String?) {
        // Each test's sign-in changes the token; reading it is only needed when there is a subscription to check.
        let registrations = live.all()
        guard !registrations.isEmpty else { return }
        let caller = Self.caller(token: token)
        let newUID = (try? caller.get())?.uid
        for registration in registrations {
            guard let (subscriber, uid) = registration.current() else { continue }
            let outcome: SubscriptionHub.Reauthorization
            switch caller {
            case .success(let auth): outcome = hub.reauthorize(subscriber, auth: auth)
            case .failure(let error): outcome = hub.cancel(subscriber, error: error) ? .ended(error) : .gone
            }
            guard case .kept(let moved) = outcome else { continue }
            if uid == newUID {
                registration.moved(to: moved)
            } else {
                hub.cancel(
                    moved,
                    reason: "the stream now speaks for another user; subscriptions made as the previous user have ended"
                )
            }
        }
    }

    /// Adds a subscriber to the hub; it is removed when the consumer stops.
    ///
    /// - Parameters:
    ///   - request: The query, its variables and the caller's token.
    ///   - dataEtag: The etag of the result the caller already has.
    /// - Returns: The hub's responses: the current result, then every change; a refusal is one response with
    ///   `cancelled: true`.
    public func subscribe(
        _ request: OperationRequest, dataEtag: String?
    ) -> AsyncThrowingStream<StreamMessage, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamMessage.self, throwing: (any Error).self)
        let auth: AuthContext?
        switch Self.caller(token: request.metadata.authToken) {
        case .success(let caller):
            auth = caller
        case .failure(let refusal):
            Self.refuse(continuation, refusal)
            return stream
        }
        // Registered before the subscriber exists, so a consumer that stops at once still removes it.
        let registration = Registration(uid: auth?.uid)
        let (hub, live) = (hub, live)
        live.add(registration)
        continuation.onTermination = { _ in
            live.remove(registration)
            if let subscriber = registration.end() { hub.removeSubscriber(subscriber) }
        }
        let clientKey = auth?.uid.map { "uid:" + $0 } ?? "address:in-process"
        let added = hub.addSubscriber(
            connector: request.connector.connectorID, operationName: request.operationName,
            variables: request.variables, auth: auth, requestId: Self.requestID, dataEtag: dataEtag,
            clientKey: clientKey, sink: ContinuationSink(continuation: continuation))
        switch added {
        case .success(let subscriber):
            if registration.record(subscriber) { hub.removeSubscriber(subscriber) }
        case .failure(let refusal):
            Self.refuse(continuation, refusal)
        }
        return stream
    }

    /// The caller a token names, `nil` without one, or why the token was refused.
    private static func caller(token: String?) -> Result<AuthContext?, RequestError> {
        guard let token, !token.isEmpty else { return .success(nil) }
        do {
            return .success(try AuthContext.decode(token: token))
        } catch {
            return .failure(
                RequestError(status: .unauthenticated, message: "invalid X-Firebase-Auth-Token: \(error.message)"))
        }
    }

    /// Answers a refused subscription as the stream does: one response with the error, `cancelled: true`.
    private static func refuse(
        _ continuation: AsyncThrowingStream<StreamMessage, any Error>.Continuation, _ refusal: RequestError
    ) {
        let response = GraphQLResponse(
            data: nil, errors: [GraphQLError(message: refusal.message, code: refusal.status)])
        continuation.yield(StreamMessage(requestID: requestID, response: response, cancelled: true))
        continuation.finish()
    }
}

/// The registrations of the sequences whose consumers have not stopped.
private final class LiveRegistrations: Sendable {
    private let registrations = Mutex<[ObjectIdentifier: Registration]>([:])

    func add(_ registration: Registration) {
        registrations.withLock { $0[ObjectIdentifier(registration)] = registration }
    }

    func remove(_ registration: Registration) {
        registrations.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(registration)) }
    }

    func all() -> [Registration] {
        registrations.withLock { Array($0.values) }
    }
}

/// The hub's subscriber of one sequence, the user it was made as, and whether its consumer has stopped.
private final class Registration: Sendable {
    private let state = Mutex<(subscriber: SubscriptionHub.SubscriberID?, ended: Bool)>((nil, false))
    /// The uid of the caller it was made as; `nil` when signed out.
    let uid: String?

    init(uid: String?) {
        self.uid = uid
    }

    /// The live subscriber and its user; `nil` before the hub added it or once the consumer stopped.
    func current() -> (SubscriptionHub.SubscriberID, String?)? {
        state.withLock { state in
            guard !state.ended, let subscriber = state.subscriber else { return nil }
            return (subscriber, uid)
        }
    }

    /// The hub moved the subscriber to the group of the caller's new credentials.
    func moved(to subscriber: SubscriptionHub.SubscriberID) {
        state.withLock { state in
            if !state.ended { state.subscriber = subscriber }
        }
    }

    /// Notes the subscriber; returns whether the consumer has stopped already (the caller removes it then).
    func record(_ subscriber: SubscriptionHub.SubscriberID) -> Bool {
        state.withLock { state in
            state.subscriber = subscriber
            return state.ended
        }
    }

    /// Notes that the consumer stopped; returns the subscriber to remove, if there is one yet.
    func end() -> SubscriptionHub.SubscriberID? {
        state.withLock { state in
            state.ended = true
            return state.subscriber
        }
    }
}

/// Hands the hub's responses to a subscription's sequence.
private struct ContinuationSink: SubscriptionSink {
    let continuation: AsyncThrowingStream<StreamMessage, any Error>.Continuation

    func send(_ response: [UInt8]) {
        guard let message = Self.message(response) else { return }
        continuation.yield(message)
    }

    func finish(with response: [UInt8]) {
        if let message = Self.message(response) { continuation.yield(message) }
        continuation.finish()
    }

    /// Everything sent is buffered in the sequence already.
    func whenEnded(_ handler: @escaping @Sendable () -> Void) {
        handler()
    }

    /// A bare `StreamResponse` as the SDK's message; `nil` for bytes that are not one (never sent by the hub).
    private static func message(_ bytes: [UInt8]) -> StreamMessage? {
        guard let json = try? JSONValue(parsing: bytes), let response = try? StreamResponse(json: json) else {
            return nil
        }
        return StreamMessage(
            requestID: response.requestId,
            response: GraphQLResponse(data: response.data, errors: response.errors, extensions: response.extensions),
            dataEtag: response.dataEtag, cancelled: response.cancelled)
    }
}
