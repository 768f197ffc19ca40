import DataConnectWire
import Foundation

/// ID tokens, refresh tokens and session cookies.
extension AuthSession {
    /// How long ID tokens last.
    static let idTokenLifetime: Int64 = 3600

    /// The custom claims no token may set (firebase-tools' `FORBIDDEN_CUSTOM_CLAIMS`).
    static let forbiddenClaims = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time", "firebase",
        "at_hash", "c_hash",
    ]

    /// Issues an ID token and a refresh token for `user`, recording `lastRefreshAt`.
    ///
    /// - Returns: `idToken`, `refreshToken`, `expiresIn` ("3600").
    mutating func issueTokens(
        _ user: UserRecord, provider: String, extraClaims: JSONObject = [:]
    ) -> JSONObject {
        var user = user
        user.lastRefreshAt = Identifiers.iso8601(now)
        user = save(user)
        let idToken = makeIDToken(user, provider: provider, extraClaims: extraClaims)
        let refresh = RefreshTokenRecord(
            localId: user.localId, provider: provider, extraClaims: extraClaims, projectId: project.projectID,
            issuedAt: nowSeconds)
        return [
            "idToken": .string(idToken), "refreshToken": .string(refresh.token),
            "expiresIn": .string(String(Self.idTokenLifetime)),
        ]
    }

    /// The unsigned ID token of `user` with its current profile and custom claims.
    func makeIDToken(_ user: UserRecord, provider: String, extraClaims: JSONObject) -> String {
        var identities: JSONObject = [:]
        if let email = user.email { identities["email"] = [.string(email)] }
        for info in user.providerUserInfo ?? [] where info.providerId != "password" && !info.rawId.isEmpty {
            var ids = identities[info.providerId]?.arrayValue ?? []
            ids.append(.string(info.rawId))
            identities[info.providerId] = .array(ids)
        }
        var claims: JSONObject = [:]
        if let name = user.displayName { claims["name"] = .string(name) }
        if let picture = user.photoUrl { claims["picture"] = .string(picture) }
        for (key, value) in user.customClaims { claims[key] = value }
        for (key, value) in extraClaims { claims[key] = value }
        if let email = user.email { claims["email"] = .string(email) }
        if let verified = user.emailVerified { claims["email_verified"] = .bool(verified) }
        if let phone = user.phoneNumber { claims["phone_number"] = .string(phone) }
        if provider == "anonymous" { claims["provider_id"] = "anonymous" }
        claims["auth_time"] = .number(JSONNumber(authTime(of: user)))
        claims["user_id"] = .string(user.localId)
        claims["firebase"] = ["identities": .object(identities), "sign_in_provider": .string(provider)]
        claims["iat"] = .number(JSONNumber(nowSeconds))
        claims["exp"] = .number(JSONNumber(nowSeconds + Self.idTokenLifetime))
        claims["aud"] = .string(project.projectID)
        claims["iss"] = .string("https://securetoken.google.com/\(project.projectID)")
        claims["sub"] = .string(user.localId)
        return JWT.unsigned(claims)
    }

    /// The sign-in time: `lastLoginAt`, else `lastRefreshAt`, else now; in seconds.
    private func authTime(of user: UserRecord) -> Int64 {
        if let login = user.lastLoginAt, let milliseconds = Int64(login) { return milliseconds / 1000 }
        if let refresh = user.lastRefreshAt, let date = Identifiers.date(iso8601: refresh) {
            return Identifiers.seconds(date)
        }
        return nowSeconds
    }

    /// Reads an ID token and finds its account.
    ///
    /// - Throws: `INVALID_ID_TOKEN` when it is not a JWT, `USER_NOT_FOUND`, `TOKEN_EXPIRED` when revoked (issued
    ///   before the account's `validSince`) or past its `exp`, `USER_DISABLED`.
    func parseIDToken(_ token: String) throws(AuthAPIError) -> (user: UserRecord, payload: JSONObject, provider: String)
    {
        guard let jwt = JWT(decoding: token), let userID = jwt.payload.string("user_id") ?? jwt.payload.string("sub")
        else { throw .badRequest("INVALID_ID_TOKEN") }
        guard let user = project.user(localId: userID) else { throw .badRequest("USER_NOT_FOUND") }
        let issuedAt = jwt.payload["iat"]?.int64Value ?? 0
        if let validSince = user.validSince.flatMap({ Int64($0) }), issuedAt < validSince {
            throw .badRequest("TOKEN_EXPIRED")
        }
        if let expiry = jwt.payload["exp"]?.int64Value, expiry <= nowSeconds { throw .badRequest("TOKEN_EXPIRED") }
        if user.isDisabled { throw .badRequest("USER_DISABLED") }
        let provider = jwt.payload["firebase"]?["sign_in_provider"]?.stringValue ?? "custom"
        return (user, jwt.payload, provider)
    }

    /// Checks a custom claims object: an object without reserved names.
    func validateClaims(_ claims: JSONValue) throws(AuthAPIError) -> JSONObject {
        guard let object = claims.objectValue else { throw .badRequest("INVALID_CLAIMS") }
        for name in Self.forbiddenClaims where object.contains(key: name) {
            throw .badRequest("FORBIDDEN_CLAIM : \(name)")
        }
        return object
    }

    /// Checks serialized custom claims (`customAttributes`): at most 1000 characters of JSON object.
    func validateSerializedClaims(_ text: String) throws(AuthAPIError) {
        try require(text.count <= 1000, "CLAIMS_TOO_LARGE")
        guard let value = try? JSONValue(parsing: text) else { throw .badRequest("INVALID_CLAIMS") }
        _ = try validateClaims(value)
    }

    /// `POST /securetoken.googleapis.com/v1/token`: exchanges a refresh token for new tokens.
    mutating func grantToken() throws(AuthAPIError) -> JSONValue {
        guard let grantType = body.nonEmpty("grantType") else { throw .badRequest("MISSING_GRANT_TYPE") }
        try require(grantType == "refresh_token", "INVALID_GRANT_TYPE")
        guard let token = body.nonEmpty("refreshToken") else { throw .badRequest("MISSING_REFRESH_TOKEN") }
        let record = try RefreshTokenRecord(token: token)
        try require(record.projectId == project.projectID, "INVALID_REFRESH_TOKEN")
        guard let user = project.user(localId: record.localId) else { throw .badRequest("USER_NOT_FOUND") }
        try require(!user.isDisabled, "USER_DISABLED")
        if let validSince = user.validSince.flatMap({ Int64($0) }), record.issuedAt < validSince {
            throw .badRequest("TOKEN_EXPIRED")
        }
        let tokens = issueTokens(user, provider: record.provider, extraClaims: record.extraClaims)
        return [
            "id_token": tokens["idToken"]!, "access_token": tokens["idToken"]!, "expires_in": tokens["expiresIn"]!,
            "refresh_token": tokens["refreshToken"]!, "token_type": "Bearer", "user_id": .string(user.localId),
            "project_id": "12345",
        ]
    }

    /// `projects/{p}:createSessionCookie`: an unsigned session cookie carrying the ID token's claims.
    func createSessionCookie() throws(AuthAPIError) -> JSONValue {
        guard let idToken = body.nonEmpty("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
        let maximum: Int64 = 14 * 24 * 60 * 60
        let duration = body.string("validDuration").flatMap { Int64($0) }.flatMap { $0 == 0 ? nil : $0 } ?? maximum
        try require(duration >= 5 * 60 && duration <= maximum, "INVALID_DURATION")
        var payload = try parseIDToken(idToken).payload
        payload["iat"] = .number(JSONNumber(nowSeconds))
        payload["exp"] = .number(JSONNumber(nowSeconds + duration))
        payload["iss"] = .string("https://session.firebase.google.com/\(payload.string("aud") ?? project.projectID)")
        return ["sessionCookie": .string(JWT.unsigned(payload))]
    }
}
