import DataConnectWire
import EmulatorHTTP
import Foundation
import Synchronization

/// The Firebase Auth emulator: the Identity Toolkit and Secure Token REST APIs, as firebase-tools' Auth emulator
/// serves them on port 9099, for the Firebase SDKs and Admin SDKs in emulator mode.
///
/// Accounts live per project; key-based client calls (`accounts:signUp?key=…`) use ``defaultProjectID``, admin calls
/// (`Authorization: Bearer owner`) may name any project. Tokens are unsigned JWTs (`alg: none`); refresh tokens are
/// opaque to clients. Every change is written through to the ``AuthStorage`` given at start.
///
/// ```swift
/// let auth = try AuthEmulator(defaultProjectID: "demo-project", storage: MemoryAuthStorage())
/// let server = HTTPServer(port: 9099, responder: AuthHTTPResponder(auth: auth))
/// try server.start()
/// // POST http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any
/// ```
public final class AuthEmulator: Sendable {
    /// The project key-based calls and `Bearer owner` calls without a project act on.
    public let defaultProjectID: String
    /// Where accounts and settings are written through.
    public let storage: any AuthStorage
    /// The clock: token times, `validSince`, `createdAt`.
    let now: @Sendable () -> Date
    /// Each project's state, created on first use.
    let projects: Mutex<[String: ProjectState]>

    /// Creates the emulator and loads what `storage` holds.
    ///
    /// - Parameters:
    ///   - defaultProjectID: The project of key-based calls (`demo-project` by default).
    ///   - storage: Where accounts and settings are kept.
    ///   - now: The clock; tests pass one they move.
    /// - Throws: Whatever `storage` throws while loading, or ``AuthAPIError`` for a stored account without a user id.
    public init(
        defaultProjectID: String = "demo-project", storage: any AuthStorage,
        now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.defaultProjectID = defaultProjectID
        self.storage = storage
        self.now = now
        var states: [String: ProjectState] = [:]
        for (projectID, stored) in try storage.load() {
            var state = ProjectState(projectID: projectID)
            if let config = stored.config { state.config = ProjectConfig(json: config) }
            for record in stored.accounts { state.save(try UserRecord(json: record)) }
            states[projectID] = state
        }
        projects = Mutex(states)
    }

    // MARK: Paths

    /// Whether `path` is one of the Auth emulator's (`/identitytoolkit.googleapis.com/…`,
    /// `/securetoken.googleapis.com/…`, `/emulator/v1/…`, the legacy `/www.googleapis.com/identitytoolkit/v3/…`).
    ///
    /// - Parameter path: A request path, without the query.
    /// - Returns: `true` when ``respond(to:)`` answers it.
    public static func serves(path: String) -> Bool { AuthRoute.isAuthPath(path) }

    /// The part of the API a path belongs to, for the origin policy: what apps call from a web page (sign-in,
    /// account and token endpoints under `/identitytoolkit.googleapis.com/v1/accounts:*` and
    /// `/securetoken.googleapis.com/*`) is the client API; project-scoped admin paths and `/emulator/v1/*` are admin.
    ///
    /// - Parameter path: An auth path.
    /// - Returns: `.client` or `.admin`.
    public static func audience(ofPath path: String) -> RequestOriginPolicy.Audience {
        if path.hasPrefix(AuthRoute.identityToolkitPrefix + "accounts:") || path.hasPrefix(AuthRoute.secureTokenPrefix)
            || path.hasPrefix(AuthRoute.legacyPrefix)
        {
            return .client
        }
        return .admin
    }

    // MARK: Serving

    /// Answers an Auth API request.
    ///
    /// Origin checks and CORS are the caller's (``AuthHTTPResponder`` or the Data Connect emulator's responder).
    ///
    /// - Parameter request: The request.
    /// - Returns: The response, or `nil` when the path is not an auth path.
    public func respond(to request: HTTPRequest) -> HTTPResponse? {
        guard Self.serves(path: request.path) else { return nil }
        do {
            return .json(try answer(request).serialized())
        } catch {
            return error.response
        }
    }

    private func answer(_ request: HTTPRequest) throws(AuthAPIError) -> JSONValue {
        guard let route = AuthRoute(method: request.method, path: request.path) else { throw .notFound }
        let body = try Self.body(of: request, route: route)
        let isAdmin: Bool
        let projectID: String
        if route.isEmulatorPath {
            isAdmin = true
            projectID = route.project ?? defaultProjectID
        } else {
            isAdmin = try Self.hasAdminCredentials(request)
            let hasKey =
                !(request.queryValue("key") ?? "").isEmpty || !(request.headers["x-goog-api-key"] ?? "").isEmpty
            if !isAdmin && !hasKey { throw .missingAPIKey }
            let target = route.project ?? body.nonEmpty("targetProjectId")
            if target != nil && !isAdmin {
                throw .badRequest(
                    "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            }
            projectID = target ?? defaultProjectID
        }
        var query: [String: String] = [:]
        for item in request.query { query[item.name] = item.value ?? "" }
        let host = request.headers["host"] ?? "127.0.0.1:9099"
        return try perform(route.operation, projectID: projectID) { project throws(AuthAPIError) in
            var session = AuthSession(
                project: project, body: body, isAdmin: isAdmin, now: now(), origin: "http://\(host)", query: query)
            let result: Result<JSONValue, AuthAPIError>
            do throws(AuthAPIError) {
                result = .success(try session.run(route.operation))
            } catch {
                result = .failure(error)
            }
            return (session, result)
        }
    }

    /// Runs an operation on a project under the state lock and writes what it changed through to the storage.
    private func perform(
        _ operation: AuthRoute.Operation, projectID: String,
        _ body: (ProjectState) throws(AuthAPIError) -> (AuthSession, Result<JSONValue, AuthAPIError>)
    ) throws(AuthAPIError) -> JSONValue {
        try projects.withLock { states throws(AuthAPIError) in
            let (session, result) = try body(states[projectID] ?? ProjectState(projectID: projectID))
            states[projectID] = session.project
            try write(session, projectID: projectID)
            return try result.get()
        }
    }

    /// Writes a session's changes through.
    private func write(_ session: AuthSession, projectID: String) throws(AuthAPIError) {
        do {
            if session.removedAll { try storage.deleteAllAccounts(project: projectID) }
            for localId in session.removedIDs { try storage.deleteAccount(localId: localId, project: projectID) }
            for localId in session.savedIDs.sorted() {
                guard let user = session.project.user(localId: localId) else { continue }
                try storage.upsertAccount(user.json, localId: localId, project: projectID)
            }
            if session.configChanged { try storage.saveConfig(session.project.config.json, project: projectID) }
        } catch {
            throw .internalError("INTERNAL_ERROR : ((the Auth emulator could not store the change: \(error)))")
        }
    }

    /// Whether `Authorization` carries admin credentials: `Bearer owner` (any case) or a service account token
    /// (`Bearer ya29.…`), as firebase-tools accepts them.
    ///
    /// - Throws: 401 `UNAUTHENTICATED` for another Bearer token.
    static func hasAdminCredentials(_ request: HTTPRequest) throws(AuthAPIError) -> Bool {
        guard let authorization = request.headers["authorization"], authorization.lowercased().hasPrefix("bearer ")
        else { return false }
        let token = authorization.dropFirst("bearer ".count)
        if token.lowercased() == "owner" || token.hasPrefix("ya29.") { return true }
        throw .invalidCredentials
    }

    /// The request's members, camelCased: a JSON object, or a form (`securetoken`'s
    /// `grant_type=refresh_token&refresh_token=…`); `{}` for an empty body or a `GET`/`DELETE`.
    static func body(of request: HTTPRequest, route: AuthRoute) throws(AuthAPIError) -> JSONObject {
        guard request.method != .get, request.method != .delete else { return [:] }
        let text = String(decoding: request.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return [:] }
        let contentType = request.headers["content-type"]?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded")
            || (route.operation == .grantToken && !text.hasPrefix("{"))
        {
            return JSONObject(FormDecoding.pairs(text).map { (MemberNames.camelCased($0.name), .string($0.value)) })
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: request.body)
        } catch {
            throw .invalidArgument("Invalid JSON payload received. \(error)", reason: "parseError")
        }
        guard case .object(let object) = MemberNames.camelCased(value) else {
            throw .invalidArgument("Invalid JSON payload received. Expected an object.", reason: "parseError")
        }
        return object
    }
}
