import DataConnectSchema
import DataConnectWire
import GraphQLLanguage
import OutboundHTTP

extension FieldNode {
    /// The id of the custom resolver schema serving this field, when it is a remote root field.
    var remoteSchema: String? {
        if case .remote(let id)? = role { return id }
        return nil
    }
}

/// What forwarding one root field to its custom resolver gave: the field's value and the errors to report.
struct RemoteFieldResult {
    /// The field's value from the answer's `data` (`null` when the call failed).
    var value: JSONValue
    /// The resolver's errors (paths under the field) or why the call failed (at the field).
    var errors: [GraphQLError]
}

extension Execution {
    /// Forwards a remote root field of a query and writes its value; the resolver's errors join the
    /// response's beside the other fields' data.
    mutating func emitRemote(_ root: FieldNode, schema: String) throws(ExecutionError) {
        let result = forward(root, schema: schema, under: [])
        errors += result.errors
        try emit(root, output: .value(result.value))
    }

    /// Forwards a remote field inside a mutation (a root field, or a field of `query`): any error fails the
    /// field, as a failed write would.
    func forwardFailingOnError(_ root: FieldNode, schema: String) throws(ExecutionError) -> JSONValue {
        let result = forward(root, schema: schema, under: [])
        guard let first = result.errors.first else { return result.value }
        throw ExecutionError(
            code: first.extensions?.code ?? .unknown, message: result.errors.map(\.message).joined(separator: "; "))
    }

    /// Sends a remote field to its resolver and reads the answer; never throws: every failure becomes an
    /// error at the field's path.
    ///
    /// - Parameters:
    ///   - root: the remote field.
    ///   - id: its schema's id.
    ///   - prefix: the path above the field (empty for a root field).
    func forward(_ root: FieldNode, schema id: String, under prefix: [PathSegment]) -> RemoteFieldResult {
        let path = prefix + [.field(root.responseKey)]
        func failure(_ code: StatusCode, _ message: String) -> RemoteFieldResult {
            RemoteFieldResult(
                value: .null,
                errors: [
                    GraphQLError(
                        message: message, path: path, code: code,
                        debugDetails: "\(code.name) in \(root.name) (operation \(operation.name)): \(message)")
                ])
        }
        guard let schema = engine.service.api.remoteSchema(id: id) else {
            return failure(.failedPrecondition, "custom resolver schema \"\(id)\" is not configured")
        }
        guard let transport = engine.transport else {
            return failure(
                .failedPrecondition,
                "cannot call custom resolver \"\(id)\" at \(schema.uri): the engine has no outbound transport "
                    + "(Engine(transport:))")
        }
        var deadline = budget.deadline
        var limitedByTimeout = false
        if let timeout = schema.timeout {
            let own = ContinuousClock.now + timeout.duration
            if own < deadline {
                deadline = own
                limitedByTimeout = true
            }
        }
        let kind: OperationType = root.parentType == engine.service.api.typeSystem.mutationType ? .mutation : .query
        let request = ForwardedRequest(root: root, kind: kind, operationName: operation.name, resolution: resolution)
        var headers = [(name: "Content-Type", value: "application/json"), (name: "Accept", value: "application/json")]
        if let token = ForwardedIdentity.token(for: auth) {
            headers.append((name: ForwardedIdentity.headerName, value: token))
        }
        let response: OutboundResponse
        do {
            response = try transport.send(
                OutboundRequest(method: "POST", url: schema.uri, headers: headers, body: request.body),
                deadline: deadline)
        } catch {
            switch error {
            case .timedOut:
                let limit =
                    limitedByTimeout
                    ? "its timeout (\(schema.timeout?.text ?? "")) in dataconnect.yaml"
                    : "the request's time limit (\(RequestBudget.describe(budget.limit)))"
                return failure(
                    .deadlineExceeded, "custom resolver \"\(id)\" at \(schema.uri) did not answer within \(limit)")
            case .unreachable(let reason):
                return failure(.unavailable, "custom resolver \"\(id)\" at \(schema.uri) is unavailable: \(reason)")
            case .broken(let reason):
                return failure(.unavailable, "custom resolver \"\(id)\" at \(schema.uri) failed: \(reason)")
            case .unsupported(let reason):
                return failure(
                    .failedPrecondition, "cannot call custom resolver \"\(id)\" at \(schema.uri): \(reason)")
            }
        }
        return Self.read(response, field: root, path: path, failure: failure)
    }

    /// Reads a resolver's answer: a GraphQL response (whatever its status, as GraphQL servers answer
    /// request errors with 400), else an error naming the status or the malformed body.
    static func read(
        _ response: OutboundResponse, field: FieldNode, path: [PathSegment],
        failure: (StatusCode, String) -> RemoteFieldResult
    ) -> RemoteFieldResult {
        let parsed = try? JSONValue(parsing: response.body)
        guard case .object(let object)? = parsed, object["data"] != nil || object["errors"] != nil else {
            let excerpt = String(decoding: response.body.prefix(200), as: UTF8.self)
            guard (200..<300).contains(response.status) else {
                let code: StatusCode =
                    switch response.status {
                    case 429: .resourceExhausted
                    case 502, 503, 504: .unavailable
                    default: .unknown
                    }
                return failure(code, "the custom resolver answered HTTP \(response.status): \(excerpt)")
            }
            return failure(.unknown, "the custom resolver's answer is not a GraphQL response: \(excerpt)")
        }
        var result = RemoteFieldResult(value: object["data"]?[field.responseKey] ?? .null, errors: [])
        if case .array(let items)? = object["errors"] {
            for item in items {
                guard var error = try? GraphQLError(json: item) else {
                    result.errors.append(
                        GraphQLError(message: "the custom resolver sent a malformed error", path: path, code: .unknown))
                    continue
                }
                // The resolver's paths start at the field's key; put them under the field's place here.
                error.path = Array(path.dropLast()) + (error.path.isEmpty ? [path.last!] : error.path)
                error.locations = []
                var extensions = error.extensions ?? GraphQLError.Extensions()
                if extensions.code == nil { extensions.code = .unknown }
                error.extensions = extensions
                result.errors.append(error)
            }
        } else if !(200..<300).contains(response.status) {
            return failure(.unknown, "the custom resolver answered HTTP \(response.status)")
        }
        if object["data"] == nil && result.errors.isEmpty {
            return failure(.unknown, "the custom resolver's answer has no data")
        }
        return result
    }
}

extension Engine {
    /// The refusal of a subscription to a query with custom resolver fields: their data lives outside the
    /// database, so no change could ever be noticed.
    func remoteFieldsRefusal(_ operation: CompiledOperation) -> EngineResponse? {
        let names = operation.roots.filter { $0.remoteSchema != nil }.map(\.responseKey)
        guard !names.isEmpty else { return nil }
        return Self.failure(
            .failedPrecondition,
            "operation \"\(operation.name)\" reads custom resolver fields (\(names.joined(separator: ", "))), whose "
                + "data the emulator cannot watch; run it with executeQuery instead of subscribing")
    }
}
