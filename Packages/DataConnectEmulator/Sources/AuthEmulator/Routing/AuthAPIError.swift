import DataConnectWire
import EmulatorHTTP

/// An error of the Identity Toolkit API, answered as firebase-tools' Auth emulator answers it.
///
/// The body is `{"error": {"code", "message", "errors": [{"message", "reason", "domain"}], "status"}}`; `status` is
/// absent for plain 400 errors (`EMAIL_EXISTS`, `INVALID_PASSWORD`...), as there.
///
/// ```swift
/// let error = AuthAPIError.badRequest("EMAIL_EXISTS")
/// error.response.status  // 400
/// ```
public struct AuthAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One entry of `errors`.
    public struct Item: Sendable, Equatable {
        /// The entry's message (the error's message for single-entry errors).
        public var message: String
        /// `invalid`, `forbidden`, `required`, `authError`, `notFound`, `unimplemented`...
        public var reason: String
        /// `global` when set.
        public var domain: String?
        /// Where the problem is (`Authorization`), when the error is about a header.
        public var location: String?
        /// `header`, with ``location``.
        public var locationType: String?

        /// Creates an entry.
        public init(
            message: String, reason: String, domain: String? = nil, location: String? = nil,
            locationType: String? = nil
        ) {
            self.message = message
            self.reason = reason
            self.domain = domain
            self.location = location
            self.locationType = locationType
        }
    }

    /// The HTTP status code.
    public var code: Int
    /// `PERMISSION_DENIED`, `UNAUTHENTICATED`, `NOT_FOUND`...; `nil` for plain 400 errors.
    public var status: String?
    /// The message clients match on (`EMAIL_EXISTS`, `WEAK_PASSWORD : Password should be at least 6 characters`).
    public var message: String
    /// The entries of `errors`.
    public var errors: [Item]

    public var description: String { "\(code) \(message)" }

    /// A 400 error without a status, as firebase-tools' `assert` throws.
    static func badRequest(_ message: String) -> AuthAPIError {
        AuthAPIError(
            code: 400, status: nil, message: message,
            errors: [Item(message: message, reason: "invalid", domain: "global")])
    }

    /// A 400 `INVALID_ARGUMENT` error (malformed JSON).
    static func invalidArgument(_ message: String, reason: String = "invalid") -> AuthAPIError {
        AuthAPIError(
            code: 400, status: "INVALID_ARGUMENT", message: message,
            errors: [Item(message: message, reason: reason, domain: "global")])
    }

    /// The 403 of a request without an API key on an endpoint that accepts one.
    static let missingAPIKey = AuthAPIError(
        code: 403, status: "PERMISSION_DENIED", message: "The request is missing a valid API key.",
        errors: [Item(message: "The request is missing a valid API key.", reason: "forbidden", domain: "global")])

    /// The 401 of a request without credentials on an endpoint that needs OAuth 2 (`Authorization: Bearer owner`).
    static let missingCredentials = AuthAPIError(
        code: 401, status: "UNAUTHENTICATED",
        message: "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie "
            + "or other valid authentication credential. See "
            + "https://developers.google.com/identity/sign-in/web/devconsole-project.",
        errors: [
            Item(
                message: "Login Required.", reason: "required", domain: "global", location: "Authorization",
                locationType: "header")
        ])

    /// The 401 of a Bearer token that is neither `owner` nor a service account token.
    static let invalidCredentials = AuthAPIError(
        code: 401, status: "UNAUTHENTICATED",
        message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or "
            + "other valid authentication credential. See "
            + "https://developers.google.com/identity/sign-in/web/devconsole-project.",
        errors: [
            Item(
                message: "Invalid Credentials", reason: "authError", domain: "global", location: "Authorization",
                locationType: "header")
        ])

    /// The 404 of an unknown path.
    static let notFound = AuthAPIError(
        code: 404, status: "NOT_FOUND", message: "Not Found", errors: [Item(message: "Not Found", reason: "notFound")])

    /// A 501 for what the emulator does not implement.
    static func notImplemented(_ message: String) -> AuthAPIError {
        AuthAPIError(
            code: 501, status: "NOT_IMPLEMENTED", message: message,
            errors: [Item(message: message, reason: "unimplemented")])
    }

    /// A 500 for a storage failure.
    static func internalError(_ message: String) -> AuthAPIError {
        AuthAPIError(
            code: 500, status: "INTERNAL", message: message, errors: [Item(message: message, reason: "INTERNAL")])
    }

    /// The error body.
    var json: JSONValue {
        var body: JSONObject = [
            "code": .number(JSONNumber(code)), "message": .string(message),
            "errors": .array(errors.map(\.json)),
        ]
        if let status { body["status"] = .string(status) }
        return ["error": .object(body)]
    }

    /// The HTTP response carrying the error.
    var response: HTTPResponse {
        .json(json.serialized(), status: HTTPStatus(code: code))
    }
}

extension AuthAPIError.Item {
    var json: JSONValue {
        var item: JSONObject = ["message": .string(message), "reason": .string(reason)]
        if let domain { item["domain"] = .string(domain) }
        if let location { item["location"] = .string(location) }
        if let locationType { item["locationType"] = .string(locationType) }
        return .object(item)
    }
}

/// Throws a 400 with `message` unless `condition` holds, as firebase-tools' `assert`.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(AuthAPIError) {
    if !condition { throw .badRequest(message()) }
}
