import DataConnectWire
import Foundation

/// Out-of-band codes: `accounts:sendOobCode` and `accounts:resetPassword`. Codes are kept, never emailed; tests
/// read them from `GET /emulator/v1/projects/{p}/oobCodes`, admins get the link with `returnOobLink`.
extension AuthSession {
    /// The proto enum numbers of `requestType` (the Android SDK sends numbers).
    private static let requestTypeNames = [
        "1": "PASSWORD_RESET", "4": "VERIFY_EMAIL", "5": "RECOVER_EMAIL", "6": "EMAIL_SIGNIN",
        "7": "VERIFY_AND_CHANGE_EMAIL",
    ]

    /// `accounts:sendOobCode`: `VERIFY_EMAIL` (for the `idToken`'s account, or an admin's `email`),
    /// `PASSWORD_RESET`, `EMAIL_SIGNIN`.
    mutating func sendOobCode() throws(AuthAPIError) -> JSONValue {
        let rawType = body.string("requestType") ?? ""
        let requestType = Self.requestTypeNames[rawType] ?? rawType
        try require(!requestType.isEmpty && requestType != "OOB_REQ_TYPE_UNSPECIFIED", "MISSING_REQ_TYPE")
        let returnLink = body.bool("returnOobLink") ?? false
        if returnLink { try require(isAdmin, "INSUFFICIENT_PERMISSION") }
        let continueURL = body.nonEmpty("continueUrl")
        if let continueURL {
            try require(
                URL(string: continueURL)?.scheme != nil && URL(string: continueURL)?.host != nil,
                "INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
        }
        let email: String
        let mode: String
        switch requestType {
        case "EMAIL_SIGNIN":
            mode = "signIn"
            guard let raw = body.nonEmpty("email") else { throw .badRequest("MISSING_EMAIL") }
            email = Identifiers.canonicalEmail(raw)
        case "PASSWORD_RESET":
            mode = "resetPassword"
            guard let raw = body.nonEmpty("email") else { throw .badRequest("MISSING_EMAIL") }
            email = Identifiers.canonicalEmail(raw)
            if project.user(email: email) == nil {
                if project.config.enableImprovedEmailPrivacy {
                    return ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": .string(email)]
                }
                throw .badRequest("EMAIL_NOT_FOUND")
            }
        case "VERIFY_EMAIL":
            mode = "verifyEmail"
            if returnLink, body.nonEmpty("idToken") == nil {
                guard let raw = body.nonEmpty("email") else { throw .badRequest("MISSING_EMAIL") }
                email = Identifiers.canonicalEmail(raw)
                try require(project.user(email: email) != nil, "USER_NOT_FOUND")
            } else {
                let user = try parseIDToken(body.string("idToken") ?? "").user
                guard let userEmail = user.email else { throw .badRequest("MISSING_EMAIL") }
                email = userEmail
            }
        default:
            throw .notImplemented(requestType)
        }
        let code = Identifiers.randomBase64URL(54)
        var link = "\(origin)/emulator/action?mode=\(mode)&lang=en&oobCode=\(code)&apiKey=fake-api-key"
        if let continueURL { link += "&continueUrl=" + Self.queryEncoded(continueURL) }
        project.add(OobRecord(email: email, requestType: requestType, oobCode: code, oobLink: link))
        var response: JSONObject = ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": .string(email)]
        if returnLink {
            response["oobCode"] = .string(code)
            response["oobLink"] = .string(link)
        }
        return .object(response)
    }

    /// `accounts:resetPassword`: with `newPassword`, applies a `PASSWORD_RESET` code; without, only tells what the
    /// code is for.
    mutating func resetPassword() throws(AuthAPIError) -> JSONValue {
        guard let code = body.nonEmpty("oobCode") else { throw .badRequest("MISSING_OOB_CODE") }
        guard let oob = project.oob(code: code) else { throw .badRequest("INVALID_OOB_CODE") }
        if let newPassword = body.nonEmpty("newPassword") {
            try require(oob.requestType == "PASSWORD_RESET", "INVALID_OOB_CODE")
            try require(newPassword.count >= PasswordRule.minimumLength, PasswordRule.weakPasswordMessage)
            project.removeOob(code: code)
            guard var user = project.user(email: oob.email) else { throw .badRequest("INVALID_OOB_CODE") }
            let deleted = (user.providerUserInfo ?? []).map(\.providerId)
            user.emailVerified = true
            (user.passwordHash, user.salt) = PasswordHasher.hash(newPassword)
            user.passwordUpdatedAt = Int64(nowMilliseconds)
            user.validSince = String(nowSeconds)
            save(user, deleting: deleted)
        }
        var response: JSONObject = [
            "kind": "identitytoolkit#ResetPasswordResponse", "requestType": .string(oob.requestType),
        ]
        // An email sign-in code does not reveal its address.
        if oob.requestType != "EMAIL_SIGNIN" { response["email"] = .string(oob.email) }
        return .object(response)
    }

    /// `text` encoded for a query parameter value.
    static func queryEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
