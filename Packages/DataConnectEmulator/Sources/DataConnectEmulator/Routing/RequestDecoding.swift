import DataConnectWire

/// Reads request bodies with the shared wire types, and answers their faults in the emulator's words.
///
/// This is the one place where a body that is not JSON (``JSONError``) or not the request an endpoint takes
/// (``WireFormatError``) becomes the ``RequestError`` the caller gets: 400 `INVALID_ARGUMENT` with a message that
/// names the member, e.g. `"operationName" is required`.
///
/// ```swift
/// switch RequestDecoding.decode(request.body, for: endpoint, GraphQLRequest.init(json:)) {
/// case .success(let operation): …
/// case .failure(let error): return EmulatorResponder.error(error)
/// }
/// ```
enum RequestDecoding {
    /// Parses `body` as JSON and reads it with `read`.
    ///
    /// - Parameters:
    ///   - body: The request body.
    ///   - endpoint: The service API endpoint it was sent to, named in some messages; `nil` for the emulator's own
    ///     endpoints (the console's).
    ///   - read: The wire type's reader, e.g. `GraphQLRequest.init(json:)`.
    ///   - wellFormed: The wire type's reader of a well-formed body straight from its bytes (e.g.
    ///     `GraphQLRequest.init(wellFormed:)`), tried first: `nil` from it sends the body through `read`, which
    ///     says what is wrong. Only for endpoints that check nothing more of the body (not `extensions`).
    /// - Returns: The request, or the error to answer with.
    static func decode<Request>(
        _ body: [UInt8], for endpoint: APIRoute.Endpoint?, _ read: (JSONValue) throws(WireFormatError) -> Request,
        wellFormed: (([UInt8]) -> Request?)? = nil
    ) -> Result<Request, RequestError> {
        if let wellFormed, let request = wellFormed(body) { return .success(request) }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            return .failure(
                RequestError(status: .invalidArgument, message: "invalid JSON in the request body: \(error.message)"))
        }
        let request: Request
        do {
            request = try read(json)
        } catch {
            return .failure(requestError(error, for: endpoint))
        }
        switch endpoint {
        case .impersonate?, .executeGraphql?:
            if let error = impersonationError(json["extensions"]) { return .failure(error) }
        case .execute?, .needsConnector?, .serviceMethodOnConnector?, .unknown?, nil:
            break
        }
        return .success(request)
    }

    /// The answer to an `extensions.impersonate` of the wrong shape, on the endpoints that read it (`:impersonate*`,
    /// `:executeGraphql*`); `nil` when it is absent, `null` or an object whose `authClaims` (if any) is an object.
    ///
    /// The wire types read a malformed member as no impersonation, which would run the operation as the admin or
    /// as the token's caller instead of as the one the request names; the emulator refuses it instead.
    ///
    /// - Parameter extensions: The body's `extensions` member, if any.
    /// - Returns: A 400 `INVALID_ARGUMENT` error naming the member, or `nil`.
    static func impersonationError(_ extensions: JSONValue?) -> RequestError? {
        let expected = #"{"authClaims": {…}} or {"unauthenticated": true}"#
        guard let extensions, !extensions.isNull else { return nil }
        guard case .object(let members) = extensions else {
            return RequestError(
                status: .invalidArgument,
                message: "\"extensions\" must be an object, such as {\"impersonate\": \(expected)}")
        }
        guard let impersonate = members["impersonate"], !impersonate.isNull else { return nil }
        guard case .object(let caller) = impersonate else {
            return RequestError(
                status: .invalidArgument, message: "\"extensions.impersonate\" must be an object: \(expected)")
        }
        if let claims = caller["authClaims"], !claims.isNull, claims.objectValue == nil {
            return RequestError(
                status: .invalidArgument,
                message: "\"extensions.impersonate.authClaims\" must be an object of token claims, such as "
                    + #"{"sub": "user-1"}"#)
        }
        return nil
    }

    /// The answer to a body that is JSON but not the request `endpoint` takes.
    static func requestError(_ error: WireFormatError, for endpoint: APIRoute.Endpoint?) -> RequestError {
        RequestError(status: .invalidArgument, message: message(error, for: endpoint))
    }

    private static func message(_ error: WireFormatError, for endpoint: APIRoute.Endpoint?) -> String {
        switch (error.field, error.problem) {
        case (nil, _):
            return "the request body must be a JSON object"
        case ("operationName", _):
            return "\"operationName\" is required"
        case ("name", _):
            return "\"name\" is required (projects/…/connectors/\(connector(of: endpoint)))"
        case ("variables", .missing):
            return "\"variables\" is required (send {} when there are none)"
        case ("variables", _):
            return "\"variables\" must be a JSON object"
        case ("query", _):
            return "\"query\" is required"
        default:
            return error.message
        }
    }

    private static func connector(of endpoint: APIRoute.Endpoint?) -> String {
        switch endpoint {
        case .execute(let connector, _)?, .impersonate(let connector, _)?: return connector
        case .executeGraphql?, .needsConnector?, .serviceMethodOnConnector?, .unknown?, nil: return "{connector}"
        }
    }
}
