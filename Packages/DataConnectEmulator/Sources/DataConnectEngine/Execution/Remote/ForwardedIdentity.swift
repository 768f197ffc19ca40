import DataConnectEncoding
import DataConnectWire

/// The caller's identity as a custom resolver receives it: the `X-Firebase-Auth-Token` header.
///
/// The Cloud Functions GraphQL server hands this header to resolvers as `context.auth.token`. The emulator
/// sends an unsigned JWT (`alg: none`, as the Auth emulator issues) whose payload is the caller's claims,
/// whether they came from an ID token or from admin impersonation, so a resolver decodes it the same way in
/// every case. Unauthenticated calls send no header.
enum ForwardedIdentity {
    /// The header's name.
    static let headerName = "X-Firebase-Auth-Token"

    /// The token for `auth`, or `nil` when nobody is signed in.
    static func token(for auth: AuthContext?) -> String? {
        guard let auth, auth.isAuthenticated || !auth.claims.isEmpty else { return nil }
        let header = JSONValue.object(["alg": .string("none"), "typ": .string("JWT")]).serialized()
        let payload = JSONValue.object(auth.claims).serialized()
        return Base64.url.encode(header) + "." + Base64.url.encode(payload) + "."
    }
}
