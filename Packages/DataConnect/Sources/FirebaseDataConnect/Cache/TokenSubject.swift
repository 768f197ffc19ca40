import DataConnectWire
import Foundation

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
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let payload = Data(base64Encoded: base64),
            case .object(let claims) = try? JSONValue(parsing: [UInt8](payload))
        else { return nil }
        return claims["sub"]?.stringValue ?? claims["user_id"]?.stringValue
    }
}
