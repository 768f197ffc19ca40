import DataConnectCEL
import DataConnectWire
import Testing

/// Bindings shared by the CEL tests: a signed-in user with custom claims, variables, and a fixed time.
let celTestBindings = CELBindings(
    auth: SignedInUser(claims: [
        "sub": "user-1", "email": "ada@example.com", "email_verified": true, "admin": true,
        "firebase": ["sign_in_provider": "password"],
    ]).celValue,
    vars: [
        "userId": "user-1", "status": "DRAFT", "limit": 10, "rating": 4.5, "tags": ["a", "b"], "empty": [],
        "nothing": nil, "movie": ["id": "m1", "title": "Alien", "year": 1979],
    ],
    requestTime: "2024-05-01T12:00:00.123456Z",
    response: ["movie_insert": ["id": "0a1b2c3d4e5f60718293a4b5c6d7e8f9"]]
)

/// Parses and evaluates `source`.
func celEvaluate(_ source: String, _ bindings: CELBindings = celTestBindings) throws(CELError) -> JSONValue {
    try CELExpression(parsing: source).evaluate(in: bindings)
}

/// The error parsing or evaluating `source` throws, or `nil` when it succeeds.
func celError(_ source: String, _ bindings: CELBindings = celTestBindings) -> CELError? {
    do {
        _ = try celEvaluate(source, bindings)
        return nil
    } catch {
        return error
    }
}

/// The message of the error parsing or evaluating `source`, or `nil` when it succeeds.
func celErrorMessage(_ source: String, _ bindings: CELBindings = celTestBindings) -> String? {
    celError(source, bindings)?.message
}

/// A signed-in user, giving CEL the `auth` binding the engine builds from an ID token's claims.
struct SignedInUser {
    /// The token's claims; `sub` is the user id.
    let claims: JSONObject

    /// `{"uid": claims.sub, "token": claims}`.
    var celValue: JSONValue {
        ["uid": claims["sub"] ?? .null, "token": .object(claims)]
    }
}
