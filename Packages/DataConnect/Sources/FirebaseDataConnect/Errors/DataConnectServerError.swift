import DataConnectWire

/// The server answered, and refused the request.
///
/// The code is the gRPC status the server sent (`unauthenticated` for HTTP 401, `permissionDenied` for 403,
/// `invalidArgument` for bad variables, `notFound`, ...); the message, details and HTTP status are the server's.
/// A service that could not be reached at all throws ``DataConnectConnectionError`` instead, and an operation
/// that ran but reported field errors throws ``DataConnectOperationError``, so a refusal is never mistaken for an
/// outage. A token provider that fails to give a token is reported here too, as ``Code/unauthenticated`` without
/// an HTTP status.
///
/// ```swift
/// catch let error as DataConnectServerError where error.code == .unauthenticated {
///     try await signIn()
/// }
/// ```
public struct DataConnectServerError: DataConnectDomainError {
    /// The gRPC status of the failure, named in lowerCamel case.
    public struct Code: DataConnectErrorCode {
        /// The wire status.
        public let statusCode: StatusCode

        /// Converts a wire status.
        public init(_ statusCode: StatusCode) {
            self.statusCode = statusCode
        }

        /// The operation was cancelled.
        public static let cancelled = Code(.cancelled)
        /// An unknown error.
        public static let unknown = Code(.unknown)
        /// The request was invalid, e.g. bad variables.
        public static let invalidArgument = Code(.invalidArgument)
        /// The deadline expired, or the connection timed out.
        public static let deadlineExceeded = Code(.deadlineExceeded)
        /// The operation or connector does not exist.
        public static let notFound = Code(.notFound)
        /// Something to create exists already.
        public static let alreadyExists = Code(.alreadyExists)
        /// The caller may not run the operation.
        public static let permissionDenied = Code(.permissionDenied)
        /// A quota ran out.
        public static let resourceExhausted = Code(.resourceExhausted)
        /// The system is not in the state the operation needs.
        public static let failedPrecondition = Code(.failedPrecondition)
        /// The operation was aborted.
        public static let aborted = Code(.aborted)
        /// A value was out of range.
        public static let outOfRange = Code(.outOfRange)
        /// The operation is not implemented.
        public static let unimplemented = Code(.unimplemented)
        /// An internal server error.
        public static let `internal` = Code(.internal)
        /// The service could not be reached or is unavailable.
        public static let unavailable = Code(.unavailable)
        /// Data was lost.
        public static let dataLoss = Code(.dataLoss)
        /// The request lacks valid authentication.
        public static let unauthenticated = Code(.unauthenticated)

        /// All failure codes (every status but `OK`).
        public static var allCases: [Code] {
            StatusCode.allCases.filter { $0 != .ok }.map(Code.init)
        }

        /// The lowerCamel name, e.g. `permissionDenied`.
        public var description: String {
            let words = statusCode.name.lowercased().split(separator: "_")
            return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
        }
    }

    /// The kind of failure.
    public let code: Code
    /// The server's message, or a description of the connection failure.
    public private(set) var message: String?
    /// The cause, e.g. the transport error, if any.
    public private(set) var underlyingError: (any Error)?
    /// The server's details that read as errors.
    public let details: [OperationFailureResponse.ErrorInfo]
    /// The HTTP status of the response, or `nil` when there was no response.
    public let httpStatus: Int?

    /// Creates an error.
    public init(
        code: Code, message: String?, details: [OperationFailureResponse.ErrorInfo] = [], httpStatus: Int? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.details = details
        self.httpStatus = httpStatus
        self.underlyingError = underlyingError
    }

    /// Converts a request-level error body.
    ///
    /// Details that carry a `message` (GraphQL errors) become ``details``; others are dropped.
    ///
    /// - Parameters:
    ///   - requestError: The error read from the response body.
    ///   - httpStatus: The response's HTTP status, if known.
    public init(_ requestError: RequestError, httpStatus: Int? = nil) {
        self.init(
            code: Code(requestError.status),
            message: requestError.message,
            details: requestError.details.compactMap { detail in
                (try? GraphQLError(json: detail)).map(OperationFailureResponse.ErrorInfo.init)
            },
            httpStatus: httpStatus,
            underlyingError: requestError
        )
    }

    /// Converts a transport failure, keeping the server's body and HTTP status when there was one.
    ///
    /// The SDK itself throws ``DataConnectConnectionError`` for `TransportError.connection`; converted here, a
    /// connection failure gets ``Code/unavailable`` or ``Code/deadlineExceeded``.
    ///
    /// - Parameter transportError: The failure; it becomes ``underlyingError``.
    public init(_ transportError: TransportError) {
        if case .server(let requestError, let httpStatus) = transportError {
            self.init(requestError, httpStatus: httpStatus)
            underlyingError = transportError
        } else {
            self.init(
                code: Code(transportError.status), message: transportError.description,
                underlyingError: transportError
            )
        }
    }

    /// `DataConnectServerError(<code>, HTTP <status>): <message>`, then each detail.
    public var description: String {
        var text = "DataConnectServerError(\(code)"
        if let httpStatus {
            text += ", HTTP \(httpStatus)"
        }
        text += "): \(message ?? "no message")"
        if !details.isEmpty {
            text += "; details: " + details.map(\.description).joined(separator: "; ")
        }
        return text
    }
}
