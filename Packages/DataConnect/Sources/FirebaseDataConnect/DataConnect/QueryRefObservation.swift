import DataConnectWire
import Observation
import Synchronization

/// A query bound to its variables whose latest result is observable with Observation and as an async sequence.
///
/// ``DataConnect`` hands out one ref per operation name and variables, so every screen showing the same query
/// shares ``data``. A successful execution sets ``data`` and ``source``, clears ``lastError`` and publishes the
/// result to every ``results`` consumer; a failed one sets ``lastError`` and keeps ``data``. Unlike upstream, the
/// ref is `Sendable` and may be executed from any actor.
///
/// ```swift
/// let ref = dataConnect.query(
///     name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
/// Task { for await result in ref.results { print(result.data?.movies.count ?? 0) } }
/// _ = try await ref.execute()
/// ```
@Observable
public final class QueryRefObservation<ResultData: Decodable & Sendable, Variable: Encodable & Sendable>:
    ObservableQueryRef, Sendable
{
    private struct State {
        var data: ResultData?
        var source: DataSource?
        var lastError: (any DataConnectError)?
        var consumers: [Int: AsyncStream<OperationResult<ResultData>>.Continuation] = [:]
        var nextConsumerID = 0
    }

    /// The operation name.
    @ObservationIgnored public let operationName: String
    /// The variables sent with each execution.
    @ObservationIgnored public let variables: Variable
    @ObservationIgnored private let dataConnect: DataConnect
    @ObservationIgnored private let encodedVariables: Result<JSONObject, DataConnectCodecError>
    @ObservationIgnored let key: OperationKey
    @ObservationIgnored private let state = Mutex(State())

    init(dataConnect: DataConnect, operationName: String, variables: Variable) {
        self.dataConnect = dataConnect
        self.operationName = operationName
        self.variables = variables
        encodedVariables = OperationCodec.encode(variables)
        key = OperationCodec.key(operationName, encodedVariables)
    }

    deinit {
        let consumers = state.withLock { $0.consumers.values }
        for consumer in consumers { consumer.finish() }
    }

    /// The latest data, or `nil` before the first result; observable.
    public var data: ResultData? {
        access(keyPath: \.data)
        return state.withLock { $0.data }
    }

    /// Where ``data`` came from, or `nil` before the first result; observable.
    public var source: DataSource? {
        access(keyPath: \.source)
        return state.withLock { $0.source }
    }

    /// The error of the latest failed execution, cleared by the next success; observable.
    public var lastError: (any DataConnectError)? {
        access(keyPath: \.lastError)
        return state.withLock { $0.lastError }
    }

    /// Every result published from now on; one independent sequence per access.
    ///
    /// Any number of consumers may iterate, each with its own sequence. A sequence ends when its consumer's task
    /// is cancelled or the ref is released. Failed executions publish nothing; see ``lastError``.
    public var results: AsyncStream<OperationResult<ResultData>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: OperationResult<ResultData>.self, bufferingPolicy: .unbounded)
        let id = state.withLock { state -> Int in
            let id = state.nextConsumerID
            state.nextConsumerID += 1
            state.consumers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.consumers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many ``results`` sequences are being consumed.
    var resultsConsumerCount: Int {
        state.withLock { $0.consumers.count }
    }

    /// Runs the query under `fetchPolicy` and publishes a server result.
    ///
    /// There is no client cache yet: `.preferCache` and `.serverOnly` go to the server; `.cacheOnly` returns
    /// `OperationResult(data: nil, source: .cache)` without a request, changing nothing on the ref.
    ///
    /// - Parameter fetchPolicy: Whether the cache may answer.
    /// - Returns: The decoded data and where it came from.
    /// - Throws: ``DataConnectOperationError`` when the server reported errors (with any partial data),
    ///   ``DataConnectServerError`` when the request failed, ``DataConnectCodecError`` when the variables do not
    ///   encode or the data does not decode. The error is also kept in ``lastError``.
    public func execute(fetchPolicy: QueryFetchPolicy) async throws -> OperationResult<ResultData> {
        if fetchPolicy == .cacheOnly {
            return OperationResult(data: nil, source: .cache)
        }
        do {
            let data = try await dataConnect.perform(
                .query, operationName: operationName, variables: encodedVariables, as: ResultData.self)
            let result = OperationResult(data: data, source: .server)
            publish(result)
            return result
        } catch {
            if let error = error as? any DataConnectError {
                withMutation(keyPath: \.lastError) {
                    state.withLock { $0.lastError = error }
                }
            }
            throw error
        }
    }

    private func publish(_ result: OperationResult<ResultData>) {
        withMutation(keyPath: \.data) {
            withMutation(keyPath: \.source) {
                withMutation(keyPath: \.lastError) {
                    state.withLock { state in
                        state.data = result.data
                        state.source = result.source
                        state.lastError = nil
                        for consumer in state.consumers.values { consumer.yield(result) }
                    }
                }
            }
        }
    }

    /// Refs are equal when their operation names and variables are.
    public static func == (lhs: QueryRefObservation, rhs: QueryRefObservation) -> Bool {
        lhs.key == rhs.key
    }

    /// Hashes the operation name and variables.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }
}
