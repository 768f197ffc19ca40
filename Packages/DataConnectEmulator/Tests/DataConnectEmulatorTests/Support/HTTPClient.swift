import DataConnectTestSupport
import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange with the emulator, as a client sees it.
struct HTTPResult: CustomStringConvertible {
    /// The HTTP status code.
    var status: Int
    /// The response body as sent.
    var body: [UInt8]
    /// The `Content-Type` header.
    var contentType: String?

    /// The body parsed as JSON (`null` when it is not JSON).
    var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
    /// `data` of a GraphQL response.
    var data: JSONValue? { json["data"] }
    /// `errors` of a GraphQL response (empty when absent).
    var errors: [JSONValue] { json["errors"]?.arrayValue ?? [] }
    /// `extensions.dataConnect` of a GraphQL response (empty when absent).
    var dataConnect: [JSONValue] { json["extensions"]?["dataConnect"]?.arrayValue ?? [] }
    /// `error.status` of a request-level error body.
    var errorStatus: String? { json["error"]?["status"]?.stringValue }
    /// `error.message` of a request-level error body.
    var errorMessage: String { json["error"]?["message"]?.stringValue ?? "" }

    /// The `extensions.dataConnect` entry for a path, if any.
    func property(at path: [JSONValue]) -> JSONValue? {
        dataConnect.first { $0["path"]?.arrayValue == path }
    }

    var description: String { "HTTP \(status): \(String(decoding: body.prefix(2_000), as: UTF8.self))" }
}

/// Sends requests to a ``TestEmulator`` over a real socket, with URLSession.
struct EmulatorClient: Sendable {
    let emulator: TestEmulator
    /// The connector used when a call names none.
    let connector: String

    init(_ emulator: TestEmulator, connector: String) {
        self.emulator = emulator
        self.connector = connector
    }

    /// `name` of a connector request body.
    func resourceName(_ connector: String) -> String {
        "projects/p/locations/l/services/\(emulator.serviceID)/connectors/\(connector)"
    }

    /// `:executeQuery` with the body the SDKs send.
    func query(
        _ operationName: String, _ variables: JSONObject = [:], connector: String? = nil, token: String? = nil
    ) async throws -> HTTPResult {
        try await execute("executeQuery", operationName, variables, connector: connector, token: token)
    }

    /// `:executeMutation` with the body the SDKs send.
    func mutation(
        _ operationName: String, _ variables: JSONObject = [:], connector: String? = nil, token: String? = nil
    ) async throws -> HTTPResult {
        try await execute("executeMutation", operationName, variables, connector: connector, token: token)
    }

    /// A connector method with `{name, operationName, variables}`.
    func execute(
        _ method: String, _ operationName: String, _ variables: JSONObject, connector: String? = nil,
        token: String? = nil
    ) async throws -> HTTPResult {
        let connector = connector ?? self.connector
        let body: JSONValue = [
            "name": .string(resourceName(connector)), "operationName": .string(operationName),
            "variables": .object(variables),
        ]
        var headers: [String: String] = [:]
        if let token { headers["X-Firebase-Auth-Token"] = token }
        return try await post(emulator.connectorURL(connector, method), json: body, headers: headers)
    }

    /// `:executeGraphql` (or another service method) with `{query, operationName?, variables, extensions?}`.
    func admin(
        _ query: String, operationName: String? = nil, variables: JSONObject = [:], extensions: JSONValue? = nil,
        method: String = "executeGraphql"
    ) async throws -> HTTPResult {
        var body: JSONObject = ["query": .string(query), "variables": .object(variables)]
        if let operationName { body["operationName"] = .string(operationName) }
        if let extensions { body["extensions"] = extensions }
        return try await post(emulator.serviceURL(method), json: .object(body))
    }

    /// A POST of a JSON value.
    func post(_ url: String, json: JSONValue, headers: [String: String] = [:]) async throws -> HTTPResult {
        try await send(url, method: "POST", body: json.serialized(), headers: headers)
    }

    /// Any request; `Content-Type: application/json` unless `headers` says otherwise.
    func send(
        _ url: String, method: String, body: [UInt8]? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPResult {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.timeoutInterval = HangGuard.eventSeconds
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return HTTPResult(
            status: http.statusCode, body: Array(data), contentType: http.value(forHTTPHeaderField: "Content-Type"))
    }
}

/// Tokens of the four kinds of caller in the `@auth` outcome table.
enum Caller: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// No `X-Firebase-Auth-Token` header.
    case noToken
    /// An anonymous sign-in (`firebase.sign_in_provider: "anonymous"`).
    case anonymous
    /// A password sign-in without a verified email.
    case signedIn
    /// A password sign-in with `email_verified: true`.
    case emailVerified

    /// The header value, or `nil` for no header.
    var token: String? {
        switch self {
        case .noToken: return nil
        case .anonymous: return TestEmulator.token(uid: "uid-anon", anonymous: true)
        case .signedIn: return TestEmulator.token(uid: "uid-ada", email: "ada@example.com")
        case .emailVerified:
            return TestEmulator.token(uid: "uid-ben", email: "ben@example.com", emailVerified: true)
        }
    }

    var testDescription: String { rawValue }
}

extension JSONValue {
    /// The members of an object value, or none.
    var objectKeys: [String] { objectValue?.keys ?? [] }
}
