import DataConnectWire

/// Why a transport produced no GraphQL response.
public enum TransportError: Error, Hashable, Sendable {
    /// The service answered with HTTP 400 or above; the body was read as a `RequestError` in either wire shape.
    case server(RequestError, httpStatus: Int)
    /// The service answered with HTTP 200 but the body was not a GraphQL response.
    case malformedResponse(String)
    /// The connection failed (refused, dropped, timed out, TLS); the description and the `URLError` code.
    case connection(String, code: Int)
    /// The auth token provider failed to produce a token.
    case authentication(String)
    /// The request could not be built, e.g. the endpoint host does not form a valid URL.
    case invalidRequest(String)
    /// The calling task was cancelled.
    case cancelled

    /// The canonical status this failure corresponds to.
    ///
    /// Server failures keep the status from the body; connection failures are `UNAVAILABLE` (or
    /// `DEADLINE_EXCEEDED` for a time-out); malformed bodies are `INTERNAL`.
    public var status: StatusCode {
        switch self {
        case .server(let error, _): error.status
        case .malformedResponse: .internal
        case .connection(_, let code): code == URLErrorCodes.timedOut ? .deadlineExceeded : .unavailable
        case .authentication: .unauthenticated
        case .invalidRequest: .invalidArgument
        case .cancelled: .cancelled
        }
    }
}

extension TransportError: CustomStringConvertible {
    /// A one-line description, e.g. `HTTP 404 NOT_FOUND: operation listMovis not found`.
    public var description: String {
        switch self {
        case .server(let error, let httpStatus): "HTTP \(httpStatus) \(error.description)"
        case .malformedResponse(let reason): "malformed response: \(reason)"
        case .connection(let reason, let code): "connection failed (\(code)): \(reason)"
        case .authentication(let reason): "auth token unavailable: \(reason)"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .cancelled: "cancelled"
        }
    }
}

/// The `URLError.Code` raw values the transport reasons about, spelled once.
enum URLErrorCodes {
    static let cancelled = -999
    static let timedOut = -1001
    static let cannotConnectToHost = -1004
    static let networkConnectionLost = -1005
    static let badServerResponse = -1011
    static let zeroByteResource = -1014
}
