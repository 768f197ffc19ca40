import Observation

/// A query bound to its variables, under the name upstream gives its `ObservableObject` ref.
///
/// `publisher: .observableObject` (what generated code asks for when `connector.yaml` sets
/// `observablePublisher: observableObject`) returns this type, with upstream's members: ``data``, ``source`` and
/// ``lastError``, ``execute(fetchPolicy:)`` and ``subscribe()``.
///
/// **Platform difference.** Upstream this is a Combine `ObservableObject` whose properties are `@Published`.
/// Linux has neither Combine nor SwiftUI, so there is no `objectWillChange` publisher here; the properties are
/// observable with the Observation framework instead (`withObservationTracking`, `Observations`), exactly as
/// on ``QueryRefObservation``, and every result also arrives on ``results``. Code that only reads the members,
/// executes and subscribes compiles and behaves the same on both platforms.
///
/// The type is a thin view of the ``QueryRefObservation`` that ``DataConnect`` keeps for the same operation
/// name and variables: both see the same data and share one realtime subscription.
///
/// ```swift
/// let ref = dataConnect.query(
///     name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self,
///     publisher: .observableObject) as! QueryRefObservableObject<MovieList, GenreVariables>
/// _ = try await ref.execute()
/// print(ref.data?.movies.count ?? 0)
/// ```
public final class QueryRefObservableObject<ResultData: Decodable & Sendable, Variable: OperationVariable>:
    ObservableQueryRef, Observable, Sendable
{
    /// The shared ref this one reads and executes.
    let observation: QueryRefObservation<ResultData, Variable>

    init(observation: QueryRefObservation<ResultData, Variable>) {
        self.observation = observation
    }

    /// The operation name.
    public var operationName: String { observation.operationName }

    /// The variables sent with each execution.
    public var variables: Variable { observation.variables }

    /// The latest data, or `nil` before the first result; observable.
    public var data: ResultData? { observation.data }

    /// Where ``data`` came from, or `nil` before the first result; observable.
    public var source: DataSource? { observation.source }

    /// The error of the latest failed execution, cleared by the next success; observable.
    public var lastError: (any DataConnectError)? { observation.lastError }

    /// Every result published from now on; one independent sequence per access **[ext]**.
    public var results: AsyncStream<OperationResult<ResultData>> { observation.results }

    /// Runs the query under `fetchPolicy` and publishes the result to ``data``.
    ///
    /// See ``QueryRefObservation/execute(fetchPolicy:)``.
    ///
    /// - Parameter fetchPolicy: Whether the cache may answer.
    /// - Returns: The decoded data, where it came from, and whether it is stale.
    /// - Throws: As ``QueryRefObservation/execute(fetchPolicy:)``; the error is also kept in ``lastError``.
    public func execute(fetchPolicy: QueryFetchPolicy) async throws -> OperationResult<ResultData> {
        try await observation.execute(fetchPolicy: fetchPolicy)
    }

    /// Subscribes to realtime updates of this query.
    ///
    /// Upstream returns a Combine `AnyPublisher`; here it is an `AsyncStream` of the same elements. See
    /// ``QueryRefObservation/subscribe()``.
    ///
    /// - Returns: A new sequence for this consumer.
    /// - Throws: ``DataConnectCodecError`` when the variables do not encode.
    public func subscribe() async throws -> AsyncStream<Result<OperationResult<ResultData>, AnyDataConnectError>> {
        try await observation.subscribe()
    }

    /// Refs are equal when their operation names and variables are.
    public static func == (lhs: QueryRefObservableObject, rhs: QueryRefObservableObject) -> Bool {
        lhs.observation == rhs.observation
    }

    /// Hashes the operation name and variables.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(observation)
    }
}
