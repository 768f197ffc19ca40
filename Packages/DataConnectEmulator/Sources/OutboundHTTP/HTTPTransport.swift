/// Sends one HTTP request and waits for its answer: the seam between the emulator's outbound calls (custom
/// resolvers, embedding providers, token endpoints) and the network.
///
/// Callers run on request threads and must never hang, so a transport blocks for at most the time left until
/// `deadline` and then gives up with ``OutboundHTTPError/timedOut``. ``LiveHTTPTransport`` speaks HTTP/1.1 and
/// HTTPS over sockets; tests give their own implementation to answer without a network.
///
/// ```swift
/// let transport: any HTTPTransport = LiveHTTPTransport()
/// let response = try transport.send(
///     OutboundRequest(method: "GET", url: "http://127.0.0.1:8080/health"), deadline: .now + .seconds(5))
/// print(response.status)
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends a request and reads the whole answer.
    ///
    /// - Parameters:
    ///   - request: what to send.
    ///   - deadline: when to give up.
    /// - Returns: the answer, whatever its status.
    /// - Throws: ``OutboundHTTPError`` when no complete answer arrived.
    func send(
        _ request: OutboundRequest, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError)
        -> OutboundResponse
}

/// An HTTP request to send: method, absolute URL, header fields and body.
public struct OutboundRequest: Sendable {
    /// The method, `POST` or `GET`.
    public var method: String
    /// The absolute `http://` or `https://` URL.
    public var url: String
    /// Header fields to send, in order. The transport sets `Host`, `Content-Length` and `Connection` itself.
    public var headers: [(name: String, value: String)]
    /// The body; empty for none.
    public var body: [UInt8]

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: the method; `POST` by default.
    ///   - url: the absolute URL.
    ///   - headers: header fields besides `Host`, `Content-Length` and `Connection`.
    ///   - body: the body.
    public init(
        method: String = "POST", url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of a header field (names compare case-insensitively), or `nil` when it is not set.
    public func header(_ name: String) -> String? {
        let lowercased = name.lowercased()
        return headers.first { $0.name.lowercased() == lowercased }?.value
    }
}

/// An HTTP answer: the status, the header fields and the whole body.
public struct OutboundResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// The header fields, names lowercased; of a repeated field, the last.
    public var headers: [String: String]
    /// The body, de-chunked.
    public var body: [UInt8]

    /// Creates an answer.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a request got no complete answer.
public enum OutboundHTTPError: Error, Sendable, Equatable {
    /// The URL cannot be called (not `http://` or `https://`, malformed, or HTTPS cannot be set up).
    case unsupported(String)
    /// The host name did not resolve, or no connection could be made (refused, unreachable).
    case unreachable(String)
    /// The deadline passed before the answer was complete.
    case timedOut
    /// The connection broke, the TLS handshake failed (a certificate that does not verify), or the answer is
    /// not HTTP.
    case broken(String)

    /// The reason, for messages.
    public var reason: String {
        switch self {
        case .unsupported(let text), .unreachable(let text), .broken(let text): text
        case .timedOut: "timed out"
        }
    }
}
