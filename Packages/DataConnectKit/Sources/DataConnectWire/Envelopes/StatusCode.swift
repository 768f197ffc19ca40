/// A canonical gRPC status code (`google.rpc.Code`), with its wire name and HTTP status.
///
/// Request-level failures carry one of these; GraphQL errors carry one in `extensions.code`, written as its
/// ``name``.
///
/// ```swift
/// StatusCode.permissionDenied.name        // "PERMISSION_DENIED"
/// StatusCode.permissionDenied.httpStatus  // 403
/// StatusCode(name: "NOT_FOUND")           // .notFound
/// ```
public enum StatusCode: Int, CaseIterable, Hashable, Sendable {
    /// Not an error.
    case ok = 0
    /// The operation was cancelled, typically by the caller.
    case cancelled = 1
    /// An unknown error.
    case unknown = 2
    /// The client sent an invalid argument, such as bad variables.
    case invalidArgument = 3
    /// The deadline expired before the operation finished.
    case deadlineExceeded = 4
    /// Something requested was not found, such as an operation or connector.
    case notFound = 5
    /// Something the client tried to create already exists.
    case alreadyExists = 6
    /// The caller may not run this operation.
    case permissionDenied = 7
    /// A quota or resource ran out.
    case resourceExhausted = 8
    /// The system is not in a state the operation needs.
    case failedPrecondition = 9
    /// The operation was aborted, typically by a concurrency conflict.
    case aborted = 10
    /// The operation went past a valid range.
    case outOfRange = 11
    /// The operation is not implemented or supported.
    case unimplemented = 12
    /// An internal error.
    case `internal` = 13
    /// The service is unavailable for now; retrying may help.
    case unavailable = 14
    /// Unrecoverable data loss or corruption.
    case dataLoss = 15
    /// The request lacks valid authentication.
    case unauthenticated = 16

    /// The wire name, e.g. `INVALID_ARGUMENT`.
    public var name: String {
        switch self {
        case .ok: return "OK"
        case .cancelled: return "CANCELLED"
        case .unknown: return "UNKNOWN"
        case .invalidArgument: return "INVALID_ARGUMENT"
        case .deadlineExceeded: return "DEADLINE_EXCEEDED"
        case .notFound: return "NOT_FOUND"
        case .alreadyExists: return "ALREADY_EXISTS"
        case .permissionDenied: return "PERMISSION_DENIED"
        case .resourceExhausted: return "RESOURCE_EXHAUSTED"
        case .failedPrecondition: return "FAILED_PRECONDITION"
        case .aborted: return "ABORTED"
        case .outOfRange: return "OUT_OF_RANGE"
        case .unimplemented: return "UNIMPLEMENTED"
        case .internal: return "INTERNAL"
        case .unavailable: return "UNAVAILABLE"
        case .dataLoss: return "DATA_LOSS"
        case .unauthenticated: return "UNAUTHENTICATED"
        }
    }

    /// The code with wire name `name` (e.g. `PERMISSION_DENIED`), or `nil` when there is none.
    public init?(name: String) {
        guard let code = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = code
    }

    /// The HTTP status a REST response uses for this code.
    ///
    /// `OK` is 200; `INVALID_ARGUMENT`, `FAILED_PRECONDITION` and `OUT_OF_RANGE` 400; `UNAUTHENTICATED` 401;
    /// `PERMISSION_DENIED` 403; `NOT_FOUND` 404; `ALREADY_EXISTS` and `ABORTED` 409; `RESOURCE_EXHAUSTED` 429;
    /// `CANCELLED` 499; `INTERNAL`, `UNKNOWN` and `DATA_LOSS` 500; `UNIMPLEMENTED` 501; `UNAVAILABLE` 503;
    /// `DEADLINE_EXCEEDED` 504.
    public var httpStatus: Int {
        switch self {
        case .ok: return 200
        case .invalidArgument, .failedPrecondition, .outOfRange: return 400
        case .unauthenticated: return 401
        case .permissionDenied: return 403
        case .notFound: return 404
        case .alreadyExists, .aborted: return 409
        case .resourceExhausted: return 429
        case .cancelled: return 499
        case .internal, .unknown, .dataLoss: return 500
        case .unimplemented: return 501
        case .unavailable: return 503
        case .deadlineExceeded: return 504
        }
    }

    /// The most likely code for an HTTP status, for responses that carry no code of their own.
    ///
    /// Where several codes share a status the most general one is chosen: 400 gives `INVALID_ARGUMENT`,
    /// 409 `ABORTED`, 500 `INTERNAL`. Other 2xx statuses give `OK`, other statuses `UNKNOWN`.
    public init(httpStatus: Int) {
        switch httpStatus {
        case 200..<300: self = .ok
        case 400: self = .invalidArgument
        case 401: self = .unauthenticated
        case 403: self = .permissionDenied
        case 404: self = .notFound
        case 409: self = .aborted
        case 429: self = .resourceExhausted
        case 499: self = .cancelled
        case 500: self = .internal
        case 501: self = .unimplemented
        case 503: self = .unavailable
        case 504: self = .deadlineExceeded
        default: self = .unknown
        }
    }
}

extension StatusCode: CustomStringConvertible {
    /// The wire name; see ``name``.
    public var description: String { name }
}
