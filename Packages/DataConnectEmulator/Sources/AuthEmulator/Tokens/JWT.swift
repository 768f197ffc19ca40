import DataConnectEncoding
import DataConnectWire

/// A JSON Web Token read without checking its signature, or made unsigned (`alg: none`), as the Auth emulator's
/// tokens are.
///
/// ```swift
/// let token = JWT.unsigned(["sub": "u1"])   // eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ1MSJ9.
/// JWT(decoding: token)?.payload["sub"]     // "u1"
/// ```
struct JWT: Sendable {
    /// The header (`alg`, `typ`, `kid`).
    var header: JSONObject
    /// The claims.
    var payload: JSONObject

    /// Decodes a compact JWT (two or three dot-separated segments); `nil` when it is not one.
    ///
    /// - Parameter token: The token text.
    init?(decoding token: String) {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 2 || segments.count == 3,
            let headerBytes = Base64.decodeLeniently(segments[0]),
            let payloadBytes = Base64.decodeLeniently(segments[1]),
            let header = try? JSONValue(parsing: headerBytes).objectValue,
            let payload = try? JSONValue(parsing: payloadBytes).objectValue
        else { return nil }
        self.header = header
        self.payload = payload
    }

    /// An unsigned token: `{"alg":"none","typ":"JWT"}`, the claims, and an empty signature.
    ///
    /// - Parameter payload: The claims.
    /// - Returns: `header.payload.` in base64url.
    static func unsigned(_ payload: JSONObject) -> String {
        let header: JSONValue = ["alg": "none", "typ": "JWT"]
        return Base64.url.encode(header.serialized()) + "." + Base64.url.encode(JSONValue.object(payload).serialized())
            + "."
    }
}
