import DataConnectWire
import EmulatorHTTP
import FirebaseAuth
import FirebaseCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TestEmulator {
    /// An `AuthTransport` that hands Firebase Auth's requests to this emulator's Auth API in this process, whatever
    /// its mode.
    public var authTransport: InProcessAuthTransport {
        InProcessAuthTransport(responder: responder)
    }

    /// Points `auth` at this emulator's Auth API: its port when live; the in-process ``authTransport`` otherwise
    /// (the emulator's URLs are still the ones written into each request, and nothing connects to them).
    ///
    /// ```swift
    /// let emulator = try TestEmulator.inProcess(backend: "Backend/movies")
    /// let auth = Auth.auth(app: app, persistence: .inMemory)
    /// emulator.connect(auth)
    /// let user = try await auth.createUser(withEmail: "ada@example.com", password: "secret-1").user
    /// ```
    ///
    /// - Parameter auth: The Auth instance of the app under test.
    public func connect(_ auth: Auth) {
        switch mode {
        case .live:
            auth.useEmulator(withHost: host, port: port)
        case .inProcess:
            let endpoint = InProcessTransport.endpoint
            auth.useEmulator(withHost: endpoint.host, port: endpoint.port)
            auth.transport = authTransport
        }
    }

    /// A new Firebase app of the emulator's project with its Auth instance connected to this emulator: signed
    /// out, persisting nothing, so tests do not share sign-ins.
    ///
    /// - Parameter name: The app's name; a new unique one by default.
    /// - Returns: The Auth instance; its `app` is the new app.
    public func makeAuth(name: String = "test-auth-\(UUID().uuidString)") -> Auth {
        let projectID = emulator.auth?.defaultProjectID ?? FirebaseOptions.demoProjectID
        FirebaseApp.configure(name: name, options: FirebaseOptions(projectID: projectID, apiKey: "test-api-key"))
        guard let app = FirebaseApp.app(name: name) else {
            preconditionFailure("FirebaseApp.configure(name:options:) registers the app")
        }
        let auth = Auth.auth(app: app, persistence: .inMemory)
        connect(auth)
        return auth
    }
}

/// An `AuthTransport` that hands each request to an emulator's responder in this process: no socket, no
/// `URLSession`.
///
/// Each request becomes the `HTTPRequest` the server would hand the responder (path, query, headers, body);
/// the answer's status and body go back to Firebase Auth as a socket would carry them.
public struct InProcessAuthTransport: AuthTransport {
    /// Answers the requests; usually ``TestEmulator/responder``.
    public let responder: any HTTPResponder

    /// Creates a transport answering from `responder`.
    ///
    /// - Parameter responder: The emulator's responder.
    public init(responder: any HTTPResponder) {
        self.responder = responder
    }

    /// Hands `request` to the responder.
    ///
    /// - Parameter request: Auth's request.
    /// - Returns: The responder's status and body.
    /// - Throws: `InProcessTransport`'s error for a reply only a socket can carry (never sent by the Auth API).
    public func send(_ request: AuthHTTPRequest) async throws -> AuthHTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let response = responder.respond(to: InProcessTransport.httpRequest(from: urlRequest))
        guard let body = response.bodyBytes else {
            throw InProcessTransport.StreamedReply(path: request.url.path)
        }
        return AuthHTTPResponse(statusCode: response.status.code, body: Data(body))
    }
}

extension TestEmulator {
    /// Why an admin Auth call was refused.
    public struct AuthAdminError: Error, CustomStringConvertible {
        /// The HTTP status and the Auth API's message.
        public var description: String
    }

    /// Changes an Auth user as an Admin SDK does: `accounts:update` on the admin path with `Authorization: Bearer
    /// owner`, handed to the responder in this process whatever the mode.
    ///
    /// ```swift
    /// try emulator.updateAuthUser(uid: user.uid, ["customAttributes": #"{"librarian":true}"#])
    /// try emulator.updateAuthUser(uid: user.uid, ["disableUser": true])
    /// ```
    ///
    /// - Parameters:
    ///   - uid: The user's `localId`.
    ///   - fields: The fields of the Identity Toolkit's `accounts:update` (`customAttributes` as JSON text,
    ///     `disableUser`, `displayName`, `emailVerified`, `validSince`, ...).
    /// - Throws: ``AuthAdminError`` when the Auth API refuses (no such user, reserved claim names, Auth off).
    public func updateAuthUser(uid: String, _ fields: JSONObject) throws {
        var body = fields
        body["localId"] = .string(uid)
        let project = emulator.auth?.defaultProjectID ?? FirebaseOptions.demoProjectID
        let response = responder.respond(
            to: HTTPRequest(
                method: .post, path: "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:update",
                headers: ["Host": "127.0.0.1", "Authorization": "Bearer owner", "Content-Type": "application/json"],
                body: JSONValue.object(body).serialized()))
        guard response.status.code == 200 else {
            let text = response.bodyBytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
            throw AuthAdminError(description: "accounts:update answered \(response.status.code): \(text)")
        }
    }

    /// Sets a user's custom claims as `setCustomUserClaims` of an Admin SDK does; the user's tokens carry them from
    /// the next refresh on.
    ///
    /// - Parameters:
    ///   - claims: The claims; empty to remove them all.
    ///   - uid: The user.
    /// - Throws: ``AuthAdminError`` when the Auth API refuses.
    public func setCustomClaims(_ claims: JSONObject, uid: String) throws {
        try updateAuthUser(uid: uid, ["customAttributes": .string(JSONValue.object(claims).jsonString())])
    }
}
