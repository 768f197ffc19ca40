import DataConnectWire

/// A mutation bound to its variables; every execution goes to the server.
///
/// ```swift
/// let ref = dataConnect.mutation(
///     name: "createMovie", variables: CreateMovieVariables(title: "Alien"), resultsDataType: CreateMovieData.self)
/// let id = try await ref.execute().data?.movie_insert.id
/// ```
public final class MutationRef<ResultData: Decodable & Sendable, Variable: OperationVariable>: OperationRef,
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

    /// Runs the mutation on the server, then updates the client cache.
    ///
    /// With cache settings, the ids and actions the server reports update the signed-in user's cache: a deleted
    /// entity leaves every cached list and result (live refs are republished without a request), an updated
    /// entity makes the queries showing it stale, an inserted one makes the list queries over its table stale;
    /// live refs whose result went stale are executed again.
    ///
    /// - Returns: The decoded data, with `source == .server`.
    /// - Throws: ``DataConnectOperationError`` when the server reported errors; read the partial data with
    ///   `error.response?.data(asType:)`. ``DataConnectConnectionError`` when the service could not be reached,
    ///   ``DataConnectServerError`` when it refused the request, ``DataConnectCodecError`` when the variables do
    ///   not encode or the data does not decode. The error is logged at `debug` level only.
    public func execute() async throws -> OperationResult<ResultData> {
        let response: GraphQLResponse
        let uid: String?
        let data: ResultData?
        do {
            (response, uid) = try await dataConnect.send(
                .mutation, operationName: operationName, variables: encodedVariables)
            data = try OperationCodec.decode(response, as: ResultData.self)
        } catch {
            // Thrown to the caller, who decides whether it is worth a warning: logged for debugging only.
            dataConnect.logger.log(.debug, "\(operationName) failed: \(error)")
            throw error
        }
        if dataConnect.cache != nil, let engine = dataConnect.cacheEngine(uid: uid),
            case .object(let object)? = response.data,
            let update = try? engine.applyMutation(response: object, properties: response.extensions.dataConnect)
        {
            dataConnect.propagate(update, in: engine)
        }
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
