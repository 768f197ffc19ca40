import DataConnectEngine
import DataConnectWire
import EmulatorHTTP
import Foundation

/// The browser console's endpoints, and the record of served requests it shows.
///
/// - `GET /` (the page), `GET /console/{file}` (its scripts, styles and icon) and `GET /favicon.ico`: files
///   compiled into the emulator, sent with a Content Security Policy that allows only the emulator's own
///   scripts, styles and connections;
/// - `GET /emulator/console/model`: the schema and operations (``ConsoleModel``);
/// - `POST /emulator/console/explain` `{"connector", "operationName", "variables"}`: the SQL of each root field of
///   a query;
/// - `GET /emulator/console/requests`: the last requests served (``RequestLog``);
/// - `GET /emulator/console/realtime`: the realtime hub's groups;
/// - `/emulator/console/events`: a WebSocket the emulator sends requests, pushes, group changes and reloads on
///   (``ConsoleEvents``).
///
/// All of them are the admin API (``RequestOriginPolicy/Audience/admin``): pages of other origins cannot read
/// them. With the console off, each answers 404.
extension EmulatorResponder {
    /// The headers every console file is sent with.
    static let consoleHeaders: HTTPHeaders = [
        "Content-Security-Policy":
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-cache",
    ]

    /// Answers a console route.
    func serveConsole(_ route: ConsoleRoute, _ request: HTTPRequest) -> HTTPResponse {
        guard servesConsole else {
            return Self.error(.notFound, "the console is off (the emulator was started with --no-console)")
        }
        switch route {
        case .asset(let name):
            guard let asset = ConsoleAsset.named(name) else {
                return Self.error(.notFound, "no such console file: \(name)")
            }
            var headers = Self.consoleHeaders
            headers["Content-Type"] = asset.contentType
            return HTTPResponse(headers: headers, body: request.method == .head ? [] : asset.bytes)
        case .model:
            return .json(ConsoleModel.json(of: engine).serialized())
        case .explain:
            return explain(request)
        case .requests:
            return .json(JSONValue.object(["requests": .array(requestLog.records.map(\.json))]).serialized())
        case .realtime:
            return .json(JSONValue.object(consoleEvents.realtimeState()).serialized())
        case .events:
            let engine = self.engine
            let hello: JSONValue = [
                "type": "hello", "version": .string(version),
                "serviceId": .string(engine.service.project.config.serviceId),
                "startedAt": .string(RequestLog.timestamp(startedAt)),
            ]
            return .webSocket(
                for: request, handler: ConsoleEventsSession(events: consoleEvents, hub: hub, hello: hello))
        }
    }

    /// `POST /emulator/console/explain`: the body is an ``ExplainRequest``.
    private func explain(_ request: HTTPRequest) -> HTTPResponse {
        let asked: ExplainRequest
        switch RequestDecoding.decode(request.body, for: nil, ExplainRequest.init(json:)) {
        case .success(let decoded):
            asked = decoded
        case .failure(let error):
            return Self.error(
                .invalidArgument,
                error.message
                    + #"; POST /emulator/console/explain needs {"connector": "…", "operationName": "…", "variables": {…}}"#
            )
        }
        let engine = self.engine
        guard engine.operationFingerprint(connector: asked.connector, operationName: asked.operationName) != nil else {
            return Self.error(
                .notFound, "no operation \"\(asked.operationName)\" in connector \"\(asked.connector)\"")
        }
        let statements = engine.explain(
            connector: asked.connector, operationName: asked.operationName, variables: asked.variables)
        return .json(
            JSONValue.object([
                "statements": .array(
                    statements.map { statement in
                        [
                            "sql": .string(statement.sql),
                            "parameters": .array(statement.parameters.map(JSONValue.string)),
                        ]
                    })
            ]).serialized())
    }

    // MARK: Recording requests

    /// Records a request the engine answered.
    func record(
        _ route: APIRoute, _ request: EngineRequest, response: HTTPResponse, code: StatusCode,
        since started: ContinuousClock.Instant
    ) {
        let operation: String?
        let caller: String
        switch request.kind {
        case .connector(_, let operationName, _): operation = operationName
        case .admin(_, let operationName, _): operation = operationName
        }
        if !request.enforceAuth {
            caller = "admin"
        } else if let auth = request.auth {
            caller = auth.uid.map { "uid:\($0)" } ?? "signed-in"
        } else {
            caller = "unauthenticated"
        }
        record(
            method: route.method, connector: route.connector, operation: operation, caller: caller,
            response: response, code: code, since: started)
    }

    /// Records a request.
    func record(
        method: String, connector: String?, operation: String?, caller: String, response: HTTPResponse,
        code: StatusCode? = nil, since started: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - started
        let (seconds, attoseconds) = elapsed.components
        let status = response.status.code
        requestLog.record(
            RequestLog.Record(
                id: 0, time: Date() - (Double(seconds) + Double(attoseconds) / 1e18), method: method,
                connector: connector, operation: operation, caller: caller, status: status,
                code: (code ?? StatusCode(httpStatus: status)).name,
                durationMilliseconds: Double(seconds) * 1000 + Double(attoseconds) / 1e15))
    }
}

extension EmulatorResponder {
    /// Records a gRPC call: its method (`ExecuteQuery`, …) and status code, with the HTTP status REST answers the
    /// same outcome with, so that the console colours both alike.
    func recordGRPC(
        method: String, connector: String?, operation: String?, caller: String, code: StatusCode,
        since started: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - started
        let (seconds, attoseconds) = elapsed.components
        requestLog.record(
            RequestLog.Record(
                id: 0, time: Date() - (Double(seconds) + Double(attoseconds) / 1e18), wire: "grpc", method: method,
                connector: connector, operation: operation, caller: caller,
                status: code == .ok ? 200 : code.httpStatus, code: code.name,
                durationMilliseconds: Double(seconds) * 1000 + Double(attoseconds) / 1e15))
    }
}

extension Route {
    /// The name a maintenance request is recorded under; `nil` for other routes.
    var maintenanceAction: String? {
        switch self {
        case .clear: "clear"
        case .export: "export"
        case .configure: "configure"
        default: nil
        }
    }
}
