import DataConnectWire
import Foundation

/// Reading, changing and deleting accounts: `accounts:lookup`, `:update`, `:delete`.
extension AuthSession {
    /// `accounts:lookup`: the caller's account (by `idToken`), or, for an admin, the accounts named by `localId`,
    /// `email`, `phoneNumber` and `federatedUserId` lists.
    func lookup() throws(AuthAPIError) -> JSONValue {
        var users: [UserRecord] = []
        var seen: Set<String> = []
        func add(_ user: UserRecord?) {
            guard let user, seen.insert(user.localId).inserted else { return }
            users.append(user)
        }
        if isAdmin {
            if body.has("initialEmail") { throw .notImplemented("Lookup by initialEmail is not implemented.") }
            for localId in body.strings("localId") { add(project.user(localId: localId)) }
            for email in body.strings("email") { add(project.user(email: Identifiers.canonicalEmail(email))) }
            for phone in body.strings("phoneNumber") { add(project.user(phoneNumber: phone)) }
            for federated in body["federatedUserId"]?.arrayValue ?? [] {
                guard let providerId = federated["providerId"]?.stringValue, let rawId = federated["rawId"]?.stringValue
                else { continue }
                add(project.user(providerId: providerId, rawId: rawId))
            }
        } else {
            guard let idToken = body.nonEmpty("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
            users.append(try parseIDToken(idToken).user)
        }
        var response: JSONObject = ["kind": "identitytoolkit#GetAccountInfoResponse"]
        // No `users` when none is found, as firebase-tools (the Node.js Admin SDK relies on it).
        if !users.isEmpty { response["users"] = .array(users.map(\.json)) }
        return .object(response)
    }

    /// `accounts:delete`: the caller's account (by `idToken`), or, for an admin, the one named by `localId`.
    mutating func deleteAccount() throws(AuthAPIError) -> JSONValue {
        let user: UserRecord
        if isAdmin {
            user = try requireUser(localId: body.string("localId"))
        } else {
            guard let idToken = body.nonEmpty("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
            user = try parseIDToken(idToken).user
        }
        delete(user.localId)
        return ["kind": "identitytoolkit#DeleteAccountResponse"]
    }

    /// `accounts:update` (`setAccountInfo`): profile, email, password, attribute deletion; for an admin also
    /// `disableUser`, `emailVerified`, `customAttributes`, `validSince`, `phoneNumber`; or an `oobCode` to apply
    /// (`VERIFY_EMAIL`). New tokens come back when the change revokes the old ones (email, password, validSince).
    mutating func update() throws(AuthAPIError) -> JSONValue {
        for field in ["provider", "upgradeToFederatedLogin"] where body.has(field) {
            throw .notImplemented("\(field) is not implemented yet.")
        }
        if isAdmin {
            try require(body.nonEmpty("localId") != nil, "MISSING_LOCAL_ID")
        } else {
            try require(
                body.nonEmpty("idToken") != nil || body.nonEmpty("oobCode") != nil,
                "INVALID_REQ_TYPE : Unsupported request parameters.")
            try require(!body.has("customAttributes"), "INSUFFICIENT_PERMISSION")
        }
        if let claims = body.string("customAttributes"), !claims.isEmpty { try validateSerializedClaims(claims) }
        let deleteAttributes = body.strings("deleteAttribute")
        for attribute in deleteAttributes where attribute == "PROVIDER" || attribute == "RAW_USER_INFO" {
            throw .notImplemented("deleteAttribute: \(attribute)")
        }
        var user: UserRecord
        var provider: String?
        var newEmail: String?
        var revoked = false
        if let code = body.nonEmpty("oobCode") {
            guard let oob = project.oob(code: code) else { throw .badRequest("INVALID_OOB_CODE") }
            guard oob.requestType == "VERIFY_EMAIL" else { throw .notImplemented(oob.requestType) }
            project.removeOob(code: code)
            provider = "password"
            guard let found = project.user(email: oob.email) else { throw .badRequest("INVALID_OOB_CODE") }
            user = found
            user.emailVerified = true
        } else {
            if let idToken = body.nonEmpty("idToken") {
                (user, _, provider) = try parseIDToken(idToken)
                try require(!body.has("disableUser"), "OPERATION_NOT_ALLOWED")
            } else {
                user = try requireUser(localId: body.string("localId"))
            }
            if let email = body.nonEmpty("email") {
                try require(Identifiers.isValidEmail(email), "INVALID_EMAIL")
                let canonical = Identifiers.canonicalEmail(email)
                newEmail = canonical
                if canonical != user.email {
                    try require(project.user(email: canonical) == nil, "EMAIL_EXISTS")
                    if provider != "anonymous", let old = user.email, user.initialEmail == nil {
                        user.initialEmail = old
                    }
                    user.email = canonical
                    user.emailVerified = false
                    revoked = true
                }
            }
            if let password = body.nonEmpty("password") {
                try require(password.count >= PasswordRule.minimumLength, PasswordRule.weakPasswordMessage)
                (user.passwordHash, user.salt) = PasswordHasher.hash(password)
                user.passwordUpdatedAt = Int64(nowMilliseconds)
                provider = "password"
                revoked = true
            }
            if revoked || body.has("validSince") { user.validSince = String(nowSeconds) }
            if let name = body.string("displayName") { user.displayName = name }
            if let photo = body.string("photoUrl") { user.photoUrl = photo }
            if isAdmin { try applyAdminFields(to: &user) }
            for attribute in deleteAttributes {
                switch attribute {
                case "DISPLAY_NAME": user.displayName = nil
                case "PHOTO_URL": user.photoUrl = nil
                case "PASSWORD": (user.passwordHash, user.salt) = (nil, nil)
                case "EMAIL": (user.email, user.emailVerified, user.emailLinkSignin) = (nil, nil, nil)
                default: continue
                }
            }
            let deleteProviders = body.strings("deleteProvider")
            if deleteProviders.contains("password") {
                (user.email, user.emailVerified, user.emailLinkSignin) = (nil, nil, nil)
                (user.passwordHash, user.salt) = (nil, nil)
            }
            if deleteProviders.contains("phone") { user.phoneNumber = nil }
        }
        let validSinceChanged = revoked || body.has("validSince")
        user = save(user, deleting: body.strings("deleteProvider"))
        var response: JSONObject = [
            "kind": "identitytoolkit#SetAccountInfoResponse", "localId": .string(user.localId),
        ]
        if let verified = user.emailVerified { response["emailVerified"] = .bool(verified) }
        if let providers = user.providerUserInfo { response["providerUserInfo"] = .array(providers.map(\.json)) }
        if let email = user.email { response["email"] = .string(email) }
        if let name = user.displayName { response["displayName"] = .string(name) }
        if let photo = user.photoUrl { response["photoUrl"] = .string(photo) }
        if let newEmail { response["newEmail"] = .string(newEmail) }
        if let hash = user.passwordHash { response["passwordHash"] = .string(hash) }
        if validSinceChanged, let provider {
            for (key, value) in issueTokens(user, provider: provider) { response[key] = value }
        }
        return .object(response)
    }

    /// The fields only an admin may set.
    private func applyAdminFields(to user: inout UserRecord) throws(AuthAPIError) {
        if let disabled = body.bool("disableUser") { user.disabled = disabled }
        if let phone = body.nonEmpty("phoneNumber"), phone != user.phoneNumber {
            try require(Identifiers.isValidPhoneNumber(phone), "INVALID_PHONE_NUMBER : Invalid format.")
            try require(project.user(phoneNumber: phone) == nil, "PHONE_NUMBER_EXISTS")
            user.phoneNumber = phone
        }
        if let verified = body.bool("emailVerified") { user.emailVerified = verified }
        if let claims = body.string("customAttributes") { user.customAttributes = claims }
        if let created = body.string("createdAt") { user.createdAt = created }
        if let login = body.string("lastLoginAt") { user.lastLoginAt = login }
        if let validSince = body.string("validSince") { user.validSince = validSince }
    }
}
