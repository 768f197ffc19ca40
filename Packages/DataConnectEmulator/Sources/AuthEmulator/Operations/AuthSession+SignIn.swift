import DataConnectWire
import Foundation

/// Creating accounts and signing in: `accounts:signUp`, `:signInWithPassword`, `:signInWithCustomToken`,
/// `:signInWithEmailLink`.
extension AuthSession {
    /// The audience of custom tokens the Admin SDKs make.
    static let customTokenAudience =
        "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// `accounts:signUp` (and `projects/{p}/accounts`): an email/password or anonymous account, or, for an admin,
    /// any account without signing it in.
    mutating func signUp() throws(AuthAPIError) -> JSONValue {
        var user = UserRecord(localId: "")
        user.lastLoginAt = nowMilliseconds
        var provider: String?
        let email = body.string("email")
        let password = body.string("password")
        let idToken = body.nonEmpty("idToken")
        if isAdmin {
            if idToken != nil { try require(!body.has("localId"), "UNEXPECTED_PARAMETER : User ID") }
            if let localId = body.nonEmpty("localId") {
                try require(project.user(localId: localId) == nil, "DUPLICATE_LOCAL_ID")
            }
            user.displayName = body.string("displayName")
            user.photoUrl = body.string("photoUrl")
            user.emailVerified = body.bool("emailVerified") ?? false
            if let phone = body.nonEmpty("phoneNumber") {
                try require(Identifiers.isValidPhoneNumber(phone), "INVALID_PHONE_NUMBER : Invalid format.")
                try require(project.user(phoneNumber: phone) == nil, "PHONE_NUMBER_EXISTS")
                user.phoneNumber = phone
            }
            if body.bool("disabled") == true { user.disabled = true }
        } else {
            try require(!body.has("localId"), "UNEXPECTED_PARAMETER : User ID")
            if idToken != nil || !(password ?? "").isEmpty || !(email ?? "").isEmpty {
                user.displayName = body.string("displayName")
                user.emailVerified = false
                try require(!(email ?? "").isEmpty, "MISSING_EMAIL")
                try require(!(password ?? "").isEmpty, "MISSING_PASSWORD")
                provider = "password"
            } else {
                provider = "anonymous"
            }
        }
        if let email, !email.isEmpty || provider != nil {
            try require(Identifiers.isValidEmail(email), "INVALID_EMAIL")
            let canonical = Identifiers.canonicalEmail(email)
            try require(project.user(email: canonical) == nil, "EMAIL_EXISTS")
            user.email = canonical
        }
        if let password, !password.isEmpty {
            try require(password.count >= PasswordRule.minimumLength, PasswordRule.weakPasswordMessage)
            (user.passwordHash, user.salt) = PasswordHasher.hash(password)
            user.passwordUpdatedAt = Int64(nowMilliseconds)
            user.validSince = String(nowSeconds)
        }
        var existing: UserRecord?
        if let idToken { existing = try parseIDToken(idToken).user }
        if var linked = existing {
            linked.lastLoginAt = user.lastLoginAt
            if user.displayName != nil { linked.displayName = user.displayName }
            if user.email != nil {
                linked.email = user.email
                linked.emailVerified = user.emailVerified
            }
            if user.passwordHash != nil {
                (linked.passwordHash, linked.salt) = (user.passwordHash, user.salt)
                linked.passwordUpdatedAt = user.passwordUpdatedAt
                linked.validSince = user.validSince
            }
            user = save(linked)
        } else {
            user.localId = body.nonEmpty("localId") ?? newLocalID()
            user.createdAt = nowMilliseconds
            user = save(user)
            if email != nil, !isAdmin { try require(!user.isDisabled, "USER_DISABLED") }
        }
        var response: JSONObject = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": .string(user.localId)]
        if let name = user.displayName { response["displayName"] = .string(name) }
        if let email = user.email { response["email"] = .string(email) }
        if let provider {
            for (key, value) in issueTokens(user, provider: provider) { response[key] = value }
        }
        return .object(response)
    }

    /// `accounts:signInWithPassword`.
    mutating func signInWithPassword() throws(AuthAPIError) -> JSONValue {
        guard let email = body.string("email") else { throw .badRequest("MISSING_EMAIL") }
        try require(Identifiers.isValidEmail(email), "INVALID_EMAIL")
        guard let password = body.nonEmpty("password") else { throw .badRequest("MISSING_PASSWORD") }
        let canonical = Identifiers.canonicalEmail(email)
        let found = project.user(email: canonical)
        let privacy = project.config.enableImprovedEmailPrivacy
        guard var user = found else { throw .badRequest(privacy ? "INVALID_LOGIN_CREDENTIALS" : "EMAIL_NOT_FOUND") }
        try require(!user.isDisabled, "USER_DISABLED")
        let wrongPassword = privacy ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD"
        guard let hash = user.passwordHash, let salt = user.salt else { throw .badRequest(wrongPassword) }
        try require(PasswordHasher.verify(password, hash: hash, salt: salt), wrongPassword)
        user.lastLoginAt = nowMilliseconds
        user = save(user)
        var response: JSONObject = [
            "kind": "identitytoolkit#VerifyPasswordResponse", "registered": true, "localId": .string(user.localId),
            "email": .string(canonical),
        ]
        for (key, value) in issueTokens(user, provider: "password") { response[key] = value }
        return .object(response)
    }

    /// `accounts:signInWithCustomToken`: the token (a JWT, signed or not, or plain JSON) is decoded, not verified.
    mutating func signInWithCustomToken() throws(AuthAPIError) -> JSONValue {
        guard let token = body.nonEmpty("token") else { throw .badRequest("MISSING_CUSTOM_TOKEN") }
        let payload: JSONObject
        if token.hasPrefix("{") {
            guard let object = try? JSONValue(parsing: token).objectValue else {
                throw .badRequest(
                    "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
            }
            payload = object
        } else {
            guard let jwt = JWT(decoding: token) else {
                throw .badRequest("INVALID_CUSTOM_TOKEN : Invalid assertion format")
            }
            let audience = jwt.payload.string("aud") ?? "undefined"
            try require(
                audience == Self.customTokenAudience,
                "INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): \(audience) "
                    + "Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))")
            payload = jwt.payload
        }
        guard let localId = payload.string("uid") ?? payload.string("user_id") else {
            throw .badRequest("MISSING_IDENTIFIER")
        }
        var extraClaims: JSONObject = [:]
        if let claims = payload["claims"] { extraClaims = try validateClaims(claims) }
        let existing = project.user(localId: localId)
        var user: UserRecord
        if let existing {
            try require(!existing.isDisabled, "USER_DISABLED")
            user = existing
        } else {
            user = UserRecord(localId: localId)
            user.createdAt = nowMilliseconds
        }
        user.customAuth = true
        user.lastLoginAt = nowMilliseconds
        user = save(user)
        var response: JSONObject = [
            "kind": "identitytoolkit#VerifyCustomTokenResponse", "isNewUser": .bool(existing == nil),
        ]
        for (key, value) in issueTokens(user, provider: "custom", extraClaims: extraClaims) { response[key] = value }
        return .object(response)
    }

    /// `accounts:signInWithEmailLink`: applies an `EMAIL_SIGNIN` code, creating the account when needed.
    mutating func signInWithEmailLink() throws(AuthAPIError) -> JSONValue {
        let fromToken = try body.nonEmpty("idToken").map { token throws(AuthAPIError) in try parseIDToken(token).user }
        guard let rawEmail = body.nonEmpty("email") else { throw .badRequest("MISSING_EMAIL") }
        let email = Identifiers.canonicalEmail(rawEmail)
        guard let code = body.nonEmpty("oobCode") else { throw .badRequest("MISSING_OOB_CODE") }
        guard let oob = project.oob(code: code), oob.requestType == "EMAIL_SIGNIN" else {
            throw .badRequest("INVALID_OOB_CODE")
        }
        try require(email == oob.email, "INVALID_EMAIL : The email provided does not match the sign-in email address.")
        project.removeOob(code: code)
        let fromEmail = project.user(email: email)
        var user: UserRecord
        if let existing = fromToken ?? fromEmail {
            try require(!existing.isDisabled, "USER_DISABLED")
            if let fromToken, let fromEmail { try require(fromToken.localId == fromEmail.localId, "EMAIL_EXISTS") }
            user = existing
        } else {
            user = UserRecord(localId: newLocalID())
            user.createdAt = nowMilliseconds
        }
        let isNewUser = fromToken == nil && fromEmail == nil
        user.email = email
        user.emailVerified = true
        user.emailLinkSignin = true
        user.lastLoginAt = nowMilliseconds
        user = save(user)
        var response: JSONObject = [
            "kind": "identitytoolkit#EmailLinkSigninResponse", "email": .string(email),
            "localId": .string(user.localId), "isNewUser": .bool(isNewUser),
        ]
        for (key, value) in issueTokens(user, provider: "password") { response[key] = value }
        return .object(response)
    }
}
