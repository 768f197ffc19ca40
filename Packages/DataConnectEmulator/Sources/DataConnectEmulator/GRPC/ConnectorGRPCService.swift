import DataConnectEngine
import DataConnectProtobuf
import DataConnectWire
import EmulatorHTTP

/// The emulator's gRPC surface, served on HTTP/2 connections to its port: what the iOS, Android and Flutter SDKs
/// call.
///
/// - `google.firebase.dataconnect.v1.ConnectorService/ExecuteQuery` and `/ExecuteMutation` (also under `v1beta`):
///   one operation per call, through the same engine path, auth and limits as REST's `:executeQuery` and
///   `:executeMutation`. A request-level failure is the call's status (the code REST's error body names, e.g.
///   `NOT_FOUND` for an unknown operation, `UNAUTHENTICATED` for a refused token); field errors travel in `errors`
///   with status `OK`.
/// - `google.firebase.dataconnect.v1.ConnectorStreamService/Connect` (also `v1beta`): the realtime stream
///   (``GRPCStreamSession``), on the same hub as the WebSocket stream.
/// - `grpc.health.v1.Health/Check` and `/Watch`, and server reflection (`grpc.reflection.v1` and `v1alpha`), so that
///   `grpcurl` lists and calls the services.
///
/// Metadata is read as REST reads its headers: `x-firebase-auth-token` is the caller's ID token;
/// `x-firebase-appcheck`, `x-goog-request-params`, `x-goog-api-client`, `x-firebase-gmpid`, `x-client-version` and
/// `x-firebase-sqlconnect-affinity` are accepted and not needed. `grpc-timeout` bounds the request as the engine's
/// own time limit does; a call the client resets (`RST_STREAM`) stops its running statement.
final class ConnectorGRPCService: GRPCService {
    /// The Data Connect packages served.
    static let packages = ["google.firebase.dataconnect.v1", "google.firebase.dataconnect.v1beta"]

    /// The fully-qualified services served, for reflection's `list_services`.
    static let serviceNames: [String] =
        packages.flatMap { ["\($0).ConnectorService", "\($0).ConnectorStreamService"] } + [
            "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
        ]

    private unowned let responder: EmulatorResponder
    private let methods: [String: GRPCMethod]

    init(responder: EmulatorResponder) {
        self.responder = responder
        var methods: [String: GRPCMethod] = [:]
        for package in Self.packages {
            methods["/\(package).ConnectorService/ExecuteQuery"] = .unary { [unowned responder] call in
                ConnectorGRPCService.execute(call, mutation: false, on: responder)
            }
            methods["/\(package).ConnectorService/ExecuteMutation"] = .unary { [unowned responder] call in
                ConnectorGRPCService.execute(call, mutation: true, on: responder)
            }
            methods["/\(package).ConnectorStreamService/Connect"] = .bidirectionalStreaming {
                [unowned responder] head, stream in
                GRPCStreamSession(responder: responder, head: head, stream: stream)
            }
        }
        methods["/grpc.health.v1.Health/Check"] = .unary { call in HealthService.check(call) }
        methods["/grpc.health.v1.Health/Watch"] = .bidirectionalStreaming { _, stream in
            HealthService.Watch(stream: stream)
        }
        for version in ["v1", "v1alpha"] {
            methods["/grpc.reflection.\(version).ServerReflection/ServerReflectionInfo"] = .bidirectionalStreaming {
                _, stream in
                ReflectionSession(stream: stream)
            }
        }
        self.methods = methods
    }

    func method(for path: String) -> GRPCMethod? {
        methods[path]
    }

    // MARK: Unary calls

    /// Runs one `ExecuteQuery` or `ExecuteMutation` call.
    static func execute(_ call: GRPCUnaryCall, mutation: Bool, on responder: EmulatorResponder) -> GRPCUnaryResult {
        let started = ContinuousClock.now
        let method = mutation ? "ExecuteMutation" : "ExecuteQuery"
        let request: GraphQLRequest
        do {
            request = try GraphQLRequest(protobuf: call.message)
        } catch {
            // A well-formed message with a value the call cannot take names the field; bytes that are no message
            // say so.
            let message =
                error.kind == .invalidValue && error.path == ["operation_name"]
                ? "\"operation_name\" is required"
                : "the request is not an \(method)Request: \(error)"
            return refuse(
                RequestError(status: .invalidArgument, message: message), method: method, on: responder, since: started)
        }
        let engine = responder.engine
        if engine.service.project.config.serviceId.isEmpty {
            return refuse(
                RequestError(
                    status: .failedPrecondition,
                    message:
                        "no service is configured yet: start the emulator with a backend, or POST /emulator/configure"),
                method: method, on: responder, since: started)
        }
        let connector: String
        switch responder.connector(ofName: request.name) {
        case .success(let found): connector = found
        case .failure(let error): return refuse(error, method: method, on: responder, since: started)
        }
        var auth: AuthContext?
        if let token = call.head.metadata["x-firebase-auth-token"], !token.isEmpty {
            do {
                auth = try AuthContext.decode(token: token)
            } catch {
                return refuse(
                    RequestError(status: .unauthenticated, message: "invalid x-firebase-auth-token: \(error.message)"),
                    method: method, connector: connector, operation: request.operationName, on: responder,
                    since: started)
            }
        }
        let cancellation = RequestCancellation()
        let registration = call.cancellation.onCancel { cancellation.cancel() }
        defer { call.cancellation.remove(registration) }
        let engineRequest = EngineRequest(
            kind: .connector(connector: connector, operationName: request.operationName, mutation: mutation),
            variables: request.variables, auth: auth, enforceAuth: true, deadline: call.head.deadline,
            cancellation: cancellation)
        let response = engine.execute(engineRequest)
        if let effect = response.mutation { responder.hub.mutationExecuted(effect) }
        let result: GRPCUnaryResult
        let code: StatusCode
        if response.status == .ok {
            do {
                result = .ok(try ResponseTranscoder.executeResponse(json: response.body))
                code = .ok
            } catch {
                let failure = RequestError(status: .internal, message: "the answer could not be encoded: \(error)")
                result = .failure(GRPCStatus(failure))
                code = .internal
            }
        } else {
            let failure = RequestError(engineResponse: response)
            result = .failure(GRPCStatus(failure))
            code = failure.status
        }
        if responder.servesConsole {
            responder.recordGRPC(
                method: method, connector: connector, operation: request.operationName,
                caller: auth.map { $0.uid.map { "uid:\($0)" } ?? "signed-in" } ?? "unauthenticated", code: code,
                since: started)
        }
        return result
    }

    /// Answers a call refused before the engine ran, and records it.
    private static func refuse(
        _ error: RequestError, method: String, connector: String? = nil, operation: String? = nil,
        on responder: EmulatorResponder, since started: ContinuousClock.Instant
    ) -> GRPCUnaryResult {
        if responder.servesConsole {
            responder.recordGRPC(
                method: method, connector: connector, operation: operation, caller: "unknown", code: error.status,
                since: started)
        }
        return .failure(GRPCStatus(error))
    }
}

extension GRPCStatus {
    /// The status of a request-level failure: the same code REST's error body names.
    init(_ error: RequestError) {
        self.init(code: Code(rawValue: error.status.rawValue) ?? .unknown, message: error.message)
    }
}

extension RequestError {
    /// The failure an engine response that is not OK carries (its body is a REST error body).
    init(engineResponse response: EngineResponse) {
        let body = (try? JSONValue(parsing: response.body)) ?? .null
        self =
            (try? RequestError(json: body, httpStatus: response.status.httpStatus))
            ?? RequestError(status: response.status, message: "the request failed")
    }
}
