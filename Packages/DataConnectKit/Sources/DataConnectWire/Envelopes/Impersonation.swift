/// Whom an admin request runs its operation as: `extensions.impersonate` of `:impersonateQuery`,
/// `:impersonateMutation` and `:executeGraphql`.
///
/// ```json
/// {"extensions": {"impersonate": {"authClaims": {"sub": "user-1", "email_verified": true}}}}
/// {"extensions": {"impersonate": {"unauthenticated": true}}}
/// ```
///
/// ```swift
/// let caller = Impersonation(extensions: body["extensions"])   // .authClaims(["sub": "user-1", …])
/// ```
public enum Impersonation: Hashable, Sendable {
    /// A signed-in caller with these token claims (`sub` is the uid).
    case authClaims(JSONObject)
    /// A caller who is not signed in.
    case unauthenticated

    /// Reads `impersonate` from a request's `extensions` member.
    ///
    /// Lenient, as the server is: `nil` when `extensions` or its `impersonate` member is absent or not an object;
    /// ``unauthenticated`` when `impersonate` is an object without an `authClaims` object.
    ///
    /// - Parameter extensions: The request's `extensions` member, if any.
    public init?(extensions: JSONValue?) {
        guard case .object(let impersonate)? = extensions?["impersonate"] else { return nil }
        if case .object(let claims)? = impersonate["authClaims"] {
            self = .authClaims(claims)
        } else {
            self = .unauthenticated
        }
    }

    /// The `extensions` member carrying this impersonation.
    public func toExtensionsJSON() -> JSONValue {
        switch self {
        case .authClaims(let claims): return ["impersonate": ["authClaims": .object(claims)]]
        case .unauthenticated: return ["impersonate": ["unauthenticated": true]]
        }
    }
}
