/// A named operation bound to its variables, which can be executed.
public protocol OperationRef: Hashable, Equatable {
    /// The decoded shape of the operation's `data`.
    associatedtype ResultData: Decodable & Sendable

    /// Runs the operation.
    ///
    /// - Returns: The decoded data and where it came from.
    /// - Throws: ``DataConnectOperationError`` when the server reported errors (with any partial data),
    ///   ``DataConnectConnectionError`` when the service could not be reached (no connection, reset, time-out),
    ///   ``DataConnectServerError`` when it refused the request (with the server's code, e.g. `.unauthenticated`,
    ///   `.permissionDenied`, `.invalidArgument`), ``DataConnectCodecError`` when the variables do not encode or
    ///   the data does not decode.
    func execute() async throws -> OperationResult<ResultData>
}

/// A query bound to its variables.
public protocol QueryRef: OperationRef {
    /// Runs the query under `fetchPolicy`.
    ///
    /// - Parameter fetchPolicy: Whether the cache may answer; see ``QueryFetchPolicy``.
    /// - Returns: The decoded data and where it came from.
    /// - Throws: As ``OperationRef/execute()``.
    func execute(fetchPolicy: QueryFetchPolicy) async throws -> OperationResult<ResultData>
}

extension QueryRef {
    /// Runs the query with `.preferCache`.
    ///
    /// - Returns: The decoded data and where it came from.
    /// - Throws: As ``OperationRef/execute()``.
    public func execute() async throws -> OperationResult<ResultData> {
        try await execute(fetchPolicy: .preferCache)
    }
}

/// A query whose latest result can be observed.
public protocol ObservableQueryRef: QueryRef {
    /// The latest data, or `nil` before the first result.
    var data: ResultData? { get }
    /// Where ``data`` came from, or `nil` before the first result.
    var source: DataSource? { get }
    /// The error of the latest failed execution, cleared by the next success.
    var lastError: (any DataConnectError)? { get }
}

/// What identifies a ref: the operation name and its variables as canonical JSON.
struct OperationKey: Hashable, Sendable {
    /// The operation name.
    var operationName: String
    /// The variables as canonical JSON, or the encoding error's description.
    var variables: String
}
