import DataConnectWire
import Foundation

/// What the Admin SDKs call: `projects/{p}/accounts:batchCreate`, `:batchGet`, `:batchDelete`, `:query`; and the
/// emulator's own `/emulator/v1/projects/{p}/…` endpoints.
extension AuthSession {
    /// `accounts:batchCreate` (`importUsers`): creates or overwrites accounts; per-account problems come back in
    /// `error[]`.
    mutating func batchCreate() throws(AuthAPIError) -> JSONValue {
        let users = body["users"]?.arrayValue ?? []
        try require(!users.isEmpty, "MISSING_USER_ACCOUNT")
        let sanityCheck = body.bool("sanityCheck") ?? false
        let allowOverwrite = body.bool("allowOverwrite") ?? false
        if sanityCheck {
            if project.config.oneAccountPerEmail {
                var emails: Set<String> = []
                for email in users.compactMap({ $0["email"]?.stringValue }) {
                    try require(emails.insert(email).inserted, "DUPLICATE_EMAIL : \(email)")
                }
            }
            var rawIDs: Set<String> = []
            for info in users.flatMap({ $0["providerUserInfo"]?.arrayValue ?? [] }) {
                let providerId = info["providerId"]?.stringValue ?? ""
                let rawId = info["rawId"]?.stringValue ?? ""
                try require(
                    rawIDs.insert("\(providerId):\(rawId)").inserted,
                    "DUPLICATE_RAW_ID : Provider id(\(providerId)), Raw id(\(rawId))")
            }
        }
        if !allowOverwrite {
            var localIDs: Set<String> = []
            for user in users {
                let localId = user["localId"]?.stringValue ?? ""
                try require(localIDs.insert(localId).inserted, "DUPLICATE_LOCAL_ID : \(localId)")
            }
        }
        var errors: [JSONValue] = []
        for (index, entry) in users.enumerated() {
            do {
                try importUser(entry, sanityCheck: sanityCheck, allowOverwrite: allowOverwrite)
            } catch {
                var message = error.message
                if message == "INVALID_CLAIMS" {
                    message = "Invalid custom claims provided."
                } else if message == "CLAIMS_TOO_LARGE" {
                    message = "Custom claims provided are too large."
                } else if message.hasPrefix("FORBIDDEN_CLAIM") {
                    message = "Custom claims provided include a reserved claim."
                }
                errors.append(["index": .number(JSONNumber(index)), "message": .string(message)])
            }
        }
        return ["kind": "identitytoolkit#UploadAccountResponse", "error": .array(errors)]
    }

    /// Imports one `users[]` entry.
    private mutating func importUser(_ entry: JSONValue, sanityCheck: Bool, allowOverwrite: Bool) throws(AuthAPIError) {
        var user = try UserRecord(json: entry)
        if let rawPassword = entry["rawPassword"]?.stringValue, user.passwordHash == nil {
            user.salt = user.salt ?? ("fakeSalt" + Identifiers.randomID(20))
            user.passwordHash = PasswordHasher.hash(rawPassword, salt: user.salt!)
        }
        if user.passwordHash != nil { user.passwordUpdatedAt = Int64(nowMilliseconds) }
        user.otherFields["rawPassword"] = nil
        if let claims = user.customAttributes { try validateSerializedClaims(claims) }
        var providers: [ProviderUserInfo] = []
        for info in user.providerUserInfo ?? [] where info.providerId != "password" && info.providerId != "phone" {
            let owner = project.user(providerId: info.providerId, rawId: info.rawId)
            try require(owner == nil || owner?.localId == user.localId, "raw id exists in other account in database")
            providers.append(info)
        }
        user.providerUserInfo = providers.isEmpty ? nil : providers
        if let phone = user.phoneNumber {
            try require(Identifiers.isValidPhoneNumber(phone), "phone number format is invalid")
        }
        user.validSince = String(nowSeconds)
        if user.createdAt.flatMap({ Int64($0) }) == nil { user.createdAt = nowMilliseconds }
        if user.lastLoginAt == nil { user.lastLoginAt = nowMilliseconds }
        if let email = user.email {
            try require(Identifiers.isValidEmail(email), "email is invalid")
            let owner = project.user(email: Identifiers.canonicalEmail(email))
            try require(
                owner == nil || owner?.localId == user.localId,
                sanityCheck && project.config.oneAccountPerEmail
                    ? "email exists in other account in database"
                    : "((Auth Emulator does not support importing duplicate email: \(email)))")
            user.email = Identifiers.canonicalEmail(email)
        }
        user.emailVerified = user.emailVerified ?? false
        user.disabled = user.disabled ?? false
        if project.user(localId: user.localId) != nil {
            try require(allowOverwrite, "localId belongs to an existing account - can not overwrite.")
        }
        save(user)
    }

    /// `GET accounts:batchGet` (`listUsers`): accounts by user id, `maxResults` (default 20, at most 1000, -1 for
    /// all) from after `nextPageToken`; a page that is full carries a `nextPageToken`.
    func batchGet() -> JSONValue {
        let requested = query["maxResults"].flatMap { Double($0) }.map { Int($0.rounded(.down)) } ?? 0
        let maxResults = min(requested == 0 ? 20 : requested, 1000)
        let start = query["nextPageToken"] ?? ""
        var users = project.usersByLocalID.filter { start.isEmpty || $0.localId > start }
        var nextPageToken: String?
        if maxResults >= 0, users.count >= maxResults {
            users = Array(users.prefix(maxResults))
            nextPageToken = users.last?.localId
        }
        var response: JSONObject = [
            "kind": "identitytoolkit#DownloadAccountResponse", "users": .array(users.map(\.json)),
        ]
        if let nextPageToken { response["nextPageToken"] = .string(nextPageToken) }
        return .object(response)
    }

    /// `accounts:batchDelete`: deletes `localIds`; enabled accounts only with `force`.
    mutating func batchDelete() throws(AuthAPIError) -> JSONValue {
        let localIDs = body.strings("localIds")
        try require(!localIDs.isEmpty && localIDs.count <= 1000, "LOCAL_ID_LIST_EXCEEDS_LIMIT")
        let force = body.bool("force") ?? false
        var errors: [JSONValue] = []
        for (index, localId) in localIDs.enumerated() {
            guard let user = project.user(localId: localId) else { continue }
            if !user.isDisabled && !force {
                errors.append([
                    "index": .number(JSONNumber(index)), "localId": .string(localId),
                    "message": "NOT_DISABLED : Disable the account before batch deletion.",
                ])
            } else {
                delete(localId)
            }
        }
        return errors.isEmpty ? [:] : ["errors": .array(errors)]
    }

    /// `accounts:query`: every account (no filters, as firebase-tools), or only the count.
    func queryAccounts() throws(AuthAPIError) -> JSONValue {
        if let expression = body["expression"]?.arrayValue, !expression.isEmpty {
            throw .notImplemented("expression is not implemented.")
        }
        if body.bool("returnUserInfo") == false {
            return ["recordsCount": .string(String(project.users.count))]
        }
        if body.has("limit") { throw .notImplemented("limit is not implemented.") }
        let offset = body.string("offset") ?? "0"
        if offset != "0" { throw .notImplemented("offset is not implemented.") }
        let sortBy = body.string("sortBy") ?? "USER_ID"
        guard sortBy == "USER_ID" || sortBy == "SORT_BY_FIELD_UNSPECIFIED" else {
            throw .notImplemented("Only sorting by USER_ID is implemented.")
        }
        var users = project.usersByLocalID
        if body.string("order") == "DESC" { users.reverse() }
        return ["recordsCount": .string(String(users.count)), "userInfo": .array(users.map(\.json))]
    }

    /// `DELETE /emulator/v1/projects/{p}/accounts`.
    mutating func deleteAllAccounts() -> JSONValue {
        deleteAll()
        return [:]
    }

    /// `PATCH /emulator/v1/projects/{p}/config`.
    mutating func updateConfig() -> JSONValue {
        project.config.apply(patch: .object(body))
        configChanged = true
        return project.config.json
    }

    /// `GET /emulator/v1/projects/{p}/oobCodes`.
    func listOobCodes() -> JSONValue {
        ["oobCodes": .array(project.oobCodes.map(\.json))]
    }
}
