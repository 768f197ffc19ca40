import DataConnectWire

/// The service could not be reached: no connection, a dropped connection, or a time-out **[ext]**.
///
/// Upstream throws the raw gRPC status for these; here they have a type of their own, so that a caller can tell
/// "the server is down or unreachable" from "the server refused the request" (``DataConnectServerError``, whose
/// code is the server's) and from "the operation ran with errors" (``DataConnectOperationError``) without reading
/// messages. No response was received, so there is no HTTP status; the transport's failure is kept in
/// ``underlyingError``.
///
/// ```swift
/// do {
///     _ = try await connector.listMoviesQuery.execute()
/// } catch let error as DataConnectConnectionError where error.code == .deadlineExceeded {
///     showRetryBanner("the server took too long")
/// } catch let error as DataConnectConnectionError {
///     showOfflineBanner(error.message ?? "offline")
/// } catch let error as DataConnectServerError where error.code == .unauthenticated {
///     try await signIn()
/// }
/// ```
public struct DataConnectConnectionError: DataConnectDomainError {
    /// Why no response came, named as the gRPC status it corresponds to.
    public struct Code: DataConnectErrorCode {
        /// The corresponding wire status: `UNAVAILABLE` or `DEADLINE_EXCEEDED`.
        public let statusCode: StatusCode

        private init(_ statusCode: StatusCode) {
            self.statusCode = statusCode
        }

        /// The connection was refused, dropped or could not be set up (nothing listening, reset, TLS, DNS).
        public static let unavailable = Code(.unavailable)
        /// The request timed out before a response arrived.
        public static let deadlineExceeded = Code(.deadlineExceeded)

        /// All codes.
        public static var allCases: [Code] { [.unavailable, .deadlineExceeded] }

        /// The lowerCamel name: `unavailable` or `deadlineExceeded`.
        public var description: String {
            statusCode == .deadlineExceeded ? "deadlineExceeded" : "unavailable"
        }
    }

    /// Why no response came.
    public let code: Code
    /// A description of the failure, e.g. `connection failed (-1004): Could not connect to the server.`.
    public private(set) var message: String?
    /// The cause: usually the ``TransportError``, whose `.connection` case holds the `URLError` code.
    public private(set) var underlyingError: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: Why no response came.
    ///   - message: A description of the failure.
    ///   - underlyingError: The cause, if any.
    public init(code: Code, message: String?, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }
}

extension TransportError {
    /// The error the SDK throws for this failure.
    ///
    /// A connection failure (`.connection`) is a ``DataConnectConnectionError``: ``DataConnectConnectionError/Code/deadlineExceeded``
    /// for a time-out, ``DataConnectConnectionError/Code/unavailable`` otherwise. Everything else, a server's
    /// refusal above all, is a ``DataConnectServerError`` with the server's code and HTTP status.
    var dataConnectError: any DataConnectError {
        switch self {
        case .connection(let reason, let code):
            DataConnectConnectionError(
                code: code == URLErrorCodes.timedOut ? .deadlineExceeded : .unavailable,
                message: "connection failed (\(code)): \(reason)", underlyingError: self)
        default:
            DataConnectServerError(self)
        }
    }
}
