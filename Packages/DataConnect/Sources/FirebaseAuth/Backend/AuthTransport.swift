import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request to the Identity Toolkit or the secure token service.
public struct AuthHTTPRequest: Sendable, Equatable {
    /// The method; always `POST` today.
    public var method: String
    /// The full URL, with `?key=`.
    public var url: URL
    /// The header fields, by their canonical names (`Content-Type`, `X-Client-Version`, ...).
    public var headers: [String: String]
    /// The body: JSON for every call.
    public var body: Data

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The full URL.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    public init(method: String, url: URL, headers: [String: String], body: Data) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// The answer to an ``AuthHTTPRequest``.
public struct AuthHTTPResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The body: JSON, an answer or `{"error": {...}}`.
    public var body: Data

    /// Creates an answer.
    ///
    /// - Parameters:
    ///   - statusCode: The status.
    ///   - body: The body bytes.
    public init(statusCode: Int, body: Data) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// Sends Auth's HTTP requests: URLSession by default, replaceable to route them in-process.
///
/// Set ``Auth/transport`` to send requests elsewhere, e.g. straight into an emulator's responder without a socket:
///
/// ```swift
/// struct InProcessTransport: AuthTransport {
///     let responder: MyResponder
///     func send(_ request: AuthHTTPRequest) async throws -> AuthHTTPResponse {
///         let (status, body) = responder.respond(request.method, request.url, request.headers, request.body)
///         return AuthHTTPResponse(statusCode: status, body: body)
///     }
/// }
/// Auth.auth().transport = InProcessTransport(responder: responder)
/// ```
public protocol AuthTransport: Sendable {
    /// Sends `request` and returns the answer, whatever its status.
    ///
    /// - Parameter request: The request.
    /// - Returns: The status and body.
    /// - Throws: When no answer arrives (the SDK reports ``AuthErrorCode/networkError``).
    func send(_ request: AuthHTTPRequest) async throws -> AuthHTTPResponse
}

/// The default transport: `URLSession` (libcurl on Linux).
public struct URLSessionAuthTransport: AuthTransport {
    private let session: URLSession

    /// Creates a transport on `session`.
    ///
    /// - Parameter session: The session; a fresh ephemeral one by default.
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Sends `request` with `URLSession`.
    ///
    /// - Parameter request: The request.
    /// - Returns: The status and body.
    /// - Throws: URLSession's error when the request fails before an answer.
    public func send(_ request: AuthHTTPRequest) async throws -> AuthHTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await session.data(for: urlRequest)
        return AuthHTTPResponse(statusCode: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }
}
