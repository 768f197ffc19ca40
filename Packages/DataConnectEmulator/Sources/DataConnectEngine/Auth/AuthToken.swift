import DataConnectEncoding
import DataConnectWire

/// Who is calling: the claims of a Firebase ID token, or nobody.
///
/// - Important: **Signatures are NOT verified.** ``decode(token:)`` reads the claims of whatever JWT it is given,
///   signed or not, expired or not, exactly as the Firebase Data Connect emulator does with the unsigned tokens the
///   Firebase Auth emulator issues. Anyone can therefore claim to be anyone. This is a development tool: an
///   emulator built on it must listen on localhost only and must **never face the internet**.
///
/// The user id comes from the `sub` claim (or `user_id` when only that is present); every claim is kept in
/// ``claims`` and reaches CEL as `auth.token`. Expiry (`exp`) is not checked.
///
/// ```swift
/// let token = AuthContext.unsignedToken(claims: ["sub": "u1", "email_verified": true])
/// let auth = try AuthContext.decode(token: token)
/// auth.uid            // "u1"
/// auth.emailVerified  // true
/// ```
public struct AuthContext: Hashable, Sendable {
    /// The user id: the `sub` claim, or `user_id` when `sub` is absent; `nil` when nobody is signed in.
    public var uid: String?
    /// Every claim of the token (`sub`, `email`, `email_verified`, `firebase`, custom claims, ...).
    public var claims: JSONObject

    /// The longest token ``decode(token:)`` reads, in bytes.
    public static let maxTokenLength = 64 * 1024

    /// Nobody: no token was sent.
    public static let unauthenticated = AuthContext(uid: nil, claims: [:])

    /// Creates a context from a user id and claims as they are.
    public init(uid: String?, claims: JSONObject) {
        self.uid = uid
        self.claims = claims
    }

    /// Creates a context from claims alone, as admin impersonation sends them (`extensions.impersonate.authClaims`).
    ///
    /// The user id is the `sub` claim, or `user_id` when there is no `sub`; claims without either give a context
    /// with claims but no user, which every `@auth` level above `PUBLIC` rejects.
    ///
    /// ```swift
    /// let admin = AuthContext(claims: ["sub": "admin-1", "admin": true])
    /// admin.uid  // "admin-1"
    /// ```
    ///
    /// - Parameter claims: the token claims.
    public init(claims: JSONObject) {
        self.init(uid: Self.userID(in: claims), claims: claims)
    }

    /// Whether a user (anonymous or not) is signed in.
    public var isAuthenticated: Bool {
        uid != nil
    }

    /// The sign-in provider, `firebase.sign_in_provider` (`password`, `google.com`, `anonymous`, `custom`, ...).
    public var signInProvider: String? {
        claims["firebase"]?["sign_in_provider"]?.stringValue
    }

    /// Whether the user signed in anonymously (`firebase.sign_in_provider == "anonymous"`).
    public var isAnonymous: Bool {
        signInProvider == "anonymous"
    }

    /// Whether the token says the user's email is verified (`email_verified == true`).
    public var emailVerified: Bool {
        claims["email_verified"]?.boolValue == true
    }

    /// The `auth` binding of CEL expressions: `null` with no user, otherwise `{"uid": ..., "token": {claims}}`.
    ///
    /// ```swift
    /// AuthContext(claims: ["sub": "u1"]).celValue  // {"uid":"u1","token":{"sub":"u1"}}
    /// AuthContext.unauthenticated.celValue          // null
    /// ```
    public var celValue: JSONValue {
        guard let uid else { return .null }
        return ["uid": .string(uid), "token": .object(claims)]
    }

    /// Reads the claims of a Firebase ID token **without verifying its signature**.
    ///
    /// The token is a JWT, `header.payload.signature`, each segment base64url (padding and the standard base64
    /// alphabet are tolerated). The header and payload must be JSON objects and the payload must carry a
    /// non-empty string `sub`. The signature, the algorithm and the expiry are not checked. A leading `Bearer `
    /// and surrounding whitespace are ignored.
    ///
    /// ```swift
    /// let auth = try AuthContext.decode(token: request.header("X-Firebase-Auth-Token"))
    /// ```
    ///
    /// - Parameter token: the value of the `X-Firebase-Auth-Token` header.
    /// - Returns: the caller's context.
    /// - Throws: ``AuthError`` when the text is not a JWT with a subject; callers answer `UNAUTHENTICATED`.
    public static func decode(token: String) throws(AuthError) -> AuthContext {
        var text = Substring(token)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if text.hasPrefix("Bearer ") { text = text.dropFirst(7).drop(while: \.isWhitespace) }
        guard !text.isEmpty else {
            throw AuthError(kind: .badLength, message: "invalid auth token: the token is empty")
        }
        guard text.utf8.count <= maxTokenLength else {
            throw AuthError(kind: .badLength, message: "invalid auth token: longer than \(maxTokenLength) bytes")
        }
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw AuthError(
                kind: .notAJWT,
                message: "invalid auth token: expected 3 dot-separated segments, found \(segments.count)")
        }
        _ = try jsonObject(segments[0], name: "header")
        let claims = try jsonObject(segments[1], name: "payload")
        guard case .string(let subject)? = claims["sub"], !subject.isEmpty else {
            throw AuthError(kind: .missingSubject, message: "invalid auth token: the payload has no \"sub\" claim")
        }
        return AuthContext(uid: subject, claims: claims)
    }

    /// Builds an unsigned JWT (`alg: none`, empty signature) carrying `claims`, as the Firebase Auth emulator does.
    ///
    /// For tests and tools. ``decode(token:)`` reads it back; a production verifier rejects it.
    ///
    /// ```swift
    /// let token = AuthContext.unsignedToken(claims: ["sub": "anon-1", "firebase": ["sign_in_provider": "anonymous"]])
    /// try AuthContext.decode(token: token).isAnonymous  // true
    /// ```
    ///
    /// - Parameter claims: the payload.
    /// - Returns: `base64url(header).base64url(payload).`
    public static func unsignedToken(claims: JSONObject) -> String {
        let header: JSONValue = ["alg": "none", "typ": "JWT"]
        return Base64.url.encode(header.serialized()) + "." + Base64.url.encode(JSONValue.object(claims).serialized())
            + "."
    }

    private static func userID(in claims: JSONObject) -> String? {
        if case .string(let subject)? = claims["sub"], !subject.isEmpty { return subject }
        if case .string(let userID)? = claims["user_id"], !userID.isEmpty { return userID }
        return nil
    }

    private static func jsonObject(_ segment: Substring, name: String) throws(AuthError) -> JSONObject {
        guard let bytes = Base64.decodeLeniently(segment) else {
            throw AuthError(kind: .invalidBase64, message: "invalid auth token: the \(name) is not base64url")
        }
        let value: JSONValue
        do {
            value = try JSONReader(options: .init(maxDepth: 64)).parse(bytes)
        } catch {
            throw AuthError(kind: .invalidJSON, message: "invalid auth token: the \(name) is not JSON (\(error))")
        }
        guard case .object(let object) = value else {
            throw AuthError(kind: .invalidJSON, message: "invalid auth token: the \(name) is not a JSON object")
        }
        return object
    }
}
