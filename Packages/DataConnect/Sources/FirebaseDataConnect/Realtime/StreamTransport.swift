import DataConnectEncoding
import DataConnectWire
import Foundation
import Synchronization

/// Realtime subscriptions and executes over the Data Connect WebSocket stream, with REST as the fallback.
///
/// One WebSocket connection carries every subscription of the transport, to
/// `ws[s]://{host}:{port}/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/{project}/locations/{location}/services/{service}`
/// (plus `?key=<apiKey>` when the app has an API key). Each request is one JSON text frame with a `requestId`
/// unique within the connection (`"1"`, `"2"`, …); the first carries the connector's `name` and the headers
/// (`X-Firebase-Auth-Token`, `X-Firebase-AppCheck`, `X-Goog-Api-Client`, `x-firebase-gmpid`, `X-Client-Version`).
/// Responses are routed to their request by `requestId`; text frames wrapped as `{"result": …}` and bare binary
/// frames are both accepted.
///
/// - **Subscriptions** (``subscribe(_:dataEtag:)``): a `subscribe` request each; the sequence yields every
///   response of that request. When the consumer stops, a `cancel` is sent. When no subscription is left (and no
///   execute is waiting), the connection is closed with code 1000. A `cancelled: true` response is yielded, then
///   the sequence finishes.
/// - **Executes** (``execute(_:)``): while at least one subscription is live, queries and mutations travel over
///   the stream, like the JS SDK. A query of an operation and variables already subscribed sends `resume` on the
///   subscription's request id and takes the next answer that arrives under it; the subscription's sequence does
///   not see a result in full again under the `dataEtag` it holds. Otherwise, or when the stream fails
///   before the answer, the operation goes through ``Configuration/fallback`` (REST). A mutation is never sent
///   twice: one in flight when the stream dies fails with "Stream terminated while waiting for mutation
///   response".
/// - **Disconnects**: when the connection fails, closes or stops answering pings (keep-alive), every live
///   subscription's sequence throws a ``TransportError``, so its owner reconnects (a new connection is opened by
///   the next subscribe) and resumes with its last `dataEtag`.
/// - **Authentication**: each request's token is compared with the one the connection last sent. A refreshed
///   token for the same user goes out in `headers` on the next frame. A token for another user (or a sign-in or
///   sign-out) ends every subscription with an error, fails waiting executes with "Authentication state change
///   occured while waiting for stream response", and closes the connection; the request then starts afresh.
///
/// ```swift
/// let rest = URLSessionTransport(configuration: .init(endpoint: endpoint, authTokenProvider: auth))
/// let stream = StreamTransport(configuration: .init(endpoint: endpoint, fallback: rest, authTokenProvider: auth))
/// for try await message in stream.subscribe(request, dataEtag: nil) { print(message.response.data ?? .null) }
/// let response = try await stream.execute(otherRequest)  // over the stream while the subscription is live
/// ```
public final class StreamTransport: SubscriptionTransport, Transport {
    /// Where the stream connects, what carries executes without it, and how a dead connection is noticed.
    public struct Configuration: Sendable {
        /// The service or emulator: `wss` when TLS is enabled, plain `ws` otherwise.
        public var endpoint: ServiceEndpoint
        /// Where executes go when no subscription holds the stream open, or the stream fails: the REST transport.
        public var fallback: any Transport
        /// Supplies the auth token of executes whose request carries none (subscribe requests carry their own).
        public var authTokenProvider: (any AuthTokenProvider)?
        /// The versions reported in the headers of the first frame.
        public var versions: ClientVersions
        /// How long the connection may be silent before a ping is sent.
        public var pingInterval: Duration
        /// How long a ping may go unanswered before the connection counts as dead and fails.
        public var pingTimeout: Duration
        /// How long connecting (TCP, TLS and the upgrade) may take.
        public var connectTimeout: Duration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - endpoint: The service or emulator; production by default.
        ///   - fallback: The transport for executes off the stream, usually a ``URLSessionTransport``.
        ///   - authTokenProvider: The source of tokens for executes without one.
        ///   - versions: The versions for the headers.
        ///   - pingInterval: Silence before a keep-alive ping; 30 seconds by default, as the gRPC keep-alive of the
        ///     Apple SDK.
        ///   - pingTimeout: Time for the answer; 10 seconds by default.
        ///   - connectTimeout: Time to connect; 20 seconds by default.
        public init(
            endpoint: ServiceEndpoint = .production, fallback: any Transport,
            authTokenProvider: (any AuthTokenProvider)? = nil, versions: ClientVersions = .current,
            pingInterval: Duration = .seconds(30), pingTimeout: Duration = .seconds(10),
            connectTimeout: Duration = .seconds(20)
        ) {
            self.endpoint = endpoint
            self.fallback = fallback
            self.authTokenProvider = authTokenProvider
            self.versions = versions
            self.pingInterval = pingInterval
            self.pingTimeout = pingTimeout
            self.connectTimeout = connectTimeout
        }
    }

    /// How an execute sent over the stream ended.
    private enum Outcome: Sendable {
        case response(GraphQLResponse)
        case failure(TransportError)
        /// The stream could not answer; send it through the fallback.
        case fallBack
    }

    private typealias MessageContinuation = AsyncThrowingStream<StreamMessage, any Error>.Continuation

    private struct Subscription {
        var key: String
        var continuation: MessageContinuation
        /// The last response with data, for a resume answered "unchanged".
        var lastResponse: GraphQLResponse?
        var lastEtag: String?
    }

    private struct PendingExecute {
        var ticket: Int
        var kind: OperationRequest.Kind
        var continuation: CheckedContinuation<Outcome, Never>
    }

    /// The live connection and everything waiting on it.
    private struct Connection {
        var id: Int
        var channel: any WebSocketChannel
        var nextRequestID = 1
        var sentFirst = false
        /// The token the server last received, and its user.
        var token: String?
        var uid: String?
        var subscriptions: [String: Subscription] = [:]
        var executes: [String: PendingExecute] = [:]
        /// Executes answered by a `resume`, by the subscription's request id.
        var resumes: [String: [PendingExecute]] = [:]

        var isIdle: Bool { subscriptions.isEmpty && executes.isEmpty && resumes.isEmpty }

        mutating func nextID() -> String {
            defer { nextRequestID += 1 }
            return String(nextRequestID)
        }
    }

    private struct State {
        var connection: Connection?
        var nextConnectionID = 0
        var nextTicket = 0
        /// Executes whose task was cancelled before they were registered.
        var cancelledTickets: Set<Int> = []
    }

    /// Work decided under the lock and done after it: finishing a stream runs its termination handler, which
    /// takes the lock again. (Frames are not among it: they are queued on the channel under the lock, so that
    /// they leave in the order they were prepared.)
    private struct Effects {
        var closes: [(any WebSocketChannel, WebSocketCloseCode, String)] = []
        var yields: [(MessageContinuation, StreamMessage)] = []
        var finishes: [(MessageContinuation, (any Error)?)] = []
        var resumes: [(CheckedContinuation<Outcome, Never>, Outcome)] = []

        func run() {
            for (channel, code, reason) in closes { channel.close(code: code, reason: reason) }
            for (continuation, message) in yields { continuation.yield(message) }
            for (continuation, error) in finishes {
                if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            }
            for (continuation, outcome) in resumes { continuation.resume(returning: outcome) }
        }
    }

    /// The message a mutation in flight fails with when the stream dies.
    static let mutationTerminatedMessage = "Stream terminated while waiting for mutation response"
    /// The message waiting executes fail with when the user changes (spelled as the Firebase SDKs spell it).
    static let authenticationChangedMessage = "Authentication state change occured while waiting for stream response"

    /// The configuration in use.
    public let configuration: Configuration
    private let connector: WebSocketConnector
    private let state = Mutex(State())

    /// Creates a transport; it connects on the first subscription.
    ///
    /// - Parameter configuration: The endpoint, the REST fallback, the token provider and the keep-alive.
    public convenience init(configuration: Configuration) {
        var options = WebSocketConnection.Options()
        let interval = max(1, configuration.pingInterval.components.seconds)
        options.pingAfterSeconds = UInt16(clamping: interval)
        options.hangUpAfterSeconds = UInt16(clamping: interval + max(1, configuration.pingTimeout.components.seconds))
        options.connectTimeoutSeconds = UInt32(clamping: max(1, configuration.connectTimeout.components.seconds))
        self.init(configuration: configuration, connector: WebSocketConnection.connector(options: options))
    }

    /// Creates a transport that opens its connections with `connector` (a scripted channel in tests).
    init(configuration: Configuration, connector: @escaping WebSocketConnector) {
        self.configuration = configuration
        self.connector = connector
    }

    /// The address of the stream for `connector`: the endpoint's host and port, `wss` with TLS, and `?key=` when
    /// there is an API key.
    ///
    /// ```swift
    /// StreamTransport.url(for: connector, endpoint: ServiceEndpoint(emulator: EmulatorConfiguration()), apiKey: nil)
    /// // ws://127.0.0.1:9399/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/demo/locations/us-central1/services/movies
    /// ```
    ///
    /// - Parameters:
    ///   - connector: The connector; its project, location and service pick the stream.
    ///   - endpoint: The service or emulator.
    ///   - apiKey: The app's API key, if any.
    /// - Returns: The `ws` or `wss` URL.
    public static func url(for connector: ConnectorResourceName, endpoint: ServiceEndpoint, apiKey: String?) -> String {
        address(for: connector, endpoint: endpoint, apiKey: apiKey).url
    }

    static func address(
        for connector: ConnectorResourceName, endpoint: ServiceEndpoint, apiKey: String?
    )
        -> WebSocketAddress
    {
        var target = StreamFrame.path(for: connector)
        if let apiKey, !apiKey.isEmpty {
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
            target += "?key=" + (apiKey.addingPercentEncoding(withAllowedCharacters: allowed) ?? apiKey)
        }
        return WebSocketAddress(host: endpoint.host, port: endpoint.port, secure: endpoint.sslEnabled, target: target)
    }

    deinit {
        // The connection's thread would keep it open for nobody: close it, and end what still waits on it.
        let effects = state.withLock { state -> Effects in
            var effects = Effects()
            if let channel = state.connection?.channel {
                effects.closes.append((channel, WebSocketCloseCode.goingAway, ""))
            }
            Self.endConnection(&state, &effects, error: .cancelled)
            return effects
        }
        effects.run()
    }

    /// Whether a connection is open or opening.
    public var isConnected: Bool {
        state.withLock { $0.connection != nil }
    }

    /// How many subscriptions the connection carries.
    var liveSubscriptionCount: Int {
        state.withLock { $0.connection?.subscriptions.count ?? 0 }
    }

    // MARK: - Subscriptions

    /// Subscribes to a query over the stream, opening the connection if there is none.
    ///
    /// The request's own token (`metadata.authToken`) is sent; when it has none and a token provider is
    /// configured, the provider's token is.
    ///
    /// - Parameters:
    ///   - request: The query, its variables and header context.
    ///   - dataEtag: The etag of the result the caller holds; the server may then answer "unchanged" (the same
    ///     etag and no data) instead of resending it.
    /// - Returns: Every response of the subscription; it throws a ``TransportError`` when the connection dies.
    public func subscribe(
        _ request: OperationRequest, dataEtag: String?
    ) -> AsyncThrowingStream<StreamMessage, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamMessage.self, throwing: (any Error).self)
        // Installed first: a consumer may stop before the request is registered (while a token is fetched).
        let handle = SubscriptionHandle()
        continuation.onTermination = { [weak self] _ in
            guard let (connectionID, requestID) = handle.terminate() else { return }
            self?.endSubscription(connectionID: connectionID, requestID: requestID)
        }
        if request.metadata.authToken == nil, let provider = configuration.authTokenProvider {
            Task {
                do {
                    let token = try await provider.token(forcingRefresh: false)
                    self.start(request, token: token, dataEtag: dataEtag, continuation: continuation, handle: handle)
                } catch {
                    continuation.finish(throwing: TransportError.authentication(String(describing: error)))
                }
            }
        } else {
            start(
                request, token: request.metadata.authToken, dataEtag: dataEtag, continuation: continuation,
                handle: handle)
        }
        return stream
    }

    /// Where a subscription was registered, for its termination handler, which may run before that.
    private final class SubscriptionHandle: Sendable {
        private struct State {
            var registered: (connectionID: Int, requestID: String)?
            var terminated = false
        }

        private let state = Mutex(State())

        /// Records the registration; returns it when the consumer already stopped, to be ended at once.
        func register(connectionID: Int, requestID: String) -> (Int, String)? {
            state.withLock { state in
                state.registered = (connectionID, requestID)
                return state.terminated ? (connectionID, requestID) : nil
            }
        }

        /// Records the end; returns the registration to end, if there is one.
        func terminate() -> (Int, String)? {
            state.withLock { state in
                state.terminated = true
                return state.registered
            }
        }
    }

    private func start(
        _ request: OperationRequest, token: String?, dataEtag: String?, continuation: MessageContinuation,
        handle: SubscriptionHandle
    ) {
        let effects = state.withLock { state -> (Effects, (connectionID: Int, requestID: String)) in
            var effects = Effects()
            if let connection = state.connection, connection.uid != Self.uid(of: token) {
                Self.endForAuthenticationChange(&state, &effects)
            }
            if state.connection == nil { state.connection = openConnection(&state, request: request, token: token) }
            guard var connection = state.connection else { return (effects, (0, "")) }
            let requestID = connection.nextID()
            let frame = Self.prepare(
                &connection, request: request, token: token, versions: configuration.versions, id: requestID,
                kind: .subscribe(.init(operationName: request.operationName, variables: request.variables)),
                dataEtag: dataEtag)
            connection.subscriptions[requestID] = Subscription(
                key: StreamFrame.key(operationName: request.operationName, variables: request.variables),
                continuation: continuation, lastEtag: dataEtag)
            // Sent under the lock (sending only queues), so frames leave in the order they were prepared: the first,
            // which names the connector, before any other.
            connection.channel.send(text: frame)
            state.connection = connection
            return (effects, (connection.id, requestID))
        }
        effects.0.run()
        if let (connectionID, requestID) = handle.register(
            connectionID: effects.1.connectionID, requestID: effects.1.requestID)
        {
            endSubscription(connectionID: connectionID, requestID: requestID)
        }
    }

    /// Sends a refreshed ID token on the live connection, in a frame that carries only `headers`, so that the
    /// server checks each live subscription against it (one whose claim is gone ends with PERMISSION_DENIED).
    ///
    /// A token of another user, or none, ends the connection's subscriptions and waiting executes, as a request
    /// carrying it would; subscribers then restart with it. Without a live connection, or when the server has the
    /// token already, nothing is sent.
    ///
    /// - Parameter token: The new ID token, or `nil` when signed out.
    public func authTokenChanged(_ token: String?) {
        let effects = state.withLock { state -> Effects in
            var effects = Effects()
            guard var connection = state.connection, connection.sentFirst else { return effects }
            if connection.uid != Self.uid(of: token) {
                Self.endForAuthenticationChange(&state, &effects)
                return effects
            }
            guard connection.token != token else { return effects }
            connection.token = token
            connection.channel.send(
                text: StreamFrame.request(id: nil, kind: nil, headers: [("X-Firebase-Auth-Token", token ?? "")]))
            state.connection = connection
            return effects
        }
        effects.run()
    }

    /// The consumer stopped: cancel the subscription on the server, and close an idle connection.
    private func endSubscription(connectionID: Int, requestID: String) {
        let effects = state.withLock { state -> Effects in
            var effects = Effects()
            guard var connection = state.connection, connection.id == connectionID,
                connection.subscriptions.removeValue(forKey: requestID) != nil
            else { return effects }
            connection.channel.send(text: StreamFrame.request(id: requestID, kind: .cancel))
            for waiting in connection.resumes.removeValue(forKey: requestID) ?? [] {
                effects.resumes.append((waiting.continuation, .fallBack))
            }
            state.connection = connection
            Self.closeIfIdle(&state, &effects)
            return effects
        }
        effects.run()
    }

    // MARK: - Executes

    /// Runs a query or mutation: over the stream while a subscription holds it open, otherwise through the
    /// fallback transport.
    ///
    /// - Parameter request: The operation; without a token of its own, the provider's is used on the stream.
    /// - Returns: The response, with partial data and execution errors kept.
    /// - Throws: ``TransportError``: the fallback's errors; `.connection` for a mutation in flight when the stream
    ///   died, or for an execute waiting when the user changed; `.cancelled` when the calling task is cancelled.
    public func execute(_ request: OperationRequest) async throws(TransportError) -> GraphQLResponse {
        guard state.withLock({ !($0.connection?.subscriptions.isEmpty ?? true) }) else {
            return try await configuration.fallback.execute(request)
        }
        var token = request.metadata.authToken
        if token == nil, let provider = configuration.authTokenProvider {
            do {
                token = try await provider.token(forcingRefresh: false)
            } catch {
                throw .authentication(String(describing: error))
            }
        }
        let ticket = state.withLock { state -> Int in
            state.nextTicket += 1
            return state.nextTicket
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                route(request, token: token, ticket: ticket, continuation: continuation)
            }
        } onCancel: {
            cancelExecute(ticket: ticket)
        }
        switch outcome {
        case .response(let response): return response
        case .failure(let error): throw error
        case .fallBack: return try await configuration.fallback.execute(request)
        }
    }

    /// Sends an execute (or a resume) over the live stream, or answers `.fallBack` at once.
    private func route(
        _ request: OperationRequest, token: String?, ticket: Int, continuation: CheckedContinuation<Outcome, Never>
    ) {
        let effects = state.withLock { state -> Effects in
            var effects = Effects()
            if state.cancelledTickets.remove(ticket) != nil {
                effects.resumes.append((continuation, .failure(.cancelled)))
                return effects
            }
            if let connection = state.connection, connection.uid != Self.uid(of: token) {
                Self.endForAuthenticationChange(&state, &effects)
            }
            guard var connection = state.connection, !connection.subscriptions.isEmpty else {
                effects.resumes.append((continuation, .fallBack))
                return effects
            }
            let pending = PendingExecute(ticket: ticket, kind: request.kind, continuation: continuation)
            let key = StreamFrame.key(operationName: request.operationName, variables: request.variables)
            let frame: [UInt8]
            if request.kind == .query,
                let subscriptionID = connection.subscriptions.first(where: { $0.value.key == key })?.key
            {
                frame = Self.prepare(
                    &connection, request: request, token: token, versions: configuration.versions, id: subscriptionID,
                    kind: .resume)
                connection.resumes[subscriptionID, default: []].append(pending)
            } else {
                let requestID = connection.nextID()
                frame = Self.prepare(
                    &connection, request: request, token: token, versions: configuration.versions, id: requestID,
                    kind: .execute(.init(operationName: request.operationName, variables: request.variables)))
                connection.executes[requestID] = pending
            }
            // Sent under the lock (sending only queues), so frames leave in the order they were prepared: the first,
            // which names the connector, before any other.
            connection.channel.send(text: frame)
            state.connection = connection
            return effects
        }
        effects.run()
    }

    /// The calling task of an execute was cancelled: stop waiting for its answer.
    private func cancelExecute(ticket: Int) {
        let effects = state.withLock { state -> Effects in
            var effects = Effects()
            guard var connection = state.connection else {
                state.cancelledTickets.insert(ticket)
                return effects
            }
            if let (requestID, pending) = connection.executes.first(where: { $0.value.ticket == ticket }) {
                connection.executes[requestID] = nil
                effects.resumes.append((pending.continuation, .failure(.cancelled)))
            } else if let (subscriptionID, waiting) = connection.resumes.first(where: {
                $0.value.contains { $0.ticket == ticket }
            }) {
                connection.resumes[subscriptionID] = waiting.filter { $0.ticket != ticket }
                if connection.resumes[subscriptionID]?.isEmpty == true { connection.resumes[subscriptionID] = nil }
                for cancelled in waiting where cancelled.ticket == ticket {
                    effects.resumes.append((cancelled.continuation, .failure(.cancelled)))
                }
            } else {
                state.cancelledTickets.insert(ticket)
            }
            state.connection = connection
            Self.closeIfIdle(&state, &effects)
            return effects
        }
        effects.run()
    }

    // MARK: - The connection

    /// Opens a connection for `request`'s connector; its events come back through ``receive(_:connectionID:)``.
    private func openConnection(_ state: inout State, request: OperationRequest, token: String?) -> Connection {
        state.nextConnectionID += 1
        let id = state.nextConnectionID
        let address = Self.address(
            for: request.connector, endpoint: configuration.endpoint, apiKey: request.metadata.apiKey)
        let channel = connector(address) { [weak self] event in self?.receive(event, connectionID: id) }
        return Connection(id: id, channel: channel, token: token, uid: Self.uid(of: token))
    }

    /// Encodes a request for `connection`: the connector name and all headers on its first frame, the token
    /// again whenever it changed.
    private static func prepare(
        _ connection: inout Connection, request: OperationRequest, token: String?, versions: ClientVersions,
        id: String, kind: StreamFrame.Kind, dataEtag: String? = nil
    ) -> [UInt8] {
        var name: String?
        var headers: [(name: String, value: String)] = []
        if !connection.sentFirst {
            connection.sentFirst = true
            connection.token = token
            name = request.connector.path
            headers = URLSessionTransport.headers(for: request, authToken: token, versions: versions)
                .filter { StreamFrame.headerNames.contains($0.name) }
        } else if token != connection.token {
            connection.token = token
            headers = [("X-Firebase-Auth-Token", token ?? "")]
        }
        return StreamFrame.request(id: id, kind: kind, name: name, headers: headers, dataEtag: dataEtag)
    }

    /// One event of connection `connectionID`; events of a connection that was replaced are ignored.
    private func receive(_ event: WebSocketEvent, connectionID: Int) {
        let effects = state.withLock { state -> Effects in
            var effects = Effects()
            guard state.connection?.id == connectionID else { return effects }
            switch event {
            case .opened:
                break
            case .text(let bytes), .binary(let bytes):
                let binary = if case .binary = event { true } else { false }
                do throws(TransportError) {
                    let message = try StreamFrame.response(bytes, binary: binary)
                    Self.route(message, &state, &effects)
                } catch {
                    if let channel = state.connection?.channel {
                        effects.closes.append((channel, WebSocketCloseCode.protocolError, "not a stream response"))
                    }
                    Self.endConnection(&state, &effects, error: error)
                }
            case .closed(let code, let reason):
                let described = code.map { "with code \($0)" } ?? "without a code"
                Self.endConnection(
                    &state, &effects,
                    error: .connection(
                        "the stream closed \(described)\(reason.isEmpty ? "" : ": \(reason)")",
                        code: URLErrorCodes.networkConnectionLost))
            case .failed(let error):
                Self.endConnection(&state, &effects, error: error)
            }
            return effects
        }
        effects.run()
    }

    /// Hands a response to the execute or subscription waiting for its request id.
    private static func route(_ message: StreamMessage, _ state: inout State, _ effects: inout Effects) {
        guard var connection = state.connection else { return }
        defer {
            state.connection = connection
            closeIfIdle(&state, &effects)
        }
        let id = message.requestID
        if let pending = connection.executes.removeValue(forKey: id) {
            if !message.cancelled {
                effects.resumes.append((pending.continuation, .response(message.response)))
            } else if pending.kind == .query {
                effects.resumes.append((pending.continuation, .fallBack))
            } else {
                let reason = message.response.errors.first?.message ?? "the server cancelled the mutation"
                effects.resumes.append(
                    (pending.continuation, .failure(.connection(reason, code: URLErrorCodes.networkConnectionLost))))
            }
            return
        }
        guard var subscription = connection.subscriptions[id] else { return }
        let hasData = message.response.data.map { !$0.isNull } ?? false
        let sameResult =
            message.response.errors.isEmpty && message.dataEtag != nil && message.dataEtag == subscription.lastEtag
        let unchanged = !hasData && sameResult
        if hasData { subscription.lastResponse = message.response }
        if message.dataEtag != nil || hasData { subscription.lastEtag = message.dataEtag }
        let resumes = connection.resumes.removeValue(forKey: id) ?? []
        for waiting in resumes {
            if message.cancelled {
                effects.resumes.append((waiting.continuation, .fallBack))
            } else if unchanged {
                // "Unchanged" carries no data: answer with the last data, or ask REST when there is none yet.
                effects.resumes.append(
                    (waiting.continuation, subscription.lastResponse.map { .response($0) } ?? .fallBack))
            } else {
                effects.resumes.append((waiting.continuation, .response(message.response)))
            }
        }
        // The result the subscription already holds is not news: in full under its etag, it is a resume's answer (a
        // resume carries no etag, so it is answered in full) after a push that brought it; without data while a
        // resume waits, it answers the resume. The subscriber does not see it again. "Unchanged" with no resume
        // waiting (a `@refresh` tick) goes through.
        if message.cancelled || !sameResult || (!hasData && resumes.isEmpty) {
            effects.yields.append((subscription.continuation, message))
        }
        if message.cancelled {
            connection.subscriptions[id] = nil
            effects.finishes.append((subscription.continuation, nil))
        } else {
            connection.subscriptions[id] = subscription
        }
    }

    /// The connection is gone: subscriptions fail, queries fall back to REST, mutations fail.
    private static func endConnection(_ state: inout State, _ effects: inout Effects, error: TransportError) {
        guard let connection = state.connection else { return }
        state.connection = nil
        for subscription in connection.subscriptions.values {
            effects.finishes.append((subscription.continuation, error))
        }
        for pending in connection.executes.values {
            effects.resumes.append(
                (
                    pending.continuation,
                    pending.kind == .query
                        ? .fallBack
                        : .failure(.connection(mutationTerminatedMessage, code: URLErrorCodes.networkConnectionLost))
                ))
        }
        for pending in connection.resumes.values.joined() {
            effects.resumes.append((pending.continuation, .fallBack))
        }
    }

    /// The user changed: end every subscription and waiting execute with an error and close the connection.
    private static func endForAuthenticationChange(_ state: inout State, _ effects: inout Effects) {
        guard let connection = state.connection else { return }
        state.connection = nil
        let error = TransportError.connection(authenticationChangedMessage, code: URLErrorCodes.networkConnectionLost)
        for subscription in connection.subscriptions.values {
            effects.finishes.append((subscription.continuation, error))
        }
        for pending in Array(connection.executes.values) + Array(connection.resumes.values.joined()) {
            effects.resumes.append((pending.continuation, .failure(error)))
        }
        effects.closes.append((connection.channel, WebSocketCloseCode.normal, "authentication changed"))
    }

    /// Closes the connection with code 1000 when nothing uses it any more.
    private static func closeIfIdle(_ state: inout State, _ effects: inout Effects) {
        guard let connection = state.connection, connection.isIdle else { return }
        state.connection = nil
        effects.closes.append((connection.channel, WebSocketCloseCode.normal, ""))
    }

    private static func uid(of token: String?) -> String? {
        token.flatMap(TokenSubject.uid(fromToken:))
    }
}
