/// An HTTP status code.
///
/// The reason phrase is supplied by the server. Integer literals work: `let status: HTTPStatus = 418`.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The numeric code, for example `200`.
    public var code: Int

    /// Creates a status from its numeric code.
    public init(code: Int) {
        self.code = code
    }

    /// Creates a status from its numeric code.
    public init(rawValue: Int) {
        self.code = rawValue
    }

    /// Creates a status from an integer literal.
    public init(integerLiteral value: Int) {
        self.code = value
    }

    /// The numeric code.
    public var rawValue: Int { code }

    /// The numeric code as text.
    public var description: String { String(code) }

    /// 200 OK
    public static let ok = HTTPStatus(code: 200)
    /// 204 No Content
    public static let noContent = HTTPStatus(code: 204)
    /// 400 Bad Request
    public static let badRequest = HTTPStatus(code: 400)
    /// 401 Unauthorized
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403 Forbidden
    public static let forbidden = HTTPStatus(code: 403)
    /// 404 Not Found
    public static let notFound = HTTPStatus(code: 404)
    /// 405 Method Not Allowed
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// 409 Conflict
    public static let conflict = HTTPStatus(code: 409)
    /// 413 Content Too Large
    public static let contentTooLarge = HTTPStatus(code: 413)
    /// 414 URI Too Long
    public static let uriTooLong = HTTPStatus(code: 414)
    /// 415 Unsupported Media Type
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// 429 Too Many Requests
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// 431 Request Header Fields Too Large
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
    /// 500 Internal Server Error
    public static let internalServerError = HTTPStatus(code: 500)
    /// 501 Not Implemented
    public static let notImplemented = HTTPStatus(code: 501)
    /// 503 Service Unavailable
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 504 Gateway Timeout
    public static let gatewayTimeout = HTTPStatus(code: 504)
}

/// An HTTP response returned by an ``HTTPResponder``.
///
/// The body is either complete bytes (sent with a `Content-Length` the server computes) or, with status 101, a
/// switch to the WebSocket protocol (``webSocket(for:handler:)``). `Content-Length`, `Date` and the connection
/// headers are managed by the server.
///
/// ```swift
/// HTTPResponse.json(#"{"data":{}}"#)
/// HTTPResponse(status: .notFound, headers: ["Content-Type": "text/plain"], body: Array("no such path".utf8))
/// ```
public struct HTTPResponse: Sendable {
    /// How the response body is produced.
    public enum Body: Sendable {
        /// The complete body.
        case bytes([UInt8])
        /// No body: the connection switches to the WebSocket protocol, served by the handler; see
        /// ``HTTPResponse/webSocket(for:handler:)``.
        case webSocket(any WebSocketHandler)
    }

    /// The status code.
    public var status: HTTPStatus
    /// The header fields, sent in order.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// Creates a response with a complete body.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// A response with a JSON body and `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - body: The encoded JSON bytes.
    ///   - status: The status code (default 200).
    ///   - headers: Further header fields, sent after `Content-Type`.
    public static func json(
        _ body: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()
    )
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: withContentType("application/json", headers), body: body)
    }

    /// A response with a JSON body given as text and `Content-Type: application/json`.
    public static func json(
        _ body: String, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()
    )
        -> HTTPResponse
    {
        json(Array(body.utf8), status: status, headers: headers)
    }

    /// A response with a plain-text body and `Content-Type: text/plain; charset=utf-8`.
    public static func text(
        _ body: String, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()
    )
        -> HTTPResponse
    {
        HTTPResponse(
            status: status, headers: withContentType("text/plain; charset=utf-8", headers), body: Array(body.utf8))
    }

    /// Accepts a WebSocket: a 101 response that hands the connection to `handler`, or, when `request` is not a valid
    /// opening handshake, the refusal to send instead (see ``WebSocketHandshake/check(_:)``: 400 or 426).
    ///
    /// ```swift
    /// func respond(to request: HTTPRequest) -> HTTPResponse {
    ///     request.path == "/echo" ? .webSocket(for: request, handler: Echo()) : .text("not found", status: .notFound)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The upgrade request.
    ///   - handler: Serves the connection once the handshake is done.
    public static func webSocket(for request: HTTPRequest, handler: any WebSocketHandler) -> HTTPResponse {
        switch WebSocketHandshake.check(request) {
        case .refuse(let refusal):
            return refusal
        case .accept(let accept):
            var response = HTTPResponse(status: 101)
            response.headers = [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept,
            ]
            response.body = .webSocket(handler)
            return response
        }
    }

    /// The complete body bytes, or `nil` for a WebSocket upgrade.
    public var bodyBytes: [UInt8]? {
        if case .bytes(let bytes) = body { return bytes }
        return nil
    }

    private static func withContentType(_ contentType: String, _ headers: HTTPHeaders) -> HTTPHeaders {
        if headers.contains(name: "Content-Type") { return headers }
        var result = HTTPHeaders([HTTPHeaders.Field(name: "Content-Type", value: contentType)])
        for field in headers {
            result.add(name: field.name, value: field.value)
        }
        return result
    }
}
