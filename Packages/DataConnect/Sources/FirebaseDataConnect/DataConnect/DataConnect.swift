import DataConnectCache
import DataConnectWire
import FirebaseCore
import Foundation
import Synchronization

/// The entry point: one instance per app and connector, creating query and mutation refs.
///
/// Requests go to the service in ``settings``, to the emulator after ``useEmulator(host:port:)``, or to the
/// address in `FIREBASE_DATA_CONNECT_EMULATOR_HOST` when that is set and `useEmulator` was not called.
///
/// ```swift
/// FirebaseApp.configure(options: FirebaseOptions(projectID: "demo"))
/// let dataConnect = DataConnect.dataConnect(
///     connectorConfig: ConnectorConfig(serviceId: "movies", location: "us-central1", connector: "movies"))
/// dataConnect.useEmulator()
/// let movies = try await dataConnect.query(
///     name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self
/// ).execute()
/// ```
public final class DataConnect: Sendable {
    /// The emulator's default address.
    public enum EmulatorDefaults {
        /// `127.0.0.1`.
        public static let host = EmulatorConfiguration.defaultHost
        /// `9399`.
        public static let port = EmulatorConfiguration.defaultPort
    }

    private struct InstanceKey: Hashable {
        var appName: String
        var projectID: String
        var connectorConfig: ConnectorConfig
    }

    private struct WeakRef {
        weak var ref: AnyObject?
    }

    private struct State {
        var emulator: EmulatorConfiguration?
        var authTokenProvider: (any AuthTokenProvider)?
        var appCheckTokenProvider: (any AppCheckTokenProvider)?
        /// REST under the realtime stream, which also carries executes while a subscription is live.
        var liveTransport: StreamTransport?
        /// The realtime stream when operations go to an injected transport.
        var subscriptionStream: StreamTransport?
        var queryRefs: [OperationKey: WeakRef] = [:]
        var userWatch: Task<Void, Never>?
        /// Whether the provider's changes are watched (from the first use of the default provider, or from
        /// ``setAuthTokenProvider(_:)``).
        var watchingProvider = false
    }

    private static let instances = Mutex<[InstanceKey: DataConnect]>([:])

    /// The app whose project and credentials are used.
    public let app: FirebaseApp
    /// The connector this instance talks to.
    public let connectorConfig: ConnectorConfig
    /// The settings given when the instance was created.
    public let settings: DataConnectSettings
    /// Whether application code or generated code calls this instance.
    public let callerSDKType: CallerSDKType
    /// The connector's resource name.
    let connector: ConnectorResourceName
    private let environment: [String: String]
    private let injectedTransport: (any Transport)?
    private let state = Mutex(State())
    /// The client cache, when ``settings`` has cache settings.
    let cache: ClientCache?
    private let injectedSubscriptionTransport: (any SubscriptionTransport)?
    /// How realtime subscriptions reconnect.
    let reconnectPolicy: ReconnectPolicy
    /// Where this instance and its refs log; the process's level and standard error unless injected.
    let logger: DataConnectLogger

    /// Returns the instance for `app` and `connectorConfig`, creating it on first use.
    ///
    /// The first call for an app and connector wins: later calls get the same instance whatever `settings` and
    /// `callerSDKType` they pass, as upstream.
    ///
    /// - Parameters:
    ///   - app: The app; the default app when `nil`. It must exist and have a project ID.
    ///   - connectorConfig: The connector.
    ///   - settings: Where to send requests; production by default.
    ///   - callerSDKType: `.generated` for generated code.
    /// - Returns: The shared instance.
    public static func dataConnect(
        app: FirebaseApp? = nil, connectorConfig: ConnectorConfig,
        settings: DataConnectSettings = DataConnectSettings(), callerSDKType: CallerSDKType = .base
    ) -> DataConnect {
        // Unlike upstream, a missing default app is not a crash: it is configured from the environment, or as
        // the emulator's demo project (see `FirebaseApp.configure()`).
        if app == nil && FirebaseApp.app() == nil { FirebaseApp.configure() }
        guard let app = app ?? FirebaseApp.app() else {
            preconditionFailure("FirebaseApp.configure() always registers a default app")
        }
        let projectID = app.options.projectID ?? FirebaseOptions.demoProjectID
        let key = InstanceKey(appName: app.name, projectID: projectID, connectorConfig: connectorConfig)
        return instances.withLock { instances in
            if let existing = instances[key] { return existing }
            let created = DataConnect(
                app: app, connectorConfig: connectorConfig, settings: settings, callerSDKType: callerSDKType)
            instances[key] = created
            return created
        }
    }

    /// Creates an instance outside the shared registry that sends every operation through `transport` **[ext]**.
    ///
    /// Upstream has no such entry: it is the seam for tests of app code. Pass a ``RecordingTransport`` to script
    /// responses, or `DataConnectTesting`'s in-process transport to run operations on an emulator without a
    /// socket. The process environment is not consulted; ``useEmulator(host:port:)`` only moves realtime
    /// subscriptions, which use `subscriptionTransport` when given.
    ///
    /// ```swift
    /// let transport = RecordingTransport()
    /// transport.enqueue(GraphQLResponse(data: ["movies": []]))
    /// let dataConnect = DataConnect(
    ///     app: FirebaseApp.app()!, connectorConfig: config, settings: DataConnectSettings(), transport: transport)
    /// ```
    ///
    /// - Parameters:
    ///   - app: The app; it must have a project ID.
    ///   - connectorConfig: The connector.
    ///   - settings: Cache settings and the endpoint realtime subscriptions use.
    ///   - callerSDKType: Who calls.
    ///   - transport: Where queries and mutations go.
    ///   - subscriptionTransport: The realtime transport; the WebSocket stream to the endpoint when `nil`.
    public convenience init(
        app: FirebaseApp, connectorConfig: ConnectorConfig, settings: DataConnectSettings = DataConnectSettings(),
        callerSDKType: CallerSDKType = .base, transport: any Transport,
        subscriptionTransport: (any SubscriptionTransport)? = nil
    ) {
        self.init(
            app: app, connectorConfig: connectorConfig, settings: settings, callerSDKType: callerSDKType,
            transport: transport, environment: [:], subscriptionTransport: subscriptionTransport)
    }

    /// Creates an instance outside the shared registry.
    ///
    /// - Parameters:
    ///   - app: The app; it must have a project ID.
    ///   - connectorConfig: The connector.
    ///   - settings: Where to send requests.
    ///   - callerSDKType: Who calls.
    ///   - transport: The transport to use instead of a `URLSessionTransport` built from the settings.
    ///   - environment: The process environment, read for `FIREBASE_DATA_CONNECT_EMULATOR_HOST`.
    ///   - cacheWarning: Where client cache warnings go; standard error by default.
    ///   - subscriptionTransport: The realtime transport to use instead of the WebSocket stream to the endpoint.
    ///   - reconnectPolicy: How realtime subscriptions reconnect.
    ///   - cacheClock: The current time for the client cache.
    ///   - logger: Where this instance and its refs log: the seam tests record log lines through.
    init(
        app: FirebaseApp, connectorConfig: ConnectorConfig, settings: DataConnectSettings = DataConnectSettings(),
        callerSDKType: CallerSDKType = .base, transport: (any Transport)? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        cacheWarning: @escaping @Sendable (String) -> Void = ClientCache.printWarning,
        subscriptionTransport: (any SubscriptionTransport)? = nil, reconnectPolicy: ReconnectPolicy = ReconnectPolicy(),
        cacheClock: @escaping @Sendable () -> Date = { Date() }, logger: DataConnectLogger = .shared
    ) {
        let projectID = app.options.projectID ?? FirebaseOptions.demoProjectID
        self.app = app
        self.connectorConfig = connectorConfig
        self.settings = settings
        self.callerSDKType = callerSDKType
        self.connector = ConnectorResourceName(
            projectID: projectID, location: connectorConfig.location, serviceID: connectorConfig.serviceId,
            connectorID: connectorConfig.connector)
        self.environment = environment
        self.injectedTransport = transport
        self.injectedSubscriptionTransport = subscriptionTransport
        self.reconnectPolicy = reconnectPolicy
        self.logger = logger
        self.cache = settings.cacheSettings.map {
            ClientCache(
                settings: $0, projectID: projectID, appName: app.name, connectorConfig: connectorConfig,
                warn: cacheWarning, clock: cacheClock)
        }
        state.withLock { $0.authTokenProvider = FirebaseAuthTokenProvider(app: app) }
    }

    /// Sends requests to the emulator at `host:port` over plain HTTP.
    ///
    /// Call it before creating refs. Unlike upstream, the cache settings are kept.
    ///
    /// Called with the default address (no arguments, or ``EmulatorDefaults``' host and port), it honours
    /// `FIREBASE_DATA_CONNECT_EMULATOR_HOST` when that is set, so an app written with a bare `useEmulator()`
    /// follows a test harness or `firebase emulators:exec` to another port; any other address always wins.
    /// Inside a ``substitution`` scope it does nothing: the test harness decides where requests go.
    ///
    /// - Parameters:
    ///   - host: The emulator host; `127.0.0.1` by default.
    ///   - port: The emulator port; 9399 by default.
    public func useEmulator(host: String = EmulatorDefaults.host, port: Int = EmulatorDefaults.port) {
        // Inside a substitution scope the test harness decides where requests go.
        guard substitute == nil else { return }
        var configuration = EmulatorConfiguration(host: host, port: port)
        if host == EmulatorDefaults.host, port == EmulatorDefaults.port,
            let value = environment[EmulatorConfiguration.environmentVariable],
            let fromEnvironment = EmulatorConfiguration(hostAndPort: value)
        {
            configuration = fromEnvironment
        }
        state.withLock { state in
            state.emulator = configuration
            state.liveTransport = nil
            state.subscriptionStream = nil
        }
    }

    /// The source of `X-Firebase-Auth-Token`: by default a ``FirebaseAuthTokenProvider``, the signed-in Firebase
    /// Auth user of the instance's app, as upstream; `nil` sends no token.
    ///
    /// Inside a ``substitution`` scope, the substitute's provider.
    public var authTokenProvider: (any AuthTokenProvider)? {
        get {
            if let substitute { return substitute.authTokenProvider }
            return state.withLock { $0.authTokenProvider }
        }
        set { setAuthTokenProvider(newValue) }
    }

    /// Sets the source of `X-Firebase-Auth-Token`.
    ///
    /// Inside a ``substitution`` scope it sets the substitute's provider, so one test's sign-in does not reach
    /// another's.
    ///
    /// - Parameter provider: The token provider, e.g. an ``EmulatorAuth`` in tests; `nil` sends no token.
    public func setAuthTokenProvider(_ provider: (any AuthTokenProvider)?) {
        if let substitute { return substitute.setAuthTokenProvider(provider) }
        state.withLock { state in
            state.authTokenProvider = provider
            state.liveTransport = nil
            state.subscriptionStream = nil
            state.userWatch?.cancel()
            state.userWatch = nil
            state.watchingProvider = true
        }
        restartSubscriptions()
        watchUserChanges()
    }

    /// The source of `X-Firebase-AppCheck`; `nil` (the default) sends none.
    ///
    /// The same hook as `Auth.appCheck`: give both the provider of your App Check tokens (on Linux, a token your
    /// backend or a debug provider issues; the emulator ignores the header, production enforces it when App
    /// Check is on for the service). A provider that throws sends the request without the header.
    ///
    /// ```swift
    /// struct DebugAppCheck: AppCheckTokenProvider {
    ///     func token() async throws -> String? { ProcessInfo.processInfo.environment["APP_CHECK_TOKEN"] }
    /// }
    /// DataConnect.moviesConnector.dataConnect.appCheckTokenProvider = DebugAppCheck()
    /// ```
    public var appCheckTokenProvider: (any AppCheckTokenProvider)? {
        get {
            if let substitute { return substitute.appCheckTokenProvider }
            return state.withLock { $0.appCheckTokenProvider }
        }
        set {
            if let substitute { return substitute.appCheckTokenProvider = newValue }
            state.withLock { $0.appCheckTokenProvider = newValue }
        }
    }

    /// The App Check token for the next request, or `nil` without a provider or when it fails.
    private func appCheckToken() async -> String? {
        guard let provider = state.withLock({ $0.appCheckTokenProvider }) else { return nil }
        return try? await provider.token()
    }

    // MARK: - Substitution

    /// The instance serving this one in the current task's ``substitution`` scope, or `nil` outside one.
    ///
    /// Instances created with an injected transport (``init(app:connectorConfig:settings:callerSDKType:transport:subscriptionTransport:)``)
    /// are never substituted: they already say where their operations go.
    var substitute: DataConnect? {
        guard injectedTransport == nil, let substitution = Self.substitution,
            let substitute = substitution.substitute(for: self), substitute !== self
        else { return nil }
        return substitute
    }

    // MARK: - Realtime

    /// Reconnects every live subscription, so it runs with the current user's token.
    func restartSubscriptions() {
        let refs = state.withLock { state in state.queryRefs.values.compactMap { $0.ref as? any RealtimeRef } }
        for ref in refs { ref.restartSubscription() }
    }

    /// Restarts subscriptions whenever the provider reports a sign-in, sign-out or user change, and sends each
    /// refreshed token of the same user on the open realtime stream, so the server checks its subscriptions
    /// against the new claims.
    private func watchUserChanges() {
        guard let provider = state.withLock({ $0.authTokenProvider }) else { return }
        let changes = provider.userChanges
        let tokens = provider.tokenChanges
        let watch = Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [weak self] in
                    var previous: String??
                    for await user in changes {
                        if let previous, previous != user?.uid { self?.restartSubscriptions() }
                        previous = .some(user?.uid)
                    }
                }
                group.addTask { [weak self] in
                    for await token in tokens {
                        self?.openSubscriptionTransport?.authTokenChanged(token)
                    }
                }
            }
        }
        state.withLock { state in
            state.userWatch?.cancel()
            state.userWatch = watch
        }
    }

    /// The subscription transport already in use, if any: the injected one, or the stream opened so far.
    private var openSubscriptionTransport: (any SubscriptionTransport)? {
        if let injectedSubscriptionTransport { return injectedSubscriptionTransport }
        return state.withLock { state in state.subscriptionStream ?? state.liveTransport }
    }

    /// The subscription transport: the injected one, or the WebSocket stream to the current endpoint.
    func resolveSubscriptionTransport() -> any SubscriptionTransport {
        if let injectedSubscriptionTransport { return injectedSubscriptionTransport }
        guard let injectedTransport else { return liveStreamTransport() }
        let endpoint = endpoint
        return state.withLock { state in
            if let stream = state.subscriptionStream { return stream }
            let stream = StreamTransport(
                configuration: .init(
                    endpoint: endpoint, fallback: injectedTransport, authTokenProvider: state.authTokenProvider))
            state.subscriptionStream = stream
            return stream
        }
    }

    /// The live transport: the WebSocket stream, over REST to the current endpoint.
    private func liveStreamTransport() -> StreamTransport {
        let endpoint = endpoint
        return state.withLock { state in
            if let live = state.liveTransport { return live }
            let rest = URLSessionTransport(
                configuration: .init(endpoint: endpoint, authTokenProvider: state.authTokenProvider))
            let live = StreamTransport(
                configuration: .init(endpoint: endpoint, fallback: rest, authTokenProvider: state.authTokenProvider))
            state.liveTransport = live
            return live
        }
    }

    /// The request of a subscription, with the current token; `nil` when the provider fails to give one.
    func subscriptionRequest(
        operationName: String, variables: Result<JSONObject, DataConnectCodecError>
    ) async -> (OperationRequest?, String?) {
        guard case .success(let variables) = variables else { return (nil, nil) }
        var metadata = RequestMetadata(
            appID: app.options.googleAppID, apiKey: app.options.apiKey,
            isGeneratedCaller: callerSDKType == .generated)
        metadata.appCheckToken = await appCheckToken()
        do {
            metadata.authToken = try await currentProvider?.token(forcingRefresh: false)
        } catch {
            return (nil, nil)
        }
        let request = OperationRequest(
            connector: connector, kind: .query, operationName: operationName, variables: variables, metadata: metadata)
        return (request, metadata.authToken.flatMap(TokenSubject.uid(fromToken:)))
    }

    /// The address requests go to: the emulator, else the environment's emulator, else the settings.
    var endpoint: ServiceEndpoint {
        let emulator = state.withLock { $0.emulator }
        return ServiceEndpoint.resolve(settings: settings.endpoint, emulator: emulator, environment: environment)
    }

    // MARK: - Refs

    /// Returns the observable ref for the query `name` with `variables`, creating it on first use.
    ///
    /// One ref exists per operation name and variables (compared as canonical JSON) while someone holds it.
    /// Without a `publisher` argument the ref is typed **[ext]**; upstream's form, which generated code calls,
    /// is ``query(name:variables:resultsDataType:publisher:)``.
    ///
    /// Inside a ``substitution`` scope the ref is the substitute's, and stays bound to it wherever it is used.
    ///
    /// - Parameters:
    ///   - name: The operation name in the connector.
    ///   - variables: The variables; unset ``OptionalVariable`` properties are left out of the request.
    ///   - resultsDataType: The decoded shape of `data`.
    /// - Returns: The shared ref.
    public func query<ResultData: Decodable & Sendable, Variables: OperationVariable>(
        name: String, variables: Variables, resultsDataType: ResultData.Type
    ) -> QueryRefObservation<ResultData, Variables> {
        if let substitute {
            return substitute.query(name: name, variables: variables, resultsDataType: resultsDataType)
        }
        let candidate = QueryRefObservation<ResultData, Variables>(
            dataConnect: self, operationName: name, variables: variables)
        return state.withLock { state in
            if let existing = state.queryRefs[candidate.key]?.ref as? QueryRefObservation<ResultData, Variables> {
                return existing
            }
            state.queryRefs = state.queryRefs.filter { $0.value.ref != nil }
            state.queryRefs[candidate.key] = WeakRef(ref: candidate)
            candidate.startObserving()
            return candidate
        }
    }

    /// Returns a ref for the mutation `name` with `variables`.
    ///
    /// - Parameters:
    ///   - name: The operation name in the connector.
    ///   - variables: The variables; unset ``OptionalVariable`` properties are left out of the request.
    ///   - resultsDataType: The decoded shape of `data`.
    /// - Returns: A ref; each `execute()` runs the mutation once. Inside a ``substitution`` scope it is bound to
    ///   the substitute.
    public func mutation<ResultData: Decodable & Sendable, Variables: OperationVariable>(
        name: String, variables: Variables, resultsDataType: ResultData.Type
    ) -> MutationRef<ResultData, Variables> {
        MutationRef(dataConnect: substitute ?? self, operationName: name, variables: variables)
    }

    // MARK: - Executing

    /// Sends one operation and decodes its data.
    ///
    /// - Throws: ``DataConnectCodecError``, ``DataConnectConnectionError``, ``DataConnectServerError`` or
    ///   ``DataConnectOperationError``.
    func perform<ResultData: Decodable>(
        _ kind: OperationRequest.Kind, operationName: String, variables: Result<JSONObject, DataConnectCodecError>,
        as type: ResultData.Type
    ) async throws -> ResultData? {
        let (response, _) = try await send(kind, operationName: operationName, variables: variables)
        return try OperationCodec.decode(response, as: type)
    }

    /// Sends one operation and returns the raw response, with the signed-in user's id read from the token sent.
    ///
    /// - Throws: ``DataConnectCodecError`` when the variables do not encode, ``DataConnectConnectionError`` when
    ///   the service cannot be reached, ``DataConnectServerError`` when it refuses the request.
    func send(
        _ kind: OperationRequest.Kind, operationName: String, variables: Result<JSONObject, DataConnectCodecError>
    ) async throws -> (response: GraphQLResponse, uid: String?) {
        let variables = try variables.get()
        let (transport, provider) = resolveTransport()
        var metadata = RequestMetadata(
            appID: app.options.googleAppID, apiKey: app.options.apiKey,
            isGeneratedCaller: callerSDKType == .generated)
        metadata.appCheckToken = await appCheckToken()
        let token: String?
        do {
            token = try await currentProvider?.token(forcingRefresh: false)
        } catch {
            throw DataConnectServerError(TransportError.authentication(String(describing: error)))
        }
        if provider != nil { metadata.authToken = token }
        var request = OperationRequest(
            connector: connector, kind: kind, operationName: operationName, variables: variables, metadata: metadata)
        do {
            return (try await transport.execute(request), token.flatMap(TokenSubject.uid(fromToken:)))
        } catch .server(let refusal, let httpStatus) where refusal.status == .unauthenticated && provider != nil {
            // As the live transport does: once, with a token refreshed for it, when the refresh gives another one.
            let refreshed: String?
            do {
                refreshed = try await provider?.token(forcingRefresh: true)
            } catch {
                throw DataConnectServerError(TransportError.authentication(String(describing: error)))
            }
            guard refreshed != token else {
                throw TransportError.server(refusal, httpStatus: httpStatus).dataConnectError
            }
            request.metadata.authToken = refreshed
            do {
                return (try await transport.execute(request), refreshed.flatMap(TokenSubject.uid(fromToken:)))
            } catch {
                throw error.dataConnectError
            }
        } catch {
            throw error.dataConnectError
        }
    }

    /// The id of the signed-in user, read from the provider's current token; `nil` when signed out.
    func currentUID() async -> String? {
        guard let token = try? await currentProvider?.token(forcingRefresh: false) else { return nil }
        return TokenSubject.uid(fromToken: token)
    }

    /// The provider, watched for sign-in changes and refreshed tokens from its first use on.
    private var currentProvider: (any AuthTokenProvider)? {
        let (provider, startWatching) = state.withLock { state in
            defer { state.watchingProvider = true }
            return (state.authTokenProvider, !state.watchingProvider && state.authTokenProvider != nil)
        }
        if startWatching { watchUserChanges() }
        return provider
    }

    // MARK: - Cache

    /// The signed-in user's cache for the current endpoint, or `nil` without cache settings.
    func cacheEngine(uid: String?) -> NormalizedCache? {
        guard let cache else { return nil }
        let endpoint = endpoint
        return cache.engine(host: "\(endpoint.host):\(endpoint.port)", uid: uid)
    }

    /// Republishes from the cache the live refs whose cached result changed, and refetches from the server the
    /// live refs a mutation made stale, except those with a realtime subscription: the server pushes their new
    /// result when the mutation changed it.
    ///
    /// - Parameters:
    ///   - update: What a cache write or mutation changed.
    ///   - engine: The cache it happened in.
    ///   - origin: The ref that caused the write, which publishes its own result.
    func propagate(_ update: CacheUpdate, in engine: NormalizedCache, from origin: OperationKey? = nil) {
        guard !update.changedQueries.isEmpty || !update.staleQueries.isEmpty else { return }
        let live = state.withLock { state in
            state.queryRefs.compactMap { key, weak -> (any CacheObservingRef)? in
                key == origin ? nil : weak.ref as? any CacheObservingRef
            }
        }
        var stale: [String: any CacheObservingRef] = [:]
        for ref in live {
            let id = ref.cacheKey.id
            if update.staleQueries.contains(id) {
                if !ref.isSubscribed { stale[id] = ref }
            } else if update.changedQueries.contains(id) {
                ref.refreshFromCache(engine)
            }
        }
        guard !stale.isEmpty else { return }
        // One at a time, biggest first: a refetched list often refreshes every field a detail shows, which then
        // is fresh again and republished from the cache without a request of its own.
        let order = (try? engine.refetchOrder(Set(stale.keys))) ?? Array(stale.keys)
        Task {
            for id in order {
                guard let ref = stale[id] else { continue }
                if (try? engine.isFresh(ref.cacheKey)) == true { continue }
                await ref.refetchFromServer()
            }
        }
    }

    /// The transport, and the token provider the caller must consult itself (only for an injected transport;
    /// the live transport asks the provider and retries a 401 when the token changed).
    private func resolveTransport() -> (any Transport, (any AuthTokenProvider)?) {
        if let injectedTransport { return (injectedTransport, currentProvider) }
        return (liveStreamTransport(), nil)
    }
}
