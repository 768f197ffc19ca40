import DataConnectEngine
import DataConnectWire

/// One request of a differential run: a connector operation, its variables and its caller.
struct DifferentialCall: Sendable, CustomStringConvertible {
    /// The connector id, e.g. `movies`.
    var connector: String
    /// The operation's name, e.g. `getMovieById`.
    var operation: String
    /// The variables, as a client sends them.
    var variables: JSONObject
    /// The signed-in user, or `nil` for a signed-out caller.
    var caller: AuthContext?

    init(_ connector: String, _ operation: String, _ variables: JSONObject = [:], as caller: AuthContext? = nil) {
        self.connector = connector
        self.operation = operation
        self.variables = variables
        self.caller = caller
    }

    /// `connector/operation`, as the coverage check names operations.
    var operationID: String { connector + "/" + operation }

    var description: String {
        let who = caller.map { "as \($0.uid ?? "?")" } ?? "signed out"
        let arguments = variables.isEmpty ? "" : " " + JSONValue.object(variables).jsonString()
        return operationID + arguments + " " + who
    }
}

/// What a differential run sends to both databases: the queries, run first and again after every mutation, and
/// the mutations, in order.
///
/// Between them the calls name every operation of the backend's connectors at least once (the test fails on an
/// operation without a call), with variables taken from the seed data, and include calls that fail (a
/// constraint, a `@check`, an `@auth` level) so that errors are compared as well as data.
struct DifferentialScript: Sendable {
    /// Read-only calls, repeated after each mutation so that every mutation's effect is compared.
    var queries: [DifferentialCall]
    /// Writing calls, in the order they run.
    var mutations: [DifferentialCall]

    /// Every call of the script.
    var calls: [DifferentialCall] { queries + mutations }
}

/// The callers the scripts sign in as.
enum DifferentialCaller {
    /// A signed-in user with a verified email (passes `USER` and `USER_EMAIL_VERIFIED`).
    static func verified(_ uid: String, email: String? = nil) -> AuthContext {
        var claims: JSONObject = [
            "sub": .string(uid), "user_id": .string(uid), "email_verified": true,
            "firebase": ["sign_in_provider": "password"],
        ]
        if let email { claims["email"] = .string(email) }
        return AuthContext(uid: uid, claims: claims)
    }

    /// A signed-in user whose email is not verified (passes `USER`, not `USER_EMAIL_VERIFIED`).
    static func unverified(_ uid: String) -> AuthContext {
        AuthContext(
            uid: uid,
            claims: [
                "sub": .string(uid), "user_id": .string(uid), "email_verified": false,
                "firebase": ["sign_in_provider": "password"],
            ])
    }

    /// An anonymous user (passes `USER_ANON` only).
    static func anonymous(_ uid: String) -> AuthContext {
        AuthContext(
            uid: uid,
            claims: ["sub": .string(uid), "user_id": .string(uid), "firebase": ["sign_in_provider": "anonymous"]])
    }

    /// A verified user with an extra custom claim, e.g. `librarian: true`.
    static func verified(_ uid: String, claim: String, _ value: JSONValue) -> AuthContext {
        var context = verified(uid)
        context.claims[claim] = value
        return context
    }
}
