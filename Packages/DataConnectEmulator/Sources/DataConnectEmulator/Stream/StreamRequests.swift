import DataConnectEngine
import DataConnectWire
import Synchronization

/// The requests of one realtime stream (`ConnectorStreamService.Connect`), whatever carries it: a WebSocket
/// (``StreamSession``, JSON frames) or a gRPC bidirectional stream (``GRPCStreamSession``, protobuf messages). Requests
/// are multiplexed by request id.
///
/// - `name` (`projects/{p}/locations/{l}/services/{s}/connectors/{c}`) names the connector; it is required before
///   the first `subscribe` or `execute`, and a later one switches the connector for later requests.
/// - `headers` with `X-Firebase-Auth-Token` (or `authToken`) sets the caller for later requests. When the token
///   names another user than before (or none), the live subscriptions made as another user end with
///   `cancelled: true`: a stream speaks for one user at a time. A refreshed token of the same user is checked
///   against each live subscription as a new subscription would be: one the caller may no longer read ends with
///   `cancelled: true` and the error a new request would get (PERMISSION_DENIED when a claim its `@auth(expr:)`
///   needs is gone); the others are computed with the new claims from then on.
/// - `subscribe` adds a subscriber to the hub under the request id; `execute` runs a query or mutation once
///   (mutations reach the hub as REST ones do); `resume` asks for a live subscription's current result;
///   `cancel` ends a subscription silently (the client has forgotten the id already).
/// - A request the emulator refuses gets one response with an error under its id (`extensions.code` is the
///   status); a refused `subscribe` carries `cancelled: true`. The stream stays open.
final class StreamRequests: Sendable {
    private let responder: EmulatorResponder
    /// The service the stream's path named, if it named one (the WebSocket route does).
    private let pathService: String?
    private let remoteAddress: String
    private let state: Mutex<State>

    private struct State {
        var connector: String?
        /// The caller for the next request, or why its token was refused.
        var auth: Result<AuthContext?, RequestError>
        var subscriptions: [String: Subscription] = [:]
        var nextToken: UInt64 = 1
        var heartbeat: UInt64?
    }

    /// A live subscription of this stream.
    private struct Subscription {
        /// Tells this subscription from a later one under the same request id.
        let token: UInt64
        var subscriber: SubscriptionHub.SubscriberID?
        let uid: String?
    }

    /// Creates the requests of a stream opened by `remoteAddress`, with the caller its opening request's token
    /// names (`nil`: none).
    init(responder: EmulatorResponder, pathService: String?, remoteAddress: String?, authToken: String?) {
        self.responder = responder
        self.pathService = pathService
        self.remoteAddress = remoteAddress ?? "unknown"
        var auth: Result<AuthContext?, RequestError> = .success(nil)
        if let authToken { auth = Self.decode(token: authToken) }
        state = Mutex(State(auth: auth))
    }

    private var hub: SubscriptionHub { responder.hub }

    /// Registers the stream's heartbeat with the hub (the transport's keep-alive ping).
    func opened(heartbeat: @escaping @Sendable () -> Void) {
        let registration = hub.addHeartbeat(heartbeat)
        state.withLock { $0.heartbeat = registration }
    }

    /// Ends every live subscription of the stream: its transport closed.
    func closed() {
        let (subscriptions, heartbeat) = state.withLock { state in
            defer {
                state.subscriptions = [:]
                state.heartbeat = nil
            }
            return (Array(state.subscriptions.values), state.heartbeat)
        }
        if let heartbeat { hub.removeHeartbeat(heartbeat) }
        for subscription in subscriptions {
            if let subscriber = subscription.subscriber { hub.removeSubscriber(subscriber) }
        }
    }

    // MARK: Requests

    func handle(_ request: StreamRequest, via output: any StreamOutput) {
        if let name = request.name {
            switch responder.connector(ofName: name, pathService: pathService) {
            case .success(let connector): state.withLock { $0.connector = connector }
            case .failure(let error):
                if let requestId = request.requestId, request.kind != nil {
                    return sendError(output, requestId, error.status, error.message)
                }
                return sendStreamError(output, error.status, error.message)
            }
        }
        if request.headers != nil, let token = request.authToken {
            reauthenticate(token)
        }
        guard let kind = request.kind else { return }
        guard let requestId = request.requestId else {
            return sendStreamError(output, .invalidArgument, "\"requestId\" is required with a request kind")
        }
        switch kind {
        case .subscribe(let operation):
            subscribe(requestId, operation, dataEtag: request.dataEtag, via: output)
        case .execute(let operation):
            execute(requestId, operation, via: output)
        case .resume:
            let subscriber = state.withLock { $0.subscriptions[requestId]?.subscriber }
            guard let subscriber, hub.resume(subscriber, dataEtag: request.dataEtag) else {
                return sendError(
                    output, requestId, .notFound, "no live subscription has request id \"\(requestId)\"")
            }
        case .cancel:
            let removed = state.withLock { $0.subscriptions.removeValue(forKey: requestId) }
            if let subscriber = removed?.subscriber { hub.removeSubscriber(subscriber) }
        }
    }

    /// The caller and connector for a `subscribe` or `execute`, or the error to answer with.
    private func caller() -> Result<(String, AuthContext?), RequestError> {
        state.withLock { state in
            guard let connector = state.connector else {
                return .failure(
                    RequestError(
                        status: .invalidArgument,
                        message:
                            "\"name\" (projects/{p}/locations/{l}/services/{s}/connectors/{c}) is required on the "
                            + "stream's first request"))
            }
            return state.auth.map { (connector, $0) }
        }
    }

    private func subscribe(
        _ requestId: String, _ operation: StreamRequest.Operation, dataEtag: String?, via output: any StreamOutput
    ) {
        let (connector, auth): (String, AuthContext?)
        switch caller() {
        case .success(let found): (connector, auth) = found
        case .failure(let error): return sendError(output, requestId, error.status, error.message, cancelled: true)
        }
        let token = state.withLock { state -> UInt64? in
            guard state.subscriptions[requestId] == nil else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            state.subscriptions[requestId] = Subscription(token: token, subscriber: nil, uid: auth?.uid)
            return token
        }
        guard let token else {
            return sendError(
                output, requestId, .alreadyExists, "request id \"\(requestId)\" is already a live subscription")
        }
        let sink = output.makeSink(requestId: requestId) { [weak self] in
            self?.subscriptionEnded(requestId, token: token)
        }
        let clientKey = auth?.uid.map { "uid:" + $0 } ?? "address:" + remoteAddress
        switch hub.addSubscriber(
            connector: connector, operationName: operation.operationName, variables: operation.variables, auth: auth,
            requestId: requestId, dataEtag: dataEtag, clientKey: clientKey, sink: sink)
        {
        case .success(let subscriber):
            let stale = state.withLock { state -> Bool in
                guard state.subscriptions[requestId]?.token == token else { return true }
                state.subscriptions[requestId]?.subscriber = subscriber
                return false
            }
            // Cancelled (or the connection closed) while the hub was adding it.
            if stale { hub.removeSubscriber(subscriber) }
        case .failure(let error):
            subscriptionEnded(requestId, token: token)
            sendError(output, requestId, error.status, error.message, cancelled: true)
        }
    }

    private func subscriptionEnded(_ requestId: String, token: UInt64) {
        state.withLock { state in
            if state.subscriptions[requestId]?.token == token { state.subscriptions[requestId] = nil }
        }
    }

    private func execute(_ requestId: String, _ operation: StreamRequest.Operation, via output: any StreamOutput) {
        let (connector, auth): (String, AuthContext?)
        switch caller() {
        case .success(let found): (connector, auth) = found
        case .failure(let error): return sendError(output, requestId, error.status, error.message)
        }
        if state.withLock({ $0.subscriptions[requestId] != nil }) {
            return sendError(
                output, requestId, .alreadyExists, "request id \"\(requestId)\" is already a live subscription")
        }
        output.run { [self] in run(requestId, operation, connector: connector, auth: auth, via: output) }
    }

    /// Runs a stream's `execute` and answers it.
    private func run(
        _ requestId: String, _ operation: StreamRequest.Operation, connector: String, auth: AuthContext?,
        via output: any StreamOutput
    ) {
        let engine = responder.engine
        let mutation = engine.isMutation(connector: connector, operationName: operation.operationName) ?? false
        let response = engine.execute(
            EngineRequest(
                kind: .connector(connector: connector, operationName: operation.operationName, mutation: mutation),
                variables: operation.variables, auth: auth, enforceAuth: true))
        if let effect = response.mutation { hub.mutationExecuted(effect) }
        guard response.status == .ok, response.body.count >= 2 else {
            let error = RequestError(engineResponse: response)
            return sendError(output, requestId, error.status, error.message)
        }
        // `{"data":…,"errors":…,"extensions":…}` becomes `{"requestId":…,"data":…,…,"cancelled":false}`.
        var frame = Array(#"{"requestId":"#.utf8)
        frame += JSONValue.string(requestId).serialized()
        frame.append(UInt8(ascii: ","))
        frame += response.body[1..<(response.body.count - 1)]
        if !mutation {
            frame += Array(#","dataEtag":"\#(SubscriptionHub.etag(response.body))""#.utf8)
        }
        frame += Array(#","cancelled":false}"#.utf8)
        output.send(response: frame)
    }

    // MARK: Auth and names

    /// Takes a new token for the stream's caller and checks every live subscription again under it.
    ///
    /// A subscription made as another user than the token names (or signed out) ends: with the error a new
    /// request would get when the new caller may not read it (UNAUTHENTICATED once signed out of a query that
    /// needs a user), else with CANCELLED, since the stream speaks for one user at a time. One of the same user is checked again as a new subscription would be: when
    /// the caller may no longer read it (a claim its `@auth(expr:)` needs is gone, or the token was refused), it
    /// ends with `cancelled: true` and the error a new request would get; otherwise its later results are
    /// computed with the new token's claims.
    private func reauthenticate(_ token: String) {
        let auth = token.isEmpty ? .success(nil) : Self.decode(token: token)
        let newUID = (try? auth.get())?.uid
        let (otherUser, sameUser) = state.withLock {
            state -> ([SubscriptionHub.SubscriberID], [(String, UInt64, SubscriptionHub.SubscriberID)]) in
            state.auth = auth
            var otherUser: [SubscriptionHub.SubscriberID] = []
            var sameUser: [(String, UInt64, SubscriptionHub.SubscriberID)] = []
            for (requestId, subscription) in state.subscriptions {
                guard let subscriber = subscription.subscriber else { continue }
                if subscription.uid == newUID {
                    sameUser.append((requestId, subscription.token, subscriber))
                } else {
                    otherUser.append(subscriber)
                    state.subscriptions[requestId] = nil
                }
            }
            return (otherUser, sameUser)
        }
        for subscriber in otherUser {
            // Ended either way; the error says what a new request would get when that is a refusal.
            if case .kept(let moved) = hub.reauthorize(subscriber, auth: try? auth.get()) {
                hub.cancel(
                    moved,
                    reason: "the stream now speaks for another user; subscriptions made as the previous user have ended"
                )
            }
        }
        for (requestId, token, subscriber) in sameUser {
            let outcome: SubscriptionHub.Reauthorization
            switch auth {
            case .success(let caller): outcome = hub.reauthorize(subscriber, auth: caller)
            case .failure(let error): outcome = hub.cancel(subscriber, error: error) ? .ended(error) : .gone
            }
            state.withLock { state in
                guard state.subscriptions[requestId]?.token == token else { return }
                if case .kept(let id) = outcome {
                    state.subscriptions[requestId]?.subscriber = id
                } else {
                    state.subscriptions[requestId] = nil
                }
            }
        }
    }

    private static func decode(token: String) -> Result<AuthContext?, RequestError> {
        guard !token.isEmpty else { return .success(nil) }
        do {
            return .success(try AuthContext.decode(token: token))
        } catch {
            return .failure(
                RequestError(status: .unauthenticated, message: "invalid X-Firebase-Auth-Token: \(error.message)"))
        }
    }

    // MARK: Responses

    private func sendError(
        _ output: any StreamOutput, _ requestId: String, _ status: StatusCode, _ message: String,
        cancelled: Bool = false
    ) {
        let response = StreamResponse(
            requestId: requestId, errors: [GraphQLError(message: message, code: status)], cancelled: cancelled)
        output.send(response)
    }

    private func sendStreamError(_ output: any StreamOutput, _ status: StatusCode, _ message: String) {
        output.sendStreamError(RequestError(status: status, message: message))
    }
}
