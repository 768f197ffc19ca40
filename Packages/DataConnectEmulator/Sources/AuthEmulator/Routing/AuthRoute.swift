import EmulatorHTTP

/// An Auth emulator path, parsed: which operation, on which project, and what the caller must present.
///
/// ```
/// /identitytoolkit.googleapis.com/v1/accounts:{method}                  client paths (API key or Bearer owner)
/// /identitytoolkit.googleapis.com/v1/projects/{p}/accounts[:{method}]   admin paths (Bearer owner)
/// /identitytoolkit.googleapis.com/v1/projects/{p}:{method}              createSessionCookie, queryAccounts
/// /securetoken.googleapis.com/v1/token                                  refresh (API key)
/// /emulator/v1/projects/{p}/accounts|config|oobCodes|verificationCodes  the emulator's own (no credentials)
/// ```
struct AuthRoute: Equatable {
    /// The operations served.
    enum Operation: String, Equatable {
        case signUp, signInWithPassword, signInWithCustomToken, signInWithEmailLink, signInWithIdp
        case lookup, update, delete, sendOobCode, resetPassword, createAuthUri
        case batchCreate, batchGet, batchDelete, query, createSessionCookie, getProjects
        case grantToken
        case emulatorDeleteAccounts, emulatorGetConfig, emulatorUpdateConfig, emulatorListOobCodes
        case emulatorListVerificationCodes
    }

    /// The operation.
    var operation: Operation
    /// The project the path names, if any.
    var project: String?
    /// Whether the path is the emulator's own (`/emulator/v1/…`), which needs no credentials.
    var isEmulatorPath: Bool

    static let identityToolkitPrefix = "/identitytoolkit.googleapis.com/v1/"
    static let secureTokenPrefix = "/securetoken.googleapis.com/"
    static let emulatorPrefix = "/emulator/v1/"
    /// The legacy v3 paths the SDKs still use, mapped to their v1 methods.
    static let legacyMethods = [
        "createAuthUri": "accounts:createAuthUri", "deleteAccount": "accounts:delete",
        "emailLinkSignin": "accounts:signInWithEmailLink", "getAccountInfo": "accounts:lookup",
        "getOobConfirmationCode": "accounts:sendOobCode", "resetPassword": "accounts:resetPassword",
        "setAccountInfo": "accounts:update", "signupNewUser": "accounts:signUp",
        "verifyAssertion": "accounts:signInWithIdp", "verifyCustomToken": "accounts:signInWithCustomToken",
        "verifyPassword": "accounts:signInWithPassword",
    ]
    static let legacyPrefix = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"

    /// Whether `path` belongs to the Auth emulator (whatever its method).
    static func isAuthPath(_ path: String) -> Bool {
        // Most paths (Data Connect's `/v1/…`) are told apart by their second byte, without comparing a prefix.
        guard let second = path.utf8.dropFirst().first, prefixSecondBytes[Int(second)] else { return false }
        return prefixes.contains { path.hasPrefix($0) }
    }

    /// The path prefixes the Auth emulator serves.
    private static let prefixes = [identityToolkitPrefix, secureTokenPrefix, emulatorPrefix, legacyPrefix]

    /// Whether a byte is the second byte of one of ``prefixes``, by byte value.
    private static let prefixSecondBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for prefix in prefixes { table[Int(Array(prefix.utf8)[1])] = true }
        return table
    }()

    /// Parses a request's method and path.
    ///
    /// - Returns: The route, or `nil` for an auth path that names no operation (answered 404).
    init?(method: HTTPMethod, path: String) {
        guard let route = Self.parse(method: method, path: path) else { return nil }
        self = route
    }

    init(operation: Operation, project: String? = nil, isEmulatorPath: Bool = false) {
        self.operation = operation
        self.project = project
        self.isEmulatorPath = isEmulatorPath
    }

    private static func parse(method: HTTPMethod, path: String) -> AuthRoute? {
        if path.hasPrefix(legacyPrefix) {
            guard let v1 = legacyMethods[String(path.dropFirst(legacyPrefix.count))] else { return nil }
            return parse(method: method, path: identityToolkitPrefix + v1)
        }
        if path.hasPrefix(secureTokenPrefix) {
            guard path == secureTokenPrefix + "v1/token", method == .post else { return nil }
            return AuthRoute(operation: .grantToken)
        }
        if path.hasPrefix(emulatorPrefix) {
            let parts = path.dropFirst(emulatorPrefix.count).split(separator: "/").map(String.init)
            guard parts.count == 3, parts[0] == "projects" else { return nil }
            let operation: Operation
            switch (parts[2], method) {
            case ("accounts", .delete): operation = .emulatorDeleteAccounts
            case ("config", .get): operation = .emulatorGetConfig
            case ("config", .patch): operation = .emulatorUpdateConfig
            case ("oobCodes", .get): operation = .emulatorListOobCodes
            case ("verificationCodes", .get): operation = .emulatorListVerificationCodes
            default: return nil
            }
            return AuthRoute(operation: operation, project: parts[1], isEmulatorPath: true)
        }
        guard path.hasPrefix(identityToolkitPrefix) else { return nil }
        let rest = String(path.dropFirst(identityToolkitPrefix.count))
        if rest == "projects", method == .get { return AuthRoute(operation: .getProjects) }
        if rest.hasPrefix("accounts:") {
            guard method == .post, let operation = accountMethod(String(rest.dropFirst("accounts:".count))) else {
                return nil
            }
            return AuthRoute(operation: operation)
        }
        guard rest.hasPrefix("projects/") else { return nil }
        let scoped = rest.dropFirst("projects/".count)
        guard let end = scoped.firstIndex(where: { $0 == "/" || $0 == ":" }) else { return nil }
        let project = String(scoped[..<end])
        let tail = String(scoped[end...])
        switch (tail, method) {
        case (":createSessionCookie", .post): return AuthRoute(operation: .createSessionCookie, project: project)
        case (":queryAccounts", .post): return AuthRoute(operation: .query, project: project)
        case ("/accounts", .post): return AuthRoute(operation: .signUp, project: project)
        case ("/accounts:batchGet", .get): return AuthRoute(operation: .batchGet, project: project)
        default:
            guard tail.hasPrefix("/accounts:"), method == .post,
                let operation = projectAccountMethod(String(tail.dropFirst("/accounts:".count)))
            else { return nil }
            return AuthRoute(operation: operation, project: project)
        }
    }

    private static func accountMethod(_ name: String) -> Operation? {
        switch name {
        case "signUp": return .signUp
        case "signInWithPassword": return .signInWithPassword
        case "signInWithCustomToken": return .signInWithCustomToken
        case "signInWithEmailLink": return .signInWithEmailLink
        case "signInWithIdp": return .signInWithIdp
        case "lookup": return .lookup
        case "update": return .update
        case "delete": return .delete
        case "sendOobCode": return .sendOobCode
        case "resetPassword": return .resetPassword
        case "createAuthUri": return .createAuthUri
        default: return nil
        }
    }

    private static func projectAccountMethod(_ name: String) -> Operation? {
        switch name {
        case "lookup": return .lookup
        case "update": return .update
        case "delete": return .delete
        case "query": return .query
        case "sendOobCode": return .sendOobCode
        case "batchCreate": return .batchCreate
        case "batchDelete": return .batchDelete
        default: return nil
        }
    }
}
