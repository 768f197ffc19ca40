/// An error thrown by Data Connect.
///
/// Every Data Connect error has a message and, when it was caused by another error, that error.
/// Its `description` always includes the message, and for server errors the server's messages.
///
/// ```swift
/// do {
///     _ = try await ref.execute()
/// } catch let error as DataConnectConnectionError {
///     print("offline:", error.code)               // .unavailable or .deadlineExceeded
/// } catch let error as DataConnectServerError where error.code == .permissionDenied {
///     print(error.message ?? "")
/// } catch let error as DataConnectOperationError {
///     let partial = error.response?.data(asType: ListMoviesQuery.Data.self)
/// }
/// ```
public protocol DataConnectError: Error, CustomDebugStringConvertible, CustomStringConvertible {
    /// What went wrong.
    var message: String? { get }
    /// The error that caused this one, if any.
    var underlyingError: (any Error)? { get }
}

extension DataConnectError {
    /// The description followed by the underlying error's description.
    public var debugDescription: String {
        guard let underlyingError else { return description }
        return "\(description) (underlying error: \(String(reflecting: underlyingError)))"
    }
}

/// A type-erased ``DataConnectError``, for APIs that must name a concrete error type.
public struct AnyDataConnectError: Error {
    /// The wrapped error.
    public let dataConnectError: any DataConnectError

    /// Wraps an error.
    public init(dataConnectError: any DataConnectError) {
        self.dataConnectError = dataConnectError
    }
}

extension AnyDataConnectError: CustomStringConvertible {
    /// The wrapped error's description.
    public var description: String { dataConnectError.description }
}

/// A ``DataConnectError`` with a code naming the kind of failure.
public protocol DataConnectDomainError: DataConnectError {
    /// The type of ``code``.
    associatedtype ErrorCode: DataConnectErrorCode
    /// The kind of failure.
    var code: ErrorCode { get }
}

/// A code of a ``DataConnectDomainError``; its `description` is the code's name, e.g. `invalidUUID`.
public protocol DataConnectErrorCode: CustomStringConvertible, Equatable, Sendable, CaseIterable {}

extension DataConnectDomainError {
    /// `<Type>(<code>): <message>`.
    public var description: String {
        "\(Self.self)(\(code)): \(message ?? "no message")"
    }
}

// MARK: - Domains

/// Data Connect could not start, e.g. no `FirebaseApp` is configured.
public struct DataConnectInitError: DataConnectDomainError {
    /// The kind of initialization failure.
    public struct Code: DataConnectErrorCode {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// No `FirebaseApp` was configured.
        public static let appNotConfigured = Code("appNotConfigured")
        /// The transport could not be set up.
        public static let grpcNotConfigured = Code("grpcNotConfigured")

        /// All codes.
        public static var allCases: [Code] { [.appNotConfigured, .grpcNotConfigured] }
        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong.
    public private(set) var message: String?
    /// The cause, if any.
    public private(set) var underlyingError: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String? = nil, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }
}

/// A value could not be encoded or decoded: a variable, a response, or a scalar such as a UUID.
public struct DataConnectCodecError: DataConnectDomainError {
    /// The kind of codec failure.
    public struct Code: DataConnectErrorCode {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Variables could not be encoded.
        public static let encodingFailed = Code("encodingFailed")
        /// A response or value could not be decoded.
        public static let decodingFailed = Code("decodingFailed")
        /// A string is not a UUID.
        public static let invalidUUID = Code("invalidUUID")
        /// A string is not an RFC 3339 timestamp.
        public static let invalidTimestampFormat = Code("invalidTimestampFormat")
        /// A string or components are not a valid `YYYY-MM-DD` date.
        public static let invalidLocalDateFormat = Code("invalidLocalDateFormat")

        /// All codes.
        public static var allCases: [Code] {
            [.encodingFailed, .decodingFailed, .invalidUUID, .invalidTimestampFormat, .invalidLocalDateFormat]
        }
        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong.
    public private(set) var message: String?
    /// The cause, if any.
    public private(set) var underlyingError: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String? = nil, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }
}

/// A failure inside the SDK, such as the cache's storage failing.
public struct DataConnectInternalError: DataConnectDomainError {
    /// The kind of internal failure.
    public struct Code: DataConnectErrorCode {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A failure with no more specific code.
        public static let internalError = Code("internalError")
        /// The SQLite cache failed.
        public static let sqliteError = Code("sqliteError")

        /// All codes.
        public static var allCases: [Code] { [.internalError, .sqliteError] }
        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong.
    public private(set) var message: String?
    /// The cause, if any.
    public private(set) var underlyingError: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String? = nil, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }
}
