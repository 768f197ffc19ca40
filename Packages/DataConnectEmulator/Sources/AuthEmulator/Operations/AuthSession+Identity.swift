import DataConnectWire
import Foundation

/// `accounts:signInWithIdp` with the fake identity providers firebase-tools accepts: the provider's `id_token` is
/// plain JSON or a JWT read without verification (`{"sub": "…", "email": "…", "email_verified": true}`).
extension AuthSession {
    /// Signs in (creating or linking the account) with an identity provider's credential.
    mutating func signInWithIdp() throws(AuthAPIError) -> JSONValue {
        if body.has("returnRefreshToken") { throw .notImplemented("returnRefreshToken is not implemented yet.") }
        if body.has("pendingIdToken") { throw .notImplemented("pendingIdToken is not implemented yet.") }
        let (parameters, normalized) = try requestParameters()
        guard let providerId = parameters["providerId"]?.lowercased(), !providerId.isEmpty else {
            throw .badRequest(
                "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: \(normalized)")
        }
        let oauthIdToken = parameters["id_token"].flatMap { $0.isEmpty ? nil : $0 }
        let oauthAccessToken = parameters["access_token"].flatMap { $0.isEmpty ? nil : $0 }
        var parsedClaims = try Self.parseClaims(oauthIdToken)
        if parsedClaims == nil { parsedClaims = try Self.parseClaims(oauthAccessToken) }
        guard let claims = parsedClaims else {
            if let oauthIdToken {
                throw .badRequest(
                    "INVALID_IDP_RESPONSE : Unable to parse id_token: \(oauthIdToken) "
                        + "((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))")
            }
            if oauthAccessToken != nil {
                throw .notImplemented(
                    "The Auth Emulator only support sign-in with \(providerId) using id_token, not access_token. "
                        + "Please update your code to use id_token.")
            }
            throw .notImplemented("The Auth Emulator only supports sign-in with credentials (id_token required).")
        }
        let rawId = claims.string("sub")!
        let email = claims.string("email").map(Identifiers.canonicalEmail)
        let emailVerified = claims.bool("email_verified") ?? false
        let displayName = claims.string("name")
        let photoUrl = claims.string("picture")
        var response: JSONObject = [
            "kind": "identitytoolkit#VerifyAssertionResponse", "context": "", "providerId": .string(providerId),
        ]
        if let displayName {
            response["displayName"] = .string(displayName)
            response["fullName"] = .string(displayName)
        }
        if let email { response["email"] = .string(email) }
        response["emailVerified"] = .bool(emailVerified)
        if let photoUrl { response["photoUrl"] = .string(photoUrl) }
        if providerId == "google.com" {
            if let given = claims.string("given_name") { response["firstName"] = .string(given) }
            if let family = claims.string("family_name") { response["lastName"] = .string(family) }
            var scopes = "openid https://www.googleapis.com/auth/userinfo.profile"
            if email != nil { scopes += " https://www.googleapis.com/auth/userinfo.email" }
            var raw: JSONObject = ["granted_scopes": .string(scopes), "id": .string(rawId)]
            if let displayName { raw["name"] = .string(displayName) }
            if let given = claims["given_name"] { raw["given_name"] = given }
            if let family = claims["family_name"] { raw["family_name"] = family }
            raw["verified_email"] = .bool(emailVerified)
            raw["locale"] = "en"
            if let email { raw["email"] = .string(email) }
            if let photoUrl { raw["picture"] = .string(photoUrl) }
            response["rawUserInfo"] = .string(JSONValue.object(raw).jsonString())
            response["federatedId"] = .string("https://accounts.google.com/\(rawId)")
        } else {
            response["rawUserInfo"] = .string(JSONValue.object(claims).jsonString())
            response["federatedId"] = .string(rawId)
        }
        response["oauthAccessToken"] = .string(oauthAccessToken ?? "FirebaseAuthEmulatorFakeAccessToken_\(providerId)")
        if let oauthIdToken { response["oauthIdToken"] = .string(oauthIdToken) }

        let fromToken = try body.nonEmpty("idToken").map { token throws(AuthAPIError) in try parseIDToken(token).user }
        let matchingProvider = project.user(providerId: providerId, rawId: rawId)
        var user: UserRecord
        var isNewUser = false
        if let fromToken {
            try require(matchingProvider == nil, "FEDERATED_USER_ID_ALREADY_LINKED")
            user = fromToken
            if project.config.oneAccountPerEmail, let email {
                let owner = project.user(email: email)
                try require(owner == nil || owner?.localId == user.localId, "EMAIL_EXISTS")
                if user.email == nil {
                    user.email = email
                    user.emailVerified = emailVerified
                }
            }
            if let email, emailVerified, user.email == email { user.emailVerified = true }
        } else if let matchingProvider {
            user = matchingProvider
        } else if project.config.oneAccountPerEmail, let email, let owner = project.user(email: email) {
            guard emailVerified else {
                response["needConfirmation"] = true
                response["localId"] = .string(owner.localId)
                let verified = (owner.providerUserInfo ?? []).map(\.providerId).filter {
                    $0 != "password" && $0 != "phone"
                }
                response["verifiedProvider"] = .array(verified.map(JSONValue.string))
                return .object(response)
            }
            user = owner
            if owner.emailVerified != true {
                user.passwordHash = nil
                user.phoneNumber = nil
                user.validSince = String(nowSeconds)
                user.providerUserInfo = nil
            }
            user.displayName = displayName
            user.photoUrl = photoUrl
            user.emailVerified = true
        } else {
            isNewUser = true
            user = UserRecord(localId: newLocalID())
            user.createdAt = nowMilliseconds
            user.displayName = displayName
            user.photoUrl = photoUrl
            if project.config.oneAccountPerEmail, let email {
                user.email = email
                user.emailVerified = emailVerified
            }
        }
        try require(!user.isDisabled, "USER_DISABLED")
        let info = ProviderUserInfo(
            providerId: providerId, rawId: rawId, federatedId: rawId, email: email, displayName: displayName,
            photoUrl: photoUrl, screenName: claims.string("screen_name"))
        user.lastLoginAt = nowMilliseconds
        user = save(user, upserting: [info])
        response["localId"] = .string(user.localId)
        if isNewUser { response["isNewUser"] = true }
        if user.email == email, let verified = user.emailVerified { response["emailVerified"] = .bool(verified) }
        for (key, value) in issueTokens(user, provider: providerId) { response[key] = value }
        return .object(response)
    }

    /// The parameters of `requestUri`, overridden by `postBody` and then by the URI's fragment.
    private func requestParameters() throws(AuthAPIError) -> (parameters: [String: String], uri: String) {
        guard let requestUri = body.nonEmpty("requestUri") else { throw .badRequest("MISSING_REQUEST_URI") }
        guard let components = URLComponents(string: requestUri), components.scheme != nil, components.host != nil
        else { throw .badRequest("INVALID_REQUEST_URI") }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        for (name, value) in FormDecoding.pairs(body.string("postBody") ?? "") { parameters[name] = value }
        for (name, value) in FormDecoding.pairs(components.fragment ?? "") { parameters[name] = value }
        return (parameters, requestUri)
    }

    /// The claims of a fake `id_token`: strict JSON, or a JWT's payload; they must carry a string `sub`.
    private static func parseClaims(_ token: String?) throws(AuthAPIError) -> JSONObject? {
        guard let token else { return nil }
        let claims: JSONObject
        if token.hasPrefix("{") {
            guard let object = try? JSONValue(parsing: token).objectValue else {
                throw .badRequest(
                    "INVALID_IDP_RESPONSE : Unable to parse id_token: \(token) "
                        + "((Auth Emulator failed to parse fake id_token as strict JSON.))")
            }
            claims = object
        } else {
            guard let jwt = JWT(decoding: token) else { return nil }
            claims = jwt.payload
        }
        try require(
            claims.has("sub"),
            "INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields. "
                + "((Missing \"sub\" field. This field is required and must be a unique identifier.))")
        try require(claims["sub"]?.stringValue != nil, "INVALID_IDP_RESPONSE : ((The \"sub\" field must be a string.))")
        return claims
    }
}
