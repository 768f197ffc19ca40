import DataConnectWire
import Foundation

/// Which operation answers which route, and the small read-only endpoints.
extension AuthSession {
    /// Runs `operation`.
    mutating func run(_ operation: AuthRoute.Operation) throws(AuthAPIError) -> JSONValue {
        switch operation {
        case .signUp: return try signUp()
        case .signInWithPassword: return try signInWithPassword()
        case .signInWithCustomToken: return try signInWithCustomToken()
        case .signInWithEmailLink: return try signInWithEmailLink()
        case .signInWithIdp: return try signInWithIdp()
        case .lookup: return try lookup()
        case .update: return try update()
        case .delete: return try deleteAccount()
        case .sendOobCode: return try sendOobCode()
        case .resetPassword: return try resetPassword()
        case .createAuthUri: return try createAuthUri()
        case .batchCreate: return try batchCreate()
        case .batchGet: return batchGet()
        case .batchDelete: return try batchDelete()
        case .query: return try queryAccounts()
        case .createSessionCookie: return try createSessionCookie()
        case .getProjects: return ["projectId": "12345", "authorizedDomains": ["localhost"]]
        case .grantToken: return try grantToken()
        case .emulatorDeleteAccounts: return deleteAllAccounts()
        case .emulatorGetConfig: return project.config.json
        case .emulatorUpdateConfig: return updateConfig()
        case .emulatorListOobCodes: return listOobCodes()
        case .emulatorListVerificationCodes: return ["verificationCodes": []]
        }
    }

    /// `accounts:createAuthUri` (`fetchSignInMethodsForEmail`): whether an email is registered and how it signs in.
    func createAuthUri() throws(AuthAPIError) -> JSONValue {
        let sessionId = body.nonEmpty("sessionId") ?? Identifiers.randomID(27)
        if body.has("providerId") { throw .notImplemented("Sign-in with IDP is not yet supported.") }
        guard let identifier = body.nonEmpty("identifier") else { throw .badRequest("MISSING_IDENTIFIER") }
        guard let continueUri = body.nonEmpty("continueUri") else { throw .badRequest("MISSING_CONTINUE_URI") }
        try require(Identifiers.isValidEmail(identifier), "INVALID_IDENTIFIER")
        try require(URL(string: continueUri)?.scheme != nil, "INVALID_CONTINUE_URI")
        if project.config.enableImprovedEmailPrivacy {
            return ["kind": "identitytoolkit#CreateAuthUriResponse", "sessionId": .string(sessionId)]
        }
        let email = Identifiers.canonicalEmail(identifier)
        var allProviders: [JSONValue] = []
        var signinMethods: [JSONValue] = []
        let user = project.user(email: email)
        for info in user?.providerUserInfo ?? [] where info.providerId != "phone" {
            allProviders.append(.string(info.providerId))
            if info.providerId == "password" {
                if user?.passwordHash != nil { signinMethods.append("password") }
                if user?.emailLinkSignin == true { signinMethods.append("emailLink") }
            } else {
                signinMethods.append(.string(info.providerId))
            }
        }
        return [
            "kind": "identitytoolkit#CreateAuthUriResponse", "registered": .bool(user != nil),
            "allProviders": .array(allProviders), "sessionId": .string(sessionId),
            "signinMethods": .array(signinMethods),
        ]
    }
}
