/// The gRPC methods a responder serves on HTTP/2 connections (``HTTPResponder/grpcService``).
///
/// The server looks a method up when a call's HEADERS arrive; a service must therefore answer `method(for:)` cheaply
/// and from any thread.
///
/// ```swift
/// struct Echo: GRPCService {
///     func method(for path: String) -> GRPCMethod? {
///         path == "/echo.Echo/Say" ? .unary { call in .ok(call.message) } : nil
///     }
/// }
/// ```
public protocol GRPCService: Sendable {
    /// The method at `path` (`/package.Service/Method`); nil answers UNIMPLEMENTED (trailers-only).
    func method(for path: String) -> GRPCMethod?
}

/// How a gRPC method is served.
public enum GRPCMethod: Sendable {
    /// One request message, one response; `respond` runs on the thread of the connection's loop once the request
    /// is complete (as REST requests run on the HTTP/1.1 side's), a fast-lane worker (``LaneWorker``). It may block:
    /// past ``HTTPServer/Configuration-swift.struct/handOverConnectionsAfter``, or once it enters the slow lane
    /// (``LaneWorker/enterSlowLane()``), the loop's other connections go to another thread while it goes on.
    case unary(@Sendable (GRPCUnaryCall) -> GRPCUnaryResult)
    /// Bidirectional streaming; `open` runs on the connection's thread when the call's HEADERS arrive.
    case bidirectionalStreaming(@Sendable (GRPCCallHead, GRPCServerStream) -> any GRPCStreamHandler)
}

/// What a call's HEADERS said.
public struct GRPCCallHead: Sendable {
    /// The method's path, `/package.Service/Method`.
    public var path: String
    /// Every non-pseudo header, names lower-case, as sent (`content-type`, `te` and `grpc-timeout` included).
    public var metadata: HTTPHeaders
    /// When the call must be over, from `grpc-timeout` (units `H M S m u n`, at most 8 digits); nil without one.
    public var deadline: ContinuousClock.Instant?
    /// The client's IP address.
    public var remoteAddress: String?
    /// The `:authority` pseudo-header (host and port the client addressed).
    public var authority: String?

    /// Creates a call head (the server makes them; tests of services may too).
    public init(
        path: String, metadata: HTTPHeaders = HTTPHeaders(), deadline: ContinuousClock.Instant? = nil,
        remoteAddress: String? = nil, authority: String? = nil
    ) {
        self.path = path
        self.metadata = metadata
        self.deadline = deadline
        self.remoteAddress = remoteAddress
        self.authority = authority
    }
}

/// A unary call as its method sees it.
public struct GRPCUnaryCall: Sendable {
    /// What the call's HEADERS said.
    public var head: GRPCCallHead
    /// The one request message (a call with none, or with more than one, is answered INTERNAL by the server and
    /// never reaches the method).
    public var message: [UInt8]
    /// Fires when the client goes away, the deadline passes or the server stops past its grace period.
    public var cancellation: GRPCCancellation

    /// Creates a call (the server makes them; tests of services may too).
    public init(head: GRPCCallHead, message: [UInt8], cancellation: GRPCCancellation = GRPCCancellation()) {
        self.head = head
        self.message = message
        self.cancellation = cancellation
    }
}

/// The answer of a unary method.
public struct GRPCUnaryResult: Sendable {
    /// The response message; nil answers trailers-only (a single HEADERS frame carrying the status).
    public var message: [UInt8]?
    /// The call's status, sent as `grpc-status` and `grpc-message` trailers.
    public var status: GRPCStatus
    /// Trailers sent after the status (names lower-case), e.g. none.
    public var trailers: HTTPHeaders

    /// Creates a result.
    public init(message: [UInt8]?, status: GRPCStatus, trailers: HTTPHeaders = HTTPHeaders()) {
        self.message = message
        self.status = status
        self.trailers = trailers
    }

    /// A response message and status OK.
    public static func ok(_ message: [UInt8]) -> Self {
        Self(message: message, status: GRPCStatus(.ok))
    }

    /// No message, a failing status (trailers-only).
    public static func failure(_ status: GRPCStatus) -> Self {
        Self(message: nil, status: status)
    }
}

/// A gRPC status: a code and a message, sent as the `grpc-status` and `grpc-message` trailers.
public struct GRPCStatus: Sendable, Hashable, Error, CustomStringConvertible {
    /// The status codes of gRPC (and `google.rpc.Code`).
    public enum Code: Int, Sendable, CaseIterable {
        /// Not an error.
        case ok = 0
        /// The operation was cancelled, typically by the caller.
        case cancelled
        /// An unknown error.
        case unknown
        /// The client specified an invalid argument.
        case invalidArgument
        /// The deadline expired before the operation could complete.
        case deadlineExceeded
        /// Some requested entity was not found.
        case notFound
        /// The entity a client tried to create already exists.
        case alreadyExists
        /// The caller may not run the operation.
        case permissionDenied
        /// Some resource has been exhausted (a size limit, a quota).
        case resourceExhausted
        /// The system is not in a state required for the operation.
        case failedPrecondition
        /// The operation was aborted (a concurrency conflict).
        case aborted
        /// The operation was attempted past the valid range.
        case outOfRange
        /// The operation is not implemented or not supported.
        case unimplemented
        /// An internal error: an invariant the system expects is broken.
        case `internal`
        /// The service is unavailable now (stopping, overloaded); retrying may work.
        case unavailable
        /// Unrecoverable data loss or corruption.
        case dataLoss
        /// The request lacks valid credentials.
        case unauthenticated

        /// The name gRPC and `google.rpc.Code` give the code, e.g. `RESOURCE_EXHAUSTED`.
        public var name: String {
            Self.names[rawValue]
        }

        private static let names = [
            "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
            "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
            "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
        ]
    }

    /// The code.
    public var code: Code
    /// A message for developers (UTF-8; percent-encoded on the wire).
    public var message: String

    /// Creates a status.
    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    /// Creates a status.
    public init(code: Code, message: String = "") {
        self.init(code, message)
    }

    /// Status OK, no message.
    public static let ok = GRPCStatus(.ok)

    /// The code's name and the message, e.g. `RESOURCE_EXHAUSTED: message exceeds 8388608 bytes`.
    public var description: String {
        message.isEmpty ? code.name : "\(code.name): \(message)"
    }
}

/// What the server's gRPC side is doing (``HTTPServer/grpcStatistics``).
public struct GRPCStatistics: Sendable, Hashable {
    /// Calls whose HEADERS arrived and whose stream has not closed yet, over every connection.
    public var callsInFlight: Int
    /// The most calls in flight at once since the server was created.
    public var peakCallsInFlight: Int
    /// Calls started since the server was created.
    public var callsStarted: Int
    /// HTTP/2 connections open now.
    public var http2Connections: Int

    /// Creates statistics.
    public init(callsInFlight: Int = 0, peakCallsInFlight: Int = 0, callsStarted: Int = 0, http2Connections: Int = 0) {
        self.callsInFlight = callsInFlight
        self.peakCallsInFlight = peakCallsInFlight
        self.callsStarted = callsStarted
        self.http2Connections = http2Connections
    }
}
