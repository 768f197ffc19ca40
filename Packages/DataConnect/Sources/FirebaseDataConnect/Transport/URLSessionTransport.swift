import DataConnectWire
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live transport: REST over `URLSession` to the Data Connect service or the emulator.
///
/// Each operation is one `POST {scheme}://{host}[:port]/v1/{connector}:executeQuery` (or `:executeMutation`)
/// with the JSON body `{"name", "operationName", "variables"}` and these headers:
///
/// - `Content-Type: application/json`
/// - `X-Goog-Api-Client: gl-swift/<swift> fire/<sdk> gl-linux/<os>`, plus ` swift/gen` for generated callers
/// - `X-Client-Version: linux/<sdk>`
/// - `x-firebase-gmpid: <app id>`, when known
/// - `X-Firebase-Auth-Token: <ID token>` (no `Bearer`), only when signed in
/// - `X-Firebase-AppCheck: <token>`, when configured
/// - `x-firebase-sqlconnect-affinity: <projectId><serviceId>`
///
/// and `?key=<apiKey>` when an API key is set.
///
/// Retries: a query whose connection dropped before any response arrived is sent once more; a mutation never
/// is, since it may have run. A 401 is retried once, for queries and mutations, when the token provider's
/// token changed while the request was in flight.
///
/// ```swift
/// let transport = URLSessionTransport(
///     configuration: .init(endpoint: ServiceEndpoint(emulator: EmulatorConfiguration()), authTokenProvider: auth))
/// let response = try await transport.execute(request)
/// ```
public final class URLSessionTransport: Transport {
    /// How the transport reaches the service.
    public struct Configuration: Sendable {
        /// The service or emulator address.
        public var endpoint: ServiceEndpoint
        /// The per-request time-out in seconds.
        public var timeout: TimeInterval
        /// Supplies `X-Firebase-Auth-Token` when the request carries no token of its own.
        public var authTokenProvider: (any AuthTokenProvider)?
        /// The versions reported in the client headers.
        public var versions: ClientVersions

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - endpoint: The service or emulator address; production by default.
        ///   - timeout: The per-request time-out; 60 seconds by default.
        ///   - authTokenProvider: The source of ID tokens, if any.
        ///   - versions: The versions for the client headers.
        public init(
            endpoint: ServiceEndpoint = .production, timeout: TimeInterval = 60,
            authTokenProvider: (any AuthTokenProvider)? = nil, versions: ClientVersions = .current
        ) {
            self.endpoint = endpoint
            self.timeout = timeout
            self.authTokenProvider = authTokenProvider
            self.versions = versions
        }
    }

    /// An HTTP status and body, as received.
    struct HTTPReply: Sendable {
        var status: Int
        var body: Data
    }

    /// Sends one HTTP request; the seam replaced in tests.
    typealias Loader = @Sendable (URLRequest) async throws -> HTTPReply

    /// The configuration in use.
    public let configuration: Configuration
    private let session: URLSession?
    private let loader: Loader

    /// Creates a transport with its own `URLSession`.
    ///
    /// - Parameter configuration: The endpoint, time-out, token provider and versions.
    public convenience init(configuration: Configuration = Configuration()) {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        let session = URLSession(configuration: sessionConfiguration)
        self.init(configuration: configuration, session: session) { request in
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw URLError(.badServerResponse)
            }
            return HTTPReply(status: http.statusCode, body: data)
        }
    }

    /// Creates a transport that hands each HTTP request to `exchange` instead of a `URLSession`.
    ///
    /// Everything else is the live transport's: the URL, headers and body of each request, the retries, and the
    /// mapping of the reply to a response or a ``TransportError``. A thrown error counts as a connection failure.
    /// `DataConnectTesting` uses it to answer requests from an in-process emulator without a socket.
    ///
    /// ```swift
    /// let transport = URLSessionTransport(configuration: .init(endpoint: .production)) { request in
    ///     (status: 200, body: Data(#"{"data":{}}"#.utf8))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The endpoint (used for the URL and `Host`), time-out, token provider and versions.
    ///   - exchange: Sends one request and returns the HTTP status and body received.
    public convenience init(
        configuration: Configuration,
        exchange: @escaping @Sendable (URLRequest) async throws -> (status: Int, body: Data)
    ) {
        self.init(configuration: configuration, session: nil) { request in
            let (status, body) = try await exchange(request)
            return HTTPReply(status: status, body: body)
        }
    }

    init(configuration: Configuration, session: URLSession? = nil, loader: @escaping Loader) {
        self.configuration = configuration
        self.session = session
        self.loader = loader
    }

    deinit {
        session?.finishTasksAndInvalidate()
    }

    /// Sends the operation, retrying a dropped query once, and a 401 once with a token refreshed for it (when the
    /// refresh gives another token).
    ///
    /// - Parameter request: The operation, its variables and header context.
    /// - Returns: The response, with partial data and execution errors kept.
    /// - Throws: ``TransportError``: `.server` for HTTP 400 and above, `.malformedResponse` for an unreadable 200
    ///   body, `.connection` for network failures, `.authentication` when the token provider fails, `.cancelled`.
    public func execute(_ request: OperationRequest) async throws(TransportError) -> GraphQLResponse {
        let usesProvider = request.metadata.authToken == nil && configuration.authTokenProvider != nil
        var token = try await currentToken(for: request)
        var retriedDroppedConnection = false
        var retriedUnauthenticated = false
        while true {
            let urlRequest = try Self.makeURLRequest(
                for: request, authToken: token, endpoint: configuration.endpoint, timeout: configuration.timeout,
                versions: configuration.versions)
            let reply: HTTPReply
            do {
                reply = try await loader(urlRequest)
            } catch {
                if error is CancellationError || Task.isCancelled { throw .cancelled }
                let code = Self.errorCode(error)
                if code == URLErrorCodes.cancelled { throw .cancelled }
                if request.kind == .query, !retriedDroppedConnection, Self.isDroppedConnection(code: code) {
                    retriedDroppedConnection = true
                    continue
                }
                throw .connection(error.localizedDescription, code: code)
            }
            if reply.status == 401, usesProvider, !retriedUnauthenticated {
                // As the JS SDK: an UNAUTHENTICATED answer is retried once with a token refreshed for it.
                retriedUnauthenticated = true
                let latest = try await currentToken(for: request, forcingRefresh: true)
                if latest != token {
                    token = latest
                    continue
                }
            }
            return try Self.decode(reply)
        }
    }

    private func currentToken(
        for request: OperationRequest, forcingRefresh: Bool = false
    ) async throws(TransportError) -> String? {
        if let token = request.metadata.authToken { return token }
        guard let provider = configuration.authTokenProvider else { return nil }
        do {
            return try await provider.token(forcingRefresh: forcingRefresh)
        } catch {
            throw .authentication(String(describing: error))
        }
    }

    // MARK: - Building requests

    /// The REST URL: `{base}/v1/{connector path}:{method}[?key=<apiKey>]`.
    static func makeURL(
        for request: OperationRequest, endpoint: ServiceEndpoint, method: String? = nil
    ) throws(TransportError) -> URL {
        var text = "\(endpoint.baseURL)/v1/\(request.connector.path):\(method ?? request.kind.methodName)"
        if let apiKey = request.metadata.apiKey, !apiKey.isEmpty {
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
            text += "?key=" + (apiKey.addingPercentEncoding(withAllowedCharacters: allowed) ?? apiKey)
        }
        guard let url = URL(string: text) else { throw .invalidRequest("not a valid URL: \(text)") }
        return url
    }

    /// The full HTTP request: method, URL, headers, body and time-out.
    static func makeURLRequest(
        for request: OperationRequest, authToken: String?, endpoint: ServiceEndpoint, timeout: TimeInterval,
        versions: ClientVersions, method: String? = nil
    ) throws(TransportError) -> URLRequest {
        var urlRequest = URLRequest(
            url: try makeURL(for: request, endpoint: endpoint, method: method), timeoutInterval: timeout)
        urlRequest.httpMethod = "POST"
        for (name, value) in headers(for: request, authToken: authToken, versions: versions) {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = Data(request.body.toJSON().serialized())
        return urlRequest
    }

    /// The headers in sending order.
    static func headers(
        for request: OperationRequest, authToken: String?, versions: ClientVersions
    ) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"),
            ("X-Goog-Api-Client", versions.apiClientHeader(generated: request.metadata.isGeneratedCaller)),
            ("X-Client-Version", versions.clientVersionHeader),
        ]
        if let appID = request.metadata.appID, !appID.isEmpty {
            headers.append(("x-firebase-gmpid", appID))
        }
        if let authToken, !authToken.isEmpty {
            headers.append(("X-Firebase-Auth-Token", authToken))
        }
        if let appCheck = request.metadata.appCheckToken, !appCheck.isEmpty {
            headers.append(("X-Firebase-AppCheck", appCheck))
        }
        headers.append(("x-firebase-sqlconnect-affinity", request.connector.affinity))
        return headers
    }

    // MARK: - Reading responses

    /// Maps an HTTP reply to a response or a ``TransportError``.
    static func decode(_ reply: HTTPReply) throws(TransportError) -> GraphQLResponse {
        let bytes = [UInt8](reply.body)
        if reply.status >= 400 {
            let parsed = (try? JSONValue(parsing: bytes)).flatMap {
                try? RequestError(json: $0, httpStatus: reply.status)
            }
            let error =
                parsed
                ?? RequestError(
                    status: StatusCode(httpStatus: reply.status),
                    message: String(decoding: bytes.prefix(512), as: UTF8.self))
            throw .server(error, httpStatus: reply.status)
        }
        guard (200..<300).contains(reply.status) else {
            throw .malformedResponse("unexpected HTTP status \(reply.status)")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw .malformedResponse("the body is not JSON: \(error.message)")
        }
        do {
            return try GraphQLResponse(json: json)
        } catch {
            throw .malformedResponse(error.message)
        }
    }

    // MARK: - Classifying failures

    static func errorCode(_ error: any Error) -> Int {
        if let urlError = error as? URLError { return urlError.errorCode }
        return (error as NSError).code
    }

    /// Whether the connection went away before any response: safe to resend a query.
    ///
    /// On Linux, libcurl reports a connection closed before any byte as `badServerResponse` ("Empty reply from
    /// server") and a reset as `networkConnectionLost`.
    static func isDroppedConnection(code: Int) -> Bool {
        code == URLErrorCodes.networkConnectionLost || code == URLErrorCodes.badServerResponse
            || code == URLErrorCodes.zeroByteResource || code == Int(ECONNRESET)
    }
}
