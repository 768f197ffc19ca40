import DataConnectWire

/// A mutation bound to its variables; every execution goes to the server.
///
/// ```swift
/// let ref = dataConnect.mutation(
///     name: "createMovie", variables: CreateMovieVariables(title: "Alien"), resultsDataType: CreateMovieData.self)
/// let id = try await ref.execute().data?.movie_insert.id
/// ```
public final class MutationRef<ResultData: Decodable & Sendable, Variable: Encodable & Sendable>: OperationRef,
    Sendable
{
    /// The operation name.
    public let operationName: String
    /// The variables sent with each execution.
    public let variables: Variable
    private let dataConnect: DataConnect
    private let encodedVariables: Result<JSONObject, DataConnectCodecError>
    private let key: OperationKey

    init(dataConnect: DataConnect, operationName: String, variables: Variable) {
        self.dataConnect = dataConnect
        self.operationName = operationName
        self.variables = variables
        encodedVariables = OperationCodec.encode(variables)
        key = OperationCodec.key(operationName, encodedVariables)
    }

    /// Runs the mutation on the server.
    ///
    /// - Returns: The decoded data, with `source == .server`.
    /// - Throws: ``DataConnectOperationError`` when the server reported errors; read the partial data with
    ///   `error.response?.data(asType:)`. ``DataConnectServerError`` when the request failed,
    ///   ``DataConnectCodecError`` when the variables do not encode or the data does not decode.
    public func execute() async throws -> OperationResult<ResultData> {
        let data = try await dataConnect.perform(
            .mutation, operationName: operationName, variables: encodedVariables, as: ResultData.self)
        return OperationResult(data: data, source: .server)
    }

    /// Refs are equal when their operation names and variables are.
    public static func == (lhs: MutationRef, rhs: MutationRef) -> Bool {
        lhs.key == rhs.key
    }

    /// Hashes the operation name and variables.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }
}
