import AuthEmulator
import DataConnectEncoding
import DataConnectWire
import EmulatorHTTP
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at 2026-01-01T00:00:00Z.
    init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = Mutex(start)
    }

    /// The current time.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    func advance(seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

/// One HTTP exchange, as a client sees it.
struct AuthResult: CustomStringConvertible {
    var status: Int
    var json: JSONValue
    var headers: [String: String]

    /// `error.message`, or "" when the call succeeded.
    var errorMessage: String { json["error"]?["message"]?.stringValue ?? "" }
    /// A string member of the body.
    subscript(key: String) -> String? { json[key]?.stringValue }

    var description: String { "HTTP \(status): \(json.jsonString())" }
}

/// An Auth emulator on a free port with real HTTP, and a client for it.
struct AuthTestServer: Sendable {
    let auth: AuthEmulator
    let clock: TestClock
    let baseURL: String

    static let clientPrefix = "/identitytoolkit.googleapis.com/v1/"

    /// Starts an emulator (memory storage unless given) on a free port for the body's duration.
    static func with<Result>(
        storage: any AuthStorage = MemoryAuthStorage(), clock: TestClock = TestClock(),
        projectID: String = "demo-project",
        _ body: (AuthTestServer) async throws -> Result
    ) async throws -> Result {
        let auth = try AuthEmulator(defaultProjectID: projectID, storage: storage, now: { clock.now })
        let server = HTTPServer(port: 0, responder: AuthHTTPResponder(auth: auth))
        try server.start()
        defer { server.stop() }
        return try await body(AuthTestServer(auth: auth, clock: clock, baseURL: "http://127.0.0.1:\(server.port)"))
    }

    /// `POST /identitytoolkit.googleapis.com/v1/accounts:<method>?key=fake-api-key`.
    func client(_ method: String, _ body: JSONValue = [:], key: Bool = true) async throws -> AuthResult {
        try await send("POST", Self.clientPrefix + "accounts:\(method)" + (key ? "?key=fake-api-key" : ""), body)
    }

    /// A request with `Authorization: Bearer owner` to `/identitytoolkit.googleapis.com/v1/<path>`.
    func admin(_ path: String, _ body: JSONValue? = [:], method: String = "POST") async throws -> AuthResult {
        try await send(method, Self.clientPrefix + path, body, headers: ["Authorization": "Bearer owner"])
    }

    /// Any request.
    func send(
        _ method: String, _ path: String, _ body: JSONValue? = nil, headers: [String: String] = [:],
        rawBody: String? = nil
    ) async throws -> AuthResult {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let rawBody {
            request.httpBody = Data(rawBody.utf8)
        } else if let body {
            request.httpBody = Data(body.serialized())
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return AuthResult(
            status: http.statusCode, json: (try? JSONValue(parsing: Array(data))) ?? .null, headers: fields)
    }

    /// Signs up with email and password; fails the test unless it succeeds.
    func signUp(_ email: String, _ password: String = "hunter22") async throws -> AuthResult {
        let result = try await client(
            "signUp", ["email": .string(email), "password": .string(password), "returnSecureToken": true])
        try #require(result.status == 200, "\(result)")
        return result
    }

    /// `POST /securetoken.googleapis.com/v1/token` with a form body.
    func refresh(_ refreshToken: String) async throws -> AuthResult {
        try await send(
            "POST", "/securetoken.googleapis.com/v1/token?key=fake-api-key",
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            rawBody: "grant_type=refresh_token&refresh_token=\(refreshToken)")
    }
}

/// The claims of a JWT, decoded without verification.
func claims(of token: String?) throws -> JSONValue {
    let token = try #require(token)
    let segments = token.split(separator: ".", omittingEmptySubsequences: false)
    try #require(segments.count == 3)
    let bytes = try #require(Base64.url.decode(segments[1]))
    return try JSONValue(parsing: bytes)
}

/// The header of a JWT.
func header(of token: String?) throws -> JSONValue {
    let token = try #require(token)
    return try JSONValue(parsing: try #require(Base64.url.decode(token.split(separator: ".")[0])))
}

/// An unsigned JWT with the given claims (as the Admin SDKs make custom tokens in emulator mode).
func unsignedJWT(_ payload: JSONValue) -> String {
    func encode(_ value: JSONValue) -> String { Base64.url.encode(value.serialized()) }
    return encode(["alg": "none", "typ": "JWT"]) + "." + encode(payload) + "."
}

/// A fresh temporary folder.
func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "auth-emulator-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
