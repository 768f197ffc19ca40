import AuthEmulator
import DataConnectEngine
import DataConnectPostgreSQLStore
import DataConnectSchema
import DataConnectWire
import EmulatorHTTP
import Foundation
import Synchronization

/// Routes the emulator's HTTP surface to the engine.
///
/// - `POST /v1/projects/{p}/locations/{l}/services/{s}/connectors/{c}:executeQuery` and `:executeMutation`
///   (also under `v1beta`), `:impersonateQuery` and `:impersonateMutation`;
/// - `GET /ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/{p}/locations/{l}/services/{s}` (and the
///   older `…ConnectorStreamService/Connect/locations/{l}`): the realtime stream over a WebSocket (`StreamSession`),
///   the one realtime protocol, fed by the ``SubscriptionHub``;
/// - `POST /v1/projects/{p}/locations/{l}/services/{s}:executeGraphql` and `:executeGraphqlRead`;
/// - `GET /emulator/info`, `POST /emulator/clear`, `POST /emulator/export`, `POST /emulator/configure`.
///
/// Project and location segments are ignored, as upstream does. Any other connector method, `:subscribe` included
/// (realtime subscriptions are made on the stream), is answered 404 `unknown method`.
///
/// Before routing, every request passes the ``originPolicy``: a `Host` that names none of the accepted hosts
/// (DNS rebinding) and an `Origin` that may not call the endpoint (a web page) are refused with 403, CORS
/// preflights are answered, and responses to accepted origins carry the CORS headers. The client API
/// (`:executeQuery`, `:executeMutation`, the stream and the other connector methods that serve apps) is
/// ``RequestOriginPolicy/Audience/client``; everything else (`/emulator/*`, `:executeGraphql*`, `:impersonate*`)
/// is ``RequestOriginPolicy/Audience/admin``.
///
/// When it serves an ``AuthEmulator``, the Auth paths (`/identitytoolkit.googleapis.com/…`,
/// `/securetoken.googleapis.com/…`, `/emulator/v1/…`) go to it after the same policy: the sign-in and token
/// endpoints are the client API, the project-scoped and `/emulator/v1/` ones the admin API.
public final class EmulatorResponder: HTTPResponder {
    /// The engine currently served, and its PostgreSQL pool when it runs on one; replaced on reload.
    let current: Mutex<(engine: Engine, pool: PostgreSQLPool?)>
    /// Administrative actions the responder cannot do itself (clearing and exporting data).
    let maintenance: @Sendable (MaintenanceRequest) -> Result<String, RequestError>
    /// The emulator's version string.
    let version: String
    /// What `/emulator/info` reports about the database.
    let database: Mutex<DataStoreSummary>
    /// Realtime subscriptions (the stream's `subscribe`), told about every mutation the responder runs.
    public let hub: SubscriptionHub
    /// Which hosts and web origins may call the emulator.
    public let originPolicy: RequestOriginPolicy
    /// Whether the browser console is served (`/`, `/console/*`, `/emulator/console/*`).
    public let servesConsole: Bool
    /// The last requests served, for the console.
    let requestLog = RequestLog()
    /// What the HTTP/1.1 loops' PostgreSQL pipelines sent, for `/emulator/info`.
    let pipelineTotals = PipelineTotals()
    /// The console's live feed.
    let consoleEvents: ConsoleEvents
    /// When the responder was made: the console tells a restarted emulator by it.
    let startedAt = Date()
    /// The Firebase Auth emulator served on the same port, when enabled.
    public let auth: AuthEmulator?
    /// The embedding providers of the engines served, for `/emulator/info`; set by the ``Emulator``.
    let embeddings = Mutex<EmbeddingProviders?>(nil)
    /// The gRPC services (``ConnectorGRPCService``), served on HTTP/2 connections; made once, in `init`.
    private let grpc = Mutex<ConnectorGRPCService?>(nil)
    /// What the server's gRPC side is doing, for `/emulator/info`; set by the ``Emulator`` once its server runs.
    let grpcStatistics = Mutex<(@Sendable () -> GRPCStatistics)?>(nil)

    /// A maintenance action requested over HTTP.
    public enum MaintenanceRequest: Sendable {
        /// `POST /emulator/clear`: empty every table.
        case clear
        /// `POST /emulator/export`: write the data to a folder.
        case export(path: String)
        /// `POST /emulator/configure`: load (or reload) a service while running.
        case configure(ConfigureRequest)
    }

    /// Creates a responder serving `engine`.
    ///
    /// - Parameters:
    ///   - engine: The engine to serve.
    ///   - version: The emulator's version, for `/emulator/info`.
    ///   - hub: The realtime hub for the stream's subscriptions; a hub with the default configuration when `nil`.
    ///   - originPolicy: Which hosts and web origins may call the emulator; loopback ones only by default.
    ///   - database: What `/emulator/info` reports about the database; SQLite in memory when `nil`.
    ///   - console: Whether to serve the browser console.
    ///   - auth: The Firebase Auth emulator to serve beside the service, if any.
    ///   - maintenance: Clears and exports data for `/emulator/clear` and `/emulator/export`.
    public init(
        engine: Engine, version: String,
        hub: SubscriptionHub? = nil,
        originPolicy: RequestOriginPolicy = .loopbackOnly,
        database: DataStoreSummary? = nil,
        console: Bool = true,
        auth: AuthEmulator? = nil,
        maintenance: @escaping @Sendable (MaintenanceRequest) -> Result<String, RequestError>
    ) {
        self.database = Mutex(database ?? DataStoreSummary(kind: .sqlite, location: "memory", version: ""))
        self.current = Mutex((engine, engine.databaseAccess as? PostgreSQLPool))
        let hub = hub ?? SubscriptionHub(engine: engine)
        self.hub = hub
        self.originPolicy = originPolicy
        self.version = version
        self.maintenance = maintenance
        self.servesConsole = console
        self.auth = auth
        let events = ConsoleEvents(hub: hub)
        consoleEvents = events
        if console {
            hub.setObserver { [weak events] observation in events?.hubObserved(observation) }
            requestLog.setListener { [weak events] record in events?.requestServed(record) }
        }
        let grpcService = ConnectorGRPCService(responder: self)
        grpc.withLock { $0 = grpcService }
    }

    /// The Data Connect, health and reflection services, served to gRPC clients on the same port.
    public var grpcService: (any GRPCService)? { grpc.withLock { $0 } }

    /// Serves a new engine from now on (requests in flight finish on the old one).
    ///
    /// - Parameters:
    ///   - engine: The engine to serve.
    ///   - database: What `/emulator/info` reports from now on, when the engine runs on another database.
    public func replace(_ engine: Engine, database: DataStoreSummary? = nil) {
        current.withLock { $0 = (engine, engine.databaseAccess as? PostgreSQLPool) }
        if let database { self.database.withLock { $0 = database } }
        hub.replaceEngine(engine)
        consoleEvents.serviceReloaded()
    }

    /// The engine being served.
    public var engine: Engine { current.withLock { $0.engine } }

    /// `POST` requests run on the server's request lanes (operations, admin GraphQL, maintenance, the console's
    /// calls): they may run long, and must not hold up the other connections of their thread. `GET`s (the info and
    /// health endpoints, the console's pages, stream upgrades) and the Auth API are answered on the connection's
    /// thread.
    public func runsInLanes(_ request: HTTPRequest) -> Bool {
        request.method == .post && !(auth != nil && AuthEmulator.serves(path: request.path))
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        respond(to: request, later: nil)
    }

    /// One ``EngineLoopCompanion`` per loop of the HTTP/1.1 side: on PostgreSQL, the loop's queries go down a
    /// pipeline instead of holding the loop's thread while each statement runs. The environment variable
    /// `EMULATOR_PG_PIPELINE=0` turns the companions off (every statement then runs on the loop's thread, for
    /// comparisons).
    public func makeLoopCompanion() -> (any LoopCompanion)? {
        if ProcessInfo.processInfo.environment["EMULATOR_PG_PIPELINE"] == "0" { return nil }
        return EngineLoopCompanion(totals: pipelineTotals)
    }

    /// Answers a connector query on PostgreSQL later, once the loop's companion has its statement's result; every
    /// other request now, the companion's work settled first (a request run here may need a pooled connection).
    public func respond(to request: HTTPRequest, companion: any LoopCompanion) -> HTTPAnswer {
        // On SQLite statements run in process: nothing to wait for beside the loop.
        guard current.withLock({ $0.pool }) != nil else {
            companion.settle()
            return .now(respond(to: request, later: nil))
        }
        let later = LaterAnswer(companion: companion)
        let response = respond(to: request, later: later)
        if let work = later.work { return .later(work) }
        return .now(response)
    }

    /// Answers a request; with `later`, a query the loop's companion can run is left in it instead.
    private func respond(to request: HTTPRequest, later: LaterAnswer?) -> HTTPResponse {
        // The path is parsed once, for the origin policy's audience and for the routing.
        let servesAuth = auth != nil && AuthEmulator.serves(path: request.path)
        let api = servesAuth ? nil : APIRoute.parsed(path: request.path)
        let audience =
            servesAuth ? AuthEmulator.audience(ofPath: request.path) : Self.audience(ofPath: request.path, api: api)
        switch originPolicy.decide(request, audience: audience) {
        case .refuseHost(let host):
            return Self.error(
                .permissionDenied,
                "Host \"\(host)\" is not allowed: the emulator answers requests for loopback names, its listen "
                    + "address and the hosts allowed with --allow-host (Emulator.Options.allowedHosts)")
        case .refuseOrigin(let origin, let audience):
            let api = audience == .client ? "the client API" : "the admin API (\(request.path))"
            let accepted = audience == .client ? "loopback origins, its own origin" : "its own origin"
            return Self.error(
                .permissionDenied,
                "Origin \"\(origin)\" may not call \(api): the emulator accepts \(accepted) and the origins allowed "
                    + "with --allow-origin (Emulator.Options.allowedOrigins)")
        case .preflight(let headers):
            return HTTPResponse(status: .noContent, headers: headers)
        case .serve(let corsHeaders):
            later?.corsHeaders = corsHeaders
            if servesAuth { later?.settle() }
            var response =
                servesAuth
                ? (auth?.respond(to: request) ?? Self.error(.notFound, "")) : route(request, api: api, later: later)
            for field in corsHeaders {
                response.headers[field.name] = field.value
            }
            return response
        }
    }

    /// The part of the API a path belongs to: the client API is what apps call from the browser (the connector
    /// methods, streams included, except `:impersonate*`), the admin API everything else.
    static func audience(ofPath path: String) -> RequestOriginPolicy.Audience {
        audience(ofPath: path, api: APIRoute(path: path))
    }

    /// ``audience(ofPath:)`` with the path already parsed as a service API path (`nil` when it is not one).
    static func audience(ofPath path: String, api: APIRoute?) -> RequestOriginPolicy.Audience {
        if let api { return api.isClientAPI ? .client : .admin }
        return clientPathPrefixes.contains { path.hasPrefix($0) } ? .client : .admin
    }

    /// The client API under its gRPC and WebSocket paths (unary calls and the realtime stream), for when they
    /// are served.
    static let clientPathPrefixes = [
        "/google.firebase.dataconnect.v1.ConnectorService/",
        "/google.firebase.dataconnect.v1.ConnectorStreamService/",
        "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/",
        "/ws/google.firebase.dataconnect.v1.ConnectorStreamService/Connect/",
    ]

    /// Answers a request the origin policy let through.
    ///
    /// The checks run in this order, and the first that fails answers: the route (404 for an unknown path, 400 for
    /// a method other than `POST`), a web page's `Content-Type`, the service (404), the method on this kind of
    /// path (404), the body (400), the caller's token (401); then the engine runs the operation.
    private func route(_ request: HTTPRequest, api: APIRoute?, later: LaterAnswer?) -> HTTPResponse {
        let route = Route(method: request.method, path: request.path, api: api)
        guard servesConsole, let action = route.maintenanceAction else { return answer(route, request, later: later) }
        let started = ContinuousClock.now
        let response = answer(route, request, later: later)
        record(method: action, connector: nil, operation: nil, caller: "admin", response: response, since: started)
        return response
    }

    /// Answers a routed request.
    private func answer(_ route: Route, _ request: HTTPRequest, later: LaterAnswer?) -> HTTPResponse {
        if case .api = route {} else { later?.settle() }
        switch route {
        case .info:
            return info()
        case .console(let console):
            return serveConsole(console, request)
        case .clear, .export, .configure:
            if let failure = engine.storageHealth?.failure { return Self.error(.unavailable, failure.message) }
            return maintain(route, request)
        case .refused(let error):
            return Self.error(error)
        case .stream(let stream):
            let served = engine.service.project.config.serviceId
            if let service = stream.service, service != served {
                return Self.error(
                    .notFound, "No schema found for service \"\(service)\"; this emulator serves \"\(served)\"")
            }
            return .webSocket(for: request, handler: StreamSession(responder: self, route: stream, request: request))
        case .api(let route):
            return serve(route, request, later: later)
        }
    }

    /// Answers `/emulator/clear`, `/emulator/export` and `/emulator/configure`.
    private func maintain(_ route: Route, _ request: HTTPRequest) -> HTTPResponse {
        switch route {
        case .clear:
            switch maintenance(.clear) {
            case .success(let message):
                hub.tablesChanged(engine.allTables)
                return .json(JSONValue.object(["message": .string(message)]).jsonString())
            case .failure(let error): return Self.error(error)
            }
        case .export:
            let body = try? JSONValue(parsing: request.body)
            guard let target = body?["path"]?.stringValue else {
                return Self.error(.invalidArgument, "POST /emulator/export needs {\"path\": \"<directory>\"}")
            }
            if let problem = ExportTarget.problem(with: target) { return Self.error(problem) }
            switch maintenance(.export(path: target)) {
            case .success(let message): return .json(JSONValue.object(["message": .string(message)]).jsonString())
            case .failure(let error): return Self.error(error)
            }
        case .configure:
            // The first JSON value counts: SDK integration suites send a stray byte after it, and no Content-Type.
            let configuration: ConfigureRequest
            do {
                configuration = try ConfigureRequest(json: JSONReader().parseFirstValue(request.body).value)
            } catch {
                return Self.error(.invalidArgument, "POST /emulator/configure: \(error)")
            }
            switch maintenance(.configure(configuration)) {
            case .success(let message): return .json(JSONValue.object(["message": .string(message)]).jsonString())
            case .failure(let error): return Self.error(error)
            }
        default:
            return Self.error(.notFound, "not a maintenance route")
        }
    }

    /// Answers a service API request.
    private func serve(_ route: APIRoute, _ request: HTTPRequest, later: LaterAnswer?) -> HTTPResponse {
        // A web page's request (it carries `Origin`, even a loopback or the emulator's own one) must say it sends
        // JSON; other callers are not refused for their Content-Type, since real clients and test suites send none,
        // or another one.
        if request.headers["origin"] != nil {
            guard let contentType = request.headers["content-type"] else {
                return Self.error(
                    .invalidArgument,
                    "Content-Type is missing: a request with an Origin must send Content-Type: application/json")
            }
            guard contentType.lowercased().hasPrefix("application/json") else {
                return Self.error(.invalidArgument, "Content-Type must be application/json, got \"\(contentType)\"")
            }
        }
        let engine = self.engine
        guard route.service == engine.service.project.config.serviceId else {
            if engine.service.project.config.serviceId.isEmpty {
                return Self.error(
                    .failedPrecondition,
                    "no service is configured yet: start the emulator with a backend, or POST /emulator/configure")
            }
            return Self.error(
                .notFound,
                "No schema found for service \"\(route.service)\"; this emulator serves \"\(engine.service.project.config.serviceId)\""
            )
        }
        switch route.endpoint {
        case .execute(let connector, let mutation):
            return run(
                request, route, GraphQLRequest.init(json:), wellFormed: GraphQLRequest.init(wellFormed:),
                later: mutation ? later?.settled() : later
            ) { operation, auth in
                EngineRequest(
                    kind: .connector(connector: connector, operationName: operation.operationName, mutation: mutation),
                    variables: operation.variables, auth: auth, enforceAuth: true)
            }
        case .impersonate(let connector, let mutation):
            later?.settle()
            return run(request, route, ImpersonateRequest.init(json:)) { operation, auth in
                EngineRequest(
                    kind: .connector(connector: connector, operationName: operation.operationName, mutation: mutation),
                    variables: operation.variables, auth: operation.impersonation.map(Self.caller) ?? auth,
                    enforceAuth: true)
            }
        case .executeGraphql(let readOnly):
            later?.settle()
            return run(request, route, ExecuteGraphqlRequest.init(json:)) { operation, auth in
                EngineRequest(
                    kind: .admin(query: operation.query, operationName: operation.operationName, readOnly: readOnly),
                    variables: operation.variables, auth: operation.impersonation.map(Self.caller) ?? auth,
                    enforceAuth: operation.impersonation != nil)
            }
        case .needsConnector:
            return Self.error(.notFound, "\(route.method) needs a connector in the path")
        case .serviceMethodOnConnector:
            return Self.error(.notFound, "\(route.method) is a service method")
        case .unknown:
            return Self.error(.notFound, "unknown method \":\(route.method)\"")
        }
    }

    /// Decodes the body and the caller, runs the engine request `makeRequest` builds, and tells the hub about a
    /// mutation.
    private func run<Operation>(
        _ request: HTTPRequest, _ route: APIRoute, _ read: (JSONValue) throws(WireFormatError) -> Operation,
        wellFormed: (([UInt8]) -> Operation?)? = nil, later: LaterAnswer? = nil,
        _ makeRequest: (Operation, AuthContext?) -> EngineRequest
    ) -> HTTPResponse {
        let started = ContinuousClock.now
        switch decodeCaller(request, route, read, wellFormed: wellFormed) {
        case .success(let (operation, auth)):
            let engineRequest = makeRequest(operation, auth)
            let (engine, pool) = current.withLock { $0 }
            if let later, let pool {
                switch engine.start(engineRequest, beforeRunningHere: later.settle) {
                case .finished(let response):
                    return answer(response, to: engineRequest, route, since: started)
                case .read(let pending):
                    let corsHeaders = later.corsHeaders
                    later.work = EngineLoopWork(pending: pending, pool: pool) { [self] response in
                        var answer = answer(response, to: engineRequest, route, since: started)
                        for field in corsHeaders { answer.headers[field.name] = field.value }
                        return answer
                    }
                    return HTTPResponse(status: .noContent)
                }
            }
            return answer(engine.execute(engineRequest), to: engineRequest, route, since: started)
        case .failure(let error):
            let answer = Self.error(error)
            if servesConsole {
                record(
                    method: route.method, connector: route.connector, operation: nil, caller: "unknown",
                    response: answer, code: error.status, since: started)
            }
            return answer
        }
    }

    /// The HTTP response for the engine's answer to a request: the hub told about a mutation, the request logged.
    private func answer(
        _ response: EngineResponse, to engineRequest: EngineRequest, _ route: APIRoute,
        since started: ContinuousClock.Instant
    ) -> HTTPResponse {
        if let effect = response.mutation { hub.mutationExecuted(effect) }
        let answer = HTTPResponse.json(
            response.body, status: HTTPStatus(code: response.status == .ok ? 200 : response.status.httpStatus))
        if servesConsole { record(route, engineRequest, response: answer, code: response.status, since: started) }
        return answer
    }

    /// Decodes the body with the wire type's reader (its `wellFormed` one first, when it has one), then the
    /// caller's Firebase ID token (decoded, not verified).
    private func decodeCaller<Operation>(
        _ request: HTTPRequest, _ route: APIRoute, _ read: (JSONValue) throws(WireFormatError) -> Operation,
        wellFormed: (([UInt8]) -> Operation?)?
    ) -> Result<(Operation, AuthContext?), RequestError> {
        let operation: Operation
        switch RequestDecoding.decode(request.body, for: route.endpoint, read, wellFormed: wellFormed) {
        case .success(let decoded): operation = decoded
        case .failure(let error): return .failure(error)
        }
        guard let token = request.headers["x-firebase-auth-token"], !token.isEmpty else {
            return .success((operation, nil))
        }
        do {
            return .success((operation, try AuthContext.decode(token: token)))
        } catch {
            return .failure(
                RequestError(status: .unauthenticated, message: "invalid X-Firebase-Auth-Token: \(error.message)"))
        }
    }

    /// The caller an admin request impersonates: honoured on `:impersonate*` and `:executeGraphql*`, never on the
    /// client methods, where only the ID token speaks for the caller.
    private static func caller(_ impersonation: Impersonation) -> AuthContext? {
        switch impersonation {
        case .authClaims(let claims): return AuthContext(claims: claims)
        case .unauthenticated: return nil
        }
    }

    func info() -> HTTPResponse {
        let engine = self.engine
        let database = self.database.withLock { $0 }
        let serviceID = engine.service.project.config.serviceId
        let services: [JSONValue] =
            serviceID.isEmpty
            ? []
            : [
                .object([
                    "serviceId": .string(serviceID),
                    "connectionString": .string(database.kind == .sqlite ? "sqlite" : database.location),
                    "connectors": .array(engine.connectorIDs.map(JSONValue.string)),
                ])
            ]
        var body: JSONObject = [
            "version": .string(version), "services": .array(services),
            "database": .object(databaseReport(database)),
        ]
        if let auth { body["auth"] = ["projectId": .string(auth.defaultProjectID)] }
        body["protocols"] = Self.protocols
        var grpcReport: JSONObject = ["services": .array(ConnectorGRPCService.serviceNames.map(JSONValue.string))]
        if let statistics = grpcStatistics.withLock({ $0 })?() {
            grpcReport["callsInFlight"] = .number(JSONNumber(statistics.callsInFlight))
            grpcReport["peakCallsInFlight"] = .number(JSONNumber(statistics.peakCallsInFlight))
            grpcReport["callsStarted"] = .number(JSONNumber(statistics.callsStarted))
            grpcReport["connections"] = .number(JSONNumber(statistics.http2Connections))
        }
        body["grpc"] = .object(grpcReport)
        body["embeddings"] = embeddings.withLock { $0 }?.report.json ?? ["provider": "none"]
        body["storage"] = Self.storageState(engine.storageHealth?.failure)
        return .json(JSONValue.object(body).jsonString())
    }

    /// `/emulator/info`'s `database`: its engine, location and version; on PostgreSQL also what the HTTP/1.1 loops'
    /// pipelines sent (`pipeline`: statements, and the writes they went out in).
    private func databaseReport(_ database: DataStoreSummary) -> JSONObject {
        var report: JSONObject = [
            "engine": .string(database.kind.rawValue), "location": .string(database.location),
            "version": .string(database.version),
        ]
        if database.kind == .postgreSQL { report["pipeline"] = pipelineTotals.json }
        return report
    }

    /// `/emulator/info`'s `protocols`: what each wire on the port carries.
    static let protocols: JSONValue = [
        ["name": "http/1.1", "serves": ["rest", "websocket", "console", "auth"]],
        ["name": "h2c", "serves": ["grpc"]],
    ]

    /// `/emulator/info`'s `storage`: `{"state": "ok"}`, or `failed` with the file, what was found and the remedy.
    static func storageState(_ failure: StorageFailure?) -> JSONValue {
        guard let failure else { return ["state": "ok"] }
        return [
            "state": "failed", "file": .string(failure.location), "detail": .string(failure.detail),
            "remedy": .string(failure.remedy), "message": .string(failure.message),
        ]
    }

    static func error(_ status: StatusCode, _ message: String) -> HTTPResponse {
        error(RequestError(status: status, message: message))
    }

    static func error(_ error: RequestError) -> HTTPResponse {
        var writer = JSONWriter(capacity: 256)
        error.write(to: &writer)
        return .json(writer.bytes, status: HTTPStatus(code: error.httpStatus))
    }
}

/// A request's way to be answered later through its loop's companion (``EmulatorResponder/respond(to:companion:)``):
/// the work the responder left, and the CORS headers its answer needs.
private final class LaterAnswer {
    let companion: any LoopCompanion
    var corsHeaders = HTTPHeaders()
    var work: EngineLoopWork?

    init(companion: any LoopCompanion) {
        self.companion = companion
    }

    /// Finishes the companion's work out now: the request is about to run here.
    func settle() {
        companion.settle()
    }

    /// ``settle()``, then nothing left to answer later.
    func settled() -> LaterAnswer? {
        settle()
        return nil
    }
}
