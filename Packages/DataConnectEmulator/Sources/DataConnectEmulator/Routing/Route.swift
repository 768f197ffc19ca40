import DataConnectWire
import EmulatorHTTP
import Synchronization

/// An endpoint of the emulator, parsed once from a request's method and path.
///
/// ```swift
/// Route(method: .post, path: "/v1/projects/p/locations/l/services/movies/connectors/movies:executeQuery")
/// // .api(APIRoute(service: "movies", connector: "movies", method: "executeQuery", endpoint: .executeQuery(connector: "movies")))
/// ```
enum Route: Equatable {
    /// `GET /emulator/info` (any method): version, service and connectors.
    case info
    /// `POST /emulator/clear`: empty every table.
    case clear
    /// `POST /emulator/export`: write an export now.
    case export
    /// `POST /emulator/configure`: load (or reload) a service from a folder while running.
    case configure
    /// A method of the service API, under `/v1`, `/v1beta` or `/v1alpha`: REST requests (realtime subscriptions are
    /// made on ``stream(_:)``; `:subscribe` is an unknown method).
    case api(APIRoute)
    /// The realtime stream over a WebSocket (`ConnectorStreamService.Connect`), any method: the handshake checks it.
    case stream(StreamRoute)
    /// The browser console: its page and files, and the endpoints only it calls.
    case console(ConsoleRoute)
    /// A request the routing itself answers: an unknown path, or a method other than `POST`.
    case refused(RequestError)

    /// Parses `method` and `path`.
    init(method: HTTPMethod, path: String) {
        self.init(method: method, path: path, api: APIRoute(path: path))
    }

    /// Parses `method` and `path`, whose service API form `api` is already parsed (`nil` when it is none).
    init(method: HTTPMethod, path: String, api parsedAPI: APIRoute?) {
        // A service API path starts with its version segment, so it is none of the paths below: the console's,
        // `/emulator/*` and the stream's.
        if let api = parsedAPI {
            self = Self.api(api, method: method)
            return
        }
        if let console = ConsoleRoute.route(method: method, path: path) {
            self = console
            return
        }
        switch path {
        case "/emulator/info":
            self = .info
        case "/emulator/clear":
            self =
                method == .post ? .clear : .refused(RequestError(status: .invalidArgument, message: "use POST \(path)"))
        case "/emulator/export":
            self =
                method == .post
                ? .export : .refused(RequestError(status: .invalidArgument, message: "use POST \(path)"))
        case "/emulator/configure":
            self =
                method == .post
                ? .configure : .refused(RequestError(status: .invalidArgument, message: "use POST \(path)"))
        default:
            if path.hasPrefix(StreamRoute.prefix) {
                guard let stream = StreamRoute(path: path) else {
                    self = .refused(
                        RequestError(
                            status: .notFound,
                            message: "no such stream endpoint: \(path); the stream is served at "
                                + "\(StreamRoute.prefix).Connect/{project}/locations/{location}/services/{service}"))
                    return
                }
                self = .stream(stream)
                return
            }
            self = .refused(RequestError(status: .notFound, message: "no such endpoint: \(method) \(path)"))
        }
    }

    /// A service API request: served when it is a `POST`.
    private static func api(_ api: APIRoute, method: HTTPMethod) -> Route {
        guard method == .post else {
            return .refused(RequestError(status: .invalidArgument, message: "\(api.method) takes POST, not \(method)"))
        }
        return .api(api)
    }
}

/// A path of the service API: `/v1[beta|alpha]/projects/{p}/locations/{l}/services/{s}[/connectors/{c}]:{method}`.
///
/// Project and location segments are ignored, as upstream does.
struct APIRoute: Equatable {
    /// The service id in the path.
    var service: String
    /// The connector id, for connector paths.
    var connector: String?
    /// The text after the colon, e.g. `executeQuery`.
    var method: String
    /// What the method names on this kind of path.
    var endpoint: Endpoint

    /// Whether the path belongs to the client API (what apps call, from browsers too): every connector method
    /// except `:impersonate*`. Unknown connector methods count as client methods, so that a web page learns they do
    /// not exist rather than that it may not call them.
    var isClientAPI: Bool { connector != nil && !method.hasPrefix("impersonate") }

    /// What a service API method does.
    enum Endpoint: Equatable {
        /// `…/connectors/{c}:executeQuery` and `:executeMutation`.
        case execute(connector: String, mutation: Bool)
        /// `…/connectors/{c}:impersonateQuery` and `:impersonateMutation`: as the admin SDK.
        case impersonate(connector: String, mutation: Bool)
        /// `…/services/{s}:executeGraphql` and `:executeGraphqlRead`: admin GraphQL.
        case executeGraphql(readOnly: Bool)
        /// A connector method on a service path.
        case needsConnector
        /// A service method on a connector path.
        case serviceMethodOnConnector
        /// A method the emulator does not serve.
        case unknown
    }

    /// Parses a path; `nil` when it is not a service API path.
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
        endpoint = Self.endpoint(method, connector: connector)
    }

    /// ``init(path:)`` through a cache of the paths parsed last: a client sends the same few paths again and again,
    /// and a lookup costs a hash of the path where parsing it allocates its segments and three strings.
    /// The path asked for last is compared first: equal bytes cost less than hashing the path.
    static func parsed(path: String) -> APIRoute? {
        let found = recentRoutes.withLock { recent -> APIRoute? in
            if let last = recent.last, last.path == path { return last.route }
            guard let route = recent.routes[path] else { return nil }
            recent.last = (path, route)
            return route
        }
        if let found { return found }
        guard let route = APIRoute(path: path) else { return nil }
        recentRoutes.withLock { recent in
            if recent.routes.count >= recentRoutesCapacity { recent.routes.removeAll(keepingCapacity: true) }
            recent.routes[path] = route
            recent.last = (path, route)
        }
        return route
    }

    /// The service API paths parsed last (``parsed(path:)``), emptied when full, and the one asked for last.
    private static let recentRoutes = Mutex<(routes: [String: APIRoute], last: (path: String, route: APIRoute)?)>(
        ([:], nil))
    /// How many paths ``recentRoutes`` holds before it starts over: far more than a service has connector methods.
    private static let recentRoutesCapacity = 256

    private static func endpoint(_ method: String, connector: String?) -> Endpoint {
        switch (method, connector) {
        case ("executeQuery", let connector?): return .execute(connector: connector, mutation: false)
        case ("executeMutation", let connector?): return .execute(connector: connector, mutation: true)
        case ("impersonateQuery", let connector?): return .impersonate(connector: connector, mutation: false)
        case ("impersonateMutation", let connector?): return .impersonate(connector: connector, mutation: true)
        case ("executeQuery", nil), ("executeMutation", nil), ("impersonateQuery", nil),
            ("impersonateMutation", nil):
            return .needsConnector
        case ("executeGraphql", nil): return .executeGraphql(readOnly: false)
        case ("executeGraphqlRead", nil): return .executeGraphql(readOnly: true)
        case ("executeGraphql", _?), ("executeGraphqlRead", _?): return .serviceMethodOnConnector
        default: return .unknown
        }
    }
}

/// A path of the realtime stream's WebSocket, in each form a released SDK connects to:
///
/// - `/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/{project}/locations/{location}/services/{service}`
///   (the JS SDK, and the Flutter SDK since it moved to this form);
/// - `/ws/google.firebase.dataconnect.v1.ConnectorStreamService/Connect/locations/{location}` (the Flutter SDK's first
///   WebSocket transport and the JS SDK's first builds, which name neither project nor service in the path).
///
/// The connector (and, in the short form, the service) comes with the first request's `name`.
struct StreamRoute: Equatable {
    /// What every stream path starts with.
    static let prefix = "/ws/google.firebase.dataconnect.v1.ConnectorStreamService"

    /// The project in the path, when the form names it.
    var project: String?
    /// The location in the path.
    var location: String
    /// The service in the path, when the form names it.
    var service: String?

    /// Parses a path; `nil` when it is none of the forms.
    init?(path: String) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        let rest = path.dropFirst(Self.prefix.count)
        var segments = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.last == "" && segments.count > 1 { segments.removeLast() }
        switch segments.first {
        case ".Connect":
            // .Connect/{project}/locations/{location}/services/{service}
            guard segments.count == 6, segments[2] == "locations", segments[4] == "services",
                !segments[1].isEmpty, !segments[3].isEmpty, !segments[5].isEmpty
            else { return nil }
            project = segments[1]
            location = segments[3]
            service = segments[5]
        case "":
            // /Connect/locations/{location}
            guard segments.count == 4, segments[1] == "Connect", segments[2] == "locations", !segments[3].isEmpty
            else { return nil }
            project = nil
            location = segments[3]
            service = nil
        default:
            return nil
        }
    }
}

/// A path of the browser console (see ``EmulatorResponder``'s console endpoints).
enum ConsoleRoute: Equatable {
    /// `GET /`, `GET /console/{file}` and `GET /favicon.ico`: a file of the console.
    case asset(String)
    /// `GET /emulator/console/model`: the schema and operations.
    case model
    /// `POST /emulator/console/explain`: the SQL of a query.
    case explain
    /// `GET /emulator/console/requests`: the last requests served.
    case requests
    /// `GET /emulator/console/realtime`: the realtime hub's groups.
    case realtime
    /// `/emulator/console/events`, any method: the live feed over a WebSocket (the handshake checks it).
    case events

    /// What the console's files are served under.
    static let assetPrefix = "/console/"
    /// What the console's endpoints are served under.
    static let endpointPrefix = "/emulator/console/"

    /// Parses a console path: its route, a refusal for a console path asked with the wrong method, or `nil` when
    /// the path is not the console's.
    static func route(method: HTTPMethod, path: String) -> Route? {
        let console: ConsoleRoute
        let expected: HTTPMethod?
        switch path {
        case "/":
            (console, expected) = (.asset("index.html"), .get)
        case "/favicon.ico":
            (console, expected) = (.asset("favicon.svg"), .get)
        case endpointPrefix + "model":
            (console, expected) = (.model, .get)
        case endpointPrefix + "explain":
            (console, expected) = (.explain, .post)
        case endpointPrefix + "requests":
            (console, expected) = (.requests, .get)
        case endpointPrefix + "realtime":
            (console, expected) = (.realtime, .get)
        case endpointPrefix + "events":
            (console, expected) = (.events, nil)
        default:
            guard path.hasPrefix(assetPrefix) else {
                if path.hasPrefix(endpointPrefix) {
                    return .refused(RequestError(status: .notFound, message: "no such console endpoint: \(path)"))
                }
                return nil
            }
            let name = String(path.dropFirst(assetPrefix.count))
            (console, expected) = (.asset(name), .get)
        }
        if let expected, method != expected, !(expected == .get && method == .head) {
            return .refused(RequestError(status: .invalidArgument, message: "use \(expected) \(path)"))
        }
        return .console(console)
    }
}
