/// Why an `X-Firebase-Auth-Token` could not be read as a Firebase ID token.
///
/// Callers answer every one of these with `UNAUTHENTICATED` and put ``message`` in the response.
///
/// ```swift
/// do {
///     _ = try AuthContext.decode(token: "not-a-token")
/// } catch {
///     print(error.message)  // invalid auth token: expected 3 dot-separated segments, found 1
/// }
/// ```
public struct AuthError: Error, Hashable, Sendable {
    /// The kind of failure, for code that reacts to it.
    public enum Kind: Hashable, Sendable {
        /// The token is empty or larger than ``AuthContext/maxTokenLength``.
        case badLength
        /// The token does not have three dot-separated segments.
        case notAJWT
        /// A segment is not base64url.
        case invalidBase64
        /// The header or payload is not a JSON object.
        case invalidJSON
        /// The payload has no non-empty string `sub` claim.
        case missingSubject
    }

    /// The kind of failure.
    public var kind: Kind
    /// What went wrong, e.g. `invalid auth token: the payload is not base64url`.
    public var message: String

    /// Creates an error value.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}

extension AuthError: CustomStringConvertible {
    /// The message; see ``message``.
    public var description: String { message }
}
