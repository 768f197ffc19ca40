import DataConnectWire
import Foundation

/// The server ran the operation but reported errors, possibly beside partial data.
///
/// Queries and mutations throw this alike, never wrapped in another operation error. Its `description`
/// lists every server message.
///
/// ```swift
/// catch let error as DataConnectOperationError {
///     for info in error.response?.errors ?? [] { print(info.message, info.code ?? "") }
///     let partial = error.response?.data(asType: CreateMovieMutation.Data.self)
/// }
/// ```
public struct DataConnectOperationError: DataConnectError {
    /// What went wrong; by default a summary of the server's messages.
    public private(set) var message: String?
    /// The cause, e.g. the error decoding the partial data, if any.
    public private(set) var underlyingError: (any Error)?
    /// The server's response: its errors and partial data.
    public private(set) var response: OperationFailureResponse?

    /// Creates an error.
    public init(message: String? = nil, underlyingError: (any Error)? = nil, response: OperationFailureResponse?) {
        self.message = message ?? response.map(Self.summary)
        self.underlyingError = underlyingError
        self.response = response
    }

    /// Creates an error from a response that carries errors.
    ///
    /// - Parameters:
    ///   - response: The GraphQL response; its `data` becomes the partial data.
    ///   - underlyingError: The error decoding the partial data, if any.
    public init(_ response: GraphQLResponse, underlyingError: (any Error)? = nil) {
        self.init(underlyingError: underlyingError, response: OperationFailureResponse(response))
    }

    private static func summary(of response: OperationFailureResponse) -> String {
        switch response.errors.count {
        case 0: return "operation failed"
        case 1: return "operation failed: \(response.errors[0].message)"
        default: return "operation failed with \(response.errors.count) errors"
        }
    }

    /// The message followed by each server error, e.g.
    /// `DataConnectOperationError: operation failed: denied [PERMISSION_DENIED] (at movie)`.
    public var description: String {
        var text = "DataConnectOperationError: \(message ?? "operation failed")"
        let errors = response?.errors ?? []
        if errors.count > 1 || (errors.count == 1 && message != Self.summary(of: response!)) {
            text += "; errors: " + errors.map(\.description).joined(separator: "; ")
        } else if let only = errors.first {
            text += only.detailSuffix
        }
        return text
    }
}

/// The errors and partial data of a response that failed.
public struct OperationFailureResponse: Sendable {
    /// One error reported by the server.
    public struct ErrorInfo: Codable, Sendable, Hashable, CustomStringConvertible {
        /// The server's message.
        public let message: String
        /// The path of the response field the error belongs to, if any.
        public let path: [DataConnectPathSegment]?
        /// The canonical code from `extensions.code`, e.g. `FAILED_PRECONDITION`, if any.
        public let code: String?

        /// Creates an error entry.
        public init(message: String, path: [DataConnectPathSegment]? = nil, code: String? = nil) {
            self.message = message
            self.path = path
            self.code = code
        }

        /// Converts a wire GraphQL error.
        public init(_ error: GraphQLError) {
            self.init(
                message: error.message,
                path: error.path.isEmpty ? nil : error.path.map(DataConnectPathSegment.init),
                code: error.extensions?.code?.name
            )
        }

        /// The message, then the code in brackets and the path, when present.
        public var description: String {
            message + detailSuffix
        }

        var detailSuffix: String {
            var text = ""
            if let code {
                text += " [\(code)]"
            }
            if let path, !path.isEmpty {
                text += " (at \(path.dottedDescription))"
            }
            return text
        }
    }

    /// The `data` member as JSON text, or `nil` when the response had none (or `null`).
    public let rawJsonData: String?
    /// The server's errors.
    public let errors: [ErrorInfo]

    /// Creates a response.
    public init(rawJsonData: String?, errors: [ErrorInfo]) {
        self.rawJsonData = rawJsonData
        self.errors = errors
    }

    /// Converts a wire response.
    public init(_ response: GraphQLResponse) {
        let data = response.data.flatMap { $0.isNull ? nil : $0 }
        self.init(rawJsonData: data?.jsonString(), errors: response.errors.map(ErrorInfo.init))
    }

    /// The partial data decoded as `asType`, or `nil` when there is none or it does not decode.
    ///
    /// Fields the server could not resolve are `null`, so a type with optional fields decodes more often.
    ///
    /// - Parameter asType: The operation's `Data` type.
    /// - Returns: The decoded data, or `nil`.
    public func data<Data: Decodable>(asType: Data.Type = Data.self) -> Data? {
        guard let rawJsonData else { return nil }
        return try? JSONDecoder().decode(Data.self, from: Foundation.Data(rawJsonData.utf8))
    }
}
