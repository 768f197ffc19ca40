import DataConnectEncoding
import DataConnectWire

/// Reads the user id out of a Firebase ID token, to pick that user's cache.
///
/// The token is not verified: the server does that. Only the payload's `sub` (or `user_id`) is read, so any
/// ``AuthTokenProvider`` works without reporting its user separately.
enum TokenSubject {
    /// The `sub` claim of a JWT, or `nil` when the token is not a readable JWT.
    ///
    /// ```swift
    /// TokenSubject.uid(fromToken: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1aWQtYWxpY2UifQ.")  // "uid-alice"
    /// ```
    static func uid(fromToken token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        guard let payload = Base64.decodeLeniently(parts[1]),
            case .object(let claims) = try? JSONValue(parsing: payload)
        else { return nil }
        return claims["sub"]?.stringValue ?? claims["user_id"]?.stringValue
    }
}
