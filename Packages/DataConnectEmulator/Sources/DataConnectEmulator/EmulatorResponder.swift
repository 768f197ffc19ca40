import DataConnectEngine
import DataConnectSchema
import DataConnectWire
import EmulatorHTTP
import Synchronization

/// Routes the emulator's HTTP surface to the engine.
///
/// - `POST /v1/projects/{p}/locations/{l}/services/{s}/connectors/{c}:executeQuery` and `:executeMutation`
///   (also under `v1beta`), `:impersonateQuery` and `:impersonateMutation`;
/// - `POST …/connectors/{c}:subscribe`: a realtime subscription as server-sent events (``SubscriptionHub``);
/// - `POST /v1/projects/{p}/locations/{l}/services/{s}:executeGraphql` and `:executeGraphqlRead`;
/// - `GET /emulator/info`, `POST /emulator/clear`, `POST /emulator/export`.
///
/// Project and location segments are ignored, as upstream does.
///
/// Before routing, every request passes the ``originPolicy``: a `Host` that names none of the accepted hosts
/// (DNS rebinding) and an `Origin` that may not call the endpoint (a web page) are refused with 403, CORS
/// preflights are answered, and responses to accepted origins carry the CORS headers. The client API
/// (`:executeQuery`, `:executeMutation`, `:subscribe` and the other connector methods that serve apps) is
/// ``RequestOriginPolicy/Audience/client``; everything else (`/emulator/*`, `:executeGraphql*`, `:impersonate*`)
/// is ``RequestOriginPolicy/Audience/admin``.
public final class EmulatorResponder: HTTPResponder {
    /// The engine currently served; replaced on reload.
    let current: Mutex<Engine>
    /// Administrative actions the responder cannot do itself (clearing and exporting data).
    let maintenance: @Sendable (MaintenanceRequest) -> Result<String, RequestError>
    /// The emulator's version string.
    let version: String
    /// Realtime subscriptions (`:subscribe`), told about every mutation the responder runs.
    public let hub: SubscriptionHub
    /// Which hosts and web origins may call the emulator.
    public let originPolicy: RequestOriginPolicy

    /// A maintenance action requested over HTTP.
    public enum MaintenanceRequest: Sendable {
        case clear
        case export(path: String)
    }

    /// Creates a responder serving `engine`.
    ///
    /// - Parameters:
    ///   - engine: The engine to serve.
    ///   - version: The emulator's version, for `/emulator/info`.
    ///   - hub: The realtime hub for `:subscribe`; a hub with the default configuration when `nil`.
    ///   - originPolicy: Which hosts and web origins may call the emulator; loopback ones only by default.
    ///   - maintenance: Clears and exports data for `/emulator/clear` and `/emulator/export`.
    public init(
        engine: Engine, version: String,
        hub: SubscriptionHub? = nil,
        originPolicy: RequestOriginPolicy = .loopbackOnly,
        maintenance: @escaping @Sendable (MaintenanceRequest) -> Result<String, RequestError>
    ) {
        self.current = Mutex(engine)
        self.hub = hub ?? SubscriptionHub(engine: engine)
        self.originPolicy = originPolicy
        self.version = version
        self.maintenance = maintenance
    }

    /// Serves a new engine from now on (requests in flight finish on the old one).
    public func replace(_ engine: Engine) {
        current.withLock { $0 = engine }
        hub.replaceEngine(engine)
    }

    /// The engine being served.
    public var engine: Engine { current.withLock { $0 } }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let audience = Self.audience(ofPath: request.path)
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
            var response = route(request)
            for field in corsHeaders {
                response.headers[field.name] = field.value
            }
            return response
        }
    }

    /// The part of the API a path belongs to: the client API is what apps call from the browser (the connector
    /// methods, streams included, except `:impersonate*`), the admin API everything else.
    static func audience(ofPath path: String) -> RequestOriginPolicy.Audience {
        if let route = Route(path: path) {
            return route.connector != nil && !route.method.hasPrefix("impersonate") ? .client : .admin
        }
        return clientPathPrefixes.contains { path.hasPrefix($0) } ? .client : .admin
    }

    /// The client API under its gRPC and WebSocket paths (unary calls and the realtime stream), for when they
    /// are served.
    static let clientPathPrefixes = [
        "/google.firebase.dataconnect.v1.ConnectorService/",
        "/google.firebase.dataconnect.v1.ConnectorStreamService/",
        "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/",
    ]

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        if path == "/emulator/info" { return info() }
        if path == "/emulator/clear" {
            guard request.method == .post else { return Self.error(.invalidArgument, "use POST /emulator/clear") }
            switch maintenance(.clear) {
            case .success(let message):
                hub.tablesChanged(engine.allTables)
                return .json(JSONValue.object(["message": .string(message)]).jsonString())
            case .failure(let error): return Self.error(error)
            }
        }
        if path == "/emulator/export" {
            guard request.method == .post else { return Self.error(.invalidArgument, "use POST /emulator/export") }
            let body = try? JSONValue(parsing: request.body)
            guard let target = body?["path"]?.stringValue else {
                return Self.error(.invalidArgument, "POST /emulator/export needs {\"path\": \"<directory>\"}")
            }
            switch maintenance(.export(path: target)) {
            case .success(let message): return .json(JSONValue.object(["message": .string(message)]).jsonString())
            case .failure(let error): return Self.error(error)
            }
        }
        guard let route = Route(path: path) else {
            return Self.error(.notFound, "no such endpoint: \(request.method) \(path)")
        }
        guard request.method == .post else {
            return Self.error(.invalidArgument, "\(route.method) takes POST, not \(request.method)")
        }
        // A web page's request (it carries `Origin`) must say it sends JSON; other callers are not refused for
        // their Content-Type, since real clients and test suites send none, or another one.
        if request.headers["origin"] != nil, let contentType = request.headers["content-type"],
            !contentType.lowercased().hasPrefix("application/json")
        {
            return Self.error(.invalidArgument, "Content-Type must be application/json, got \"\(contentType)\"")
        }
        let engine = self.engine
        guard route.service == engine.service.project.config.serviceId else {
            return Self.error(
                .notFound,
                "No schema found for service \"\(route.service)\"; this emulator serves \"\(engine.service.project.config.serviceId)\""
            )
        }
        let body: JSONObject
        do {
            let value = try JSONValue(parsing: request.body)
            guard case .object(let object) = value else {
                return Self.error(.invalidArgument, "the request body must be a JSON object")
            }
            body = object
        } catch {
            return Self.error(.invalidArgument, "invalid JSON in the request body: \(error.message)")
        }
        var variables = JSONObject()
        if let value = body["variables"] {
            switch value {
            case .object(let object): variables = object
            case .null: break
            default: return Self.error(.invalidArgument, "\"variables\" must be a JSON object")
            }
        }
        // Callers: a Firebase ID token (decoded, not verified), or impersonation on admin endpoints.
        var auth: AuthContext?
        if let token = request.headers["x-firebase-auth-token"], !token.isEmpty {
            do {
                auth = try AuthContext.decode(token: token)
            } catch {
                return Self.error(.unauthenticated, "invalid X-Firebase-Auth-Token: \(error.message)")
            }
        }
        // Impersonation is an admin feature: honoured on `:impersonate*` and `:executeGraphql*`, never on the
        // client methods, where only the ID token speaks for the caller.
        let allowsImpersonation = route.method.hasPrefix("impersonate") || route.method.hasPrefix("executeGraphql")
        var impersonated = false
        if allowsImpersonation, case .object(let impersonate)? = body["extensions"]?["impersonate"] {
            impersonated = true
            if case .object(let claims)? = impersonate["authClaims"] {
                auth = AuthContext(claims: claims)
            } else {
                auth = nil
            }
        }
        let engineRequest: EngineRequest
        switch route.method {
        case "subscribe":
            guard let connector = route.connector else {
                return Self.error(.notFound, "subscribe needs a connector in the path")
            }
            guard let operationName = body["operationName"]?.stringValue, !operationName.isEmpty else {
                return Self.error(.invalidArgument, "\"operationName\" is required")
            }
            guard body["name"]?.stringValue != nil else {
                return Self.error(.invalidArgument, "\"name\" is required (projects/…/connectors/\(connector))")
            }
            guard body["variables"] != nil else {
                return Self.error(.invalidArgument, "\"variables\" is required (send {} when there are none)")
            }
            if let etag = body["dataEtag"], etag.stringValue == nil, etag != .null {
                return Self.error(.invalidArgument, "\"dataEtag\" must be a string")
            }
            let requestID: String
            switch body["requestId"] {
            case .string(let text)?: requestID = text
            case .number(let number)?: requestID = JSONValue.number(number).jsonString()
            default: requestID = "1"
            }
            return hub.subscribe(
                connector: connector, operationName: operationName, variables: variables, auth: auth,
                requestId: requestID, dataEtag: body["dataEtag"]?.stringValue,
                clientKey: auth?.uid.map { "uid:" + $0 } ?? "address:" + (request.remoteAddress ?? "unknown"))
        case "executeQuery", "executeMutation", "impersonateQuery", "impersonateMutation":
            guard let connector = route.connector else {
                return Self.error(.notFound, "\(route.method) needs a connector in the path")
            }
            guard let operationName = body["operationName"]?.stringValue, !operationName.isEmpty else {
                return Self.error(.invalidArgument, "\"operationName\" is required")
            }
            if route.method.hasPrefix("execute") {
                guard body["name"]?.stringValue != nil else {
                    return Self.error(.invalidArgument, "\"name\" is required (projects/…/connectors/\(connector))")
                }
                guard body["variables"] != nil else {
                    return Self.error(.invalidArgument, "\"variables\" is required (send {} when there are none)")
                }
            }
            engineRequest = EngineRequest(
                kind: .connector(
                    connector: connector, operationName: operationName, mutation: route.method.hasSuffix("Mutation")),
                variables: variables, auth: auth, enforceAuth: true)
        case "executeGraphql", "executeGraphqlRead":
            guard route.connector == nil else { return Self.error(.notFound, "\(route.method) is a service method") }
            guard let query = body["query"]?.stringValue else {
                return Self.error(.invalidArgument, "\"query\" is required")
            }
            engineRequest = EngineRequest(
                kind: .admin(
                    query: query, operationName: body["operationName"]?.stringValue,
                    readOnly: route.method == "executeGraphqlRead"),
                variables: variables, auth: auth, enforceAuth: impersonated)
        default:
            return Self.error(.notFound, "unknown method \":\(route.method)\"")
        }
        let response = engine.execute(engineRequest)
        if let effect = response.mutation { hub.mutationExecuted(effect) }
        return .json(response.body, status: HTTPStatus(code: response.status == .ok ? 200 : response.status.httpStatus))
    }

    func info() -> HTTPResponse {
        let engine = self.engine
        let body: JSONValue = [
            "version": .string(version),
            "services": .array([
                .object([
                    "serviceId": .string(engine.service.project.config.serviceId),
                    "connectionString": "sqlite",
                    "connectors": .array(engine.connectorIDs.map(JSONValue.string)),
                ])
            ]),
        ]
        return .json(body.jsonString())
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

/// A parsed API path: `/v1[beta]/projects/{p}/locations/{l}/services/{s}[/connectors/{c}]:{method}`.
struct Route {
    var service: String
    var connector: String?
    var method: String

    init?(path: String) {
        // Hand-rolled over UTF-8: this runs on every request.
        let utf8 = path.utf8
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        var segments: [Substring] = []
        segments.reserveCapacity(9)
        var start = utf8.startIndex
        var index = utf8.startIndex
        while index < colon {
            if utf8[index] == UInt8(ascii: "/") {
                if start < index { segments.append(path[start..<index]) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start < colon { segments.append(path[start..<colon]) }
        guard segments.count == 7 || segments.count == 9,
            segments[0] == "v1" || segments[0] == "v1beta" || segments[0] == "v1alpha",
            segments[1] == "projects", segments[3] == "locations", segments[5] == "services"
        else { return nil }
        if segments.count == 9 {
            guard segments[7] == "connectors" else { return nil }
            connector = String(segments[8])
        }
        service = String(segments[6])
        method = String(path[utf8.index(after: colon)...])
    }
}
