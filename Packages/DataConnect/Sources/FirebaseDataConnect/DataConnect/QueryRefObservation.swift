import DataConnectCache
import DataConnectWire
import Foundation
import Observation
import Synchronization

/// A query bound to its variables whose latest result is observable with Observation and as an async sequence.
///
/// ``DataConnect`` hands out one ref per operation name and variables, so every screen showing the same query
/// shares ``data``. A successful execution sets ``data`` and ``source``, clears ``lastError`` and publishes the
/// result to every ``results`` consumer; a failed one sets ``lastError`` and keeps ``data``. Unlike upstream, the
/// ref is `Sendable` and may be executed from any actor (upstream's `execute` and `subscribe()` are
/// `@MainActor`; calling them from the main actor works the same here).
///
/// It is also the shared core of ``QueryRefObservableObject``, which `publisher: .observableObject` returns:
/// both kinds of ref for one operation name and variables read and publish the same state.
///
/// ```swift
/// let ref = dataConnect.query(
///     name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
/// Task { for await result in ref.results { print(result.data?.movies.count ?? 0) } }
/// _ = try await ref.execute()
/// ```
@Observable
public final class QueryRefObservation<ResultData: Decodable & Sendable, Variable: OperationVariable>:
    ObservableQueryRef, Sendable
{
    private struct State {
        var data: ResultData?
        var source: DataSource?
        var lastError: (any DataConnectError)?
        var consumers: [Int: AsyncStream<OperationResult<ResultData>>.Continuation] = [:]
        var nextConsumerID = 0
        /// The last cached result decoded: the cache it came from, its version and the decoded data.
        var decoded: (cache: ObjectIdentifier, version: UInt64, data: ResultData)?
    }

    /// The operation name.
    @ObservationIgnored public let operationName: String
    /// The variables sent with each execution.
    @ObservationIgnored public let variables: Variable
    @ObservationIgnored let dataConnect: DataConnect
    @ObservationIgnored let encodedVariables: Result<JSONObject, DataConnectCodecError>
    @ObservationIgnored let key: OperationKey
    /// The query's identity in the client cache.
    @ObservationIgnored let cacheKey: QueryKey
    @ObservationIgnored private let state = Mutex(State())
    /// The realtime subscription shared by every ``subscribe()`` consumer of this ref.
    @ObservationIgnored let realtime = Mutex(RealtimeState<ResultData>())
    /// The ``QueryRefObservableObject`` over this ref, while someone holds it.
    @ObservationIgnored private let observableObjectFlavour = Mutex(WeakObject())

    init(dataConnect: DataConnect, operationName: String, variables: Variable) {
        self.dataConnect = dataConnect
        self.operationName = operationName
        self.variables = variables
        encodedVariables = OperationCodec.encode(variables)
        key = OperationCodec.key(operationName, encodedVariables)
        cacheKey = QueryKey(operationName, encodedVariables)
    }

    /// The ``QueryRefObservableObject`` over this ref: the one alive, or a new one.
    func observableObject() -> QueryRefObservableObject<ResultData, Variable> {
        observableObjectFlavour.withLock { slot in
            if let existing = slot.object as? QueryRefObservableObject<ResultData, Variable> { return existing }
            let created = QueryRefObservableObject(observation: self)
            slot.object = created
            return created
        }
    }

    /// Registers the ref as observed: the cache keeps its result through eviction while the ref lives.
    func startObserving() {
        dataConnect.cache?.pin(cacheKey)
    }

    deinit {
        let consumers = state.withLock { $0.consumers.values }
        for consumer in consumers { consumer.finish() }
        dataConnect.cache?.unpin(cacheKey)
        realtime.withLock { $0.loop?.cancel() }
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

    /// Runs the query under `fetchPolicy` and publishes the result to ``data`` and ``results``.
    ///
    /// With cache settings on the ``DataConnect`` instance:
    /// - `.preferCache` answers from a fresh cached result, else from the server;
    /// - `.cacheOnly` answers from the cache, stale allowed (`isStale` set), and never sends a request; a miss is
    ///   `OperationResult(data: nil, source: .cache)`, not an error, and changes nothing on the ref;
    /// - `.serverOnly` always asks the server;
    /// - `.staleIfOffline` is `.preferCache`, but returns stale cached data when the server cannot be reached.
    ///
    /// A server result is written to the signed-in user's cache, and other live refs whose cached result it
    /// changed are republished. Without cache settings every policy but `.cacheOnly` asks the server.
    ///
    /// - Parameter fetchPolicy: Whether the cache may answer.
    /// - Returns: The decoded data, where it came from, and whether it is stale.
    /// - Throws: ``DataConnectOperationError`` when the server reported errors (with any partial data),
    ///   ``DataConnectConnectionError`` when the service could not be reached, ``DataConnectServerError`` when it
    ///   refused the request, ``DataConnectCodecError`` when the variables do not encode or the data does not
    ///   decode. The error is also kept in ``lastError``, and logged at `debug` level only.
    public func execute(fetchPolicy: QueryFetchPolicy) async throws -> OperationResult<ResultData> {
        let engine = dataConnect.cache == nil ? nil : dataConnect.cacheEngine(uid: await dataConnect.currentUID())
        switch fetchPolicy {
        case .cacheOnly:
            guard let engine, let result = cachedResult(in: engine, allowStale: true) else {
                return OperationResult(data: nil, source: .cache)
            }
            publish(result)
            return result
        case .preferCache, .staleIfOffline:
            if let engine, let result = cachedResult(in: engine, allowStale: false) {
                logger.log(.debug, "\(operationName): answered by the cache")
                publish(result)
                return result
            }
        case .serverOnly:
            break
        }
        do {
            return try await executeOnServer()
        } catch  where fetchPolicy == .staleIfOffline && Self.isUnreachable(error) {
            if let engine, let result = cachedResult(in: engine, allowStale: true) {
                logger.log(.notice, "\(operationName): the server is unreachable, answering from the cache (\(error))")
                publish(result)
                return result
            }
            // Thrown to the caller, who decides whether it is worth a warning: logged for debugging only.
            logger.log(.debug, "\(operationName) failed, and nothing is cached: \(error)")
            record(error)
            throw error
        } catch {
            logger.log(.debug, "\(operationName) failed: \(error)")
            record(error)
            throw error
        }
    }

    /// Asks the server, caches and publishes the result.
    private func executeOnServer() async throws -> OperationResult<ResultData> {
        let (response, uid) = try await dataConnect.send(
            .query, operationName: operationName, variables: encodedVariables)
        let data = try OperationCodec.decode(response, as: ResultData.self)
        if dataConnect.cache != nil, let engine = dataConnect.cacheEngine(uid: uid),
            case .object(let object)? = response.data,
            let update = try? engine.write(
                query: cacheKey, response: object, properties: response.extensions.dataConnect)
        {
            dataConnect.propagate(update, in: engine, from: key)
        }
        let result = OperationResult(data: data, source: .server)
        logger.log(.debug, "\(operationName): answered by the server")
        publish(result)
        return result
    }

    private var logger: DataConnectLogger { dataConnect.logger }

    /// The cached result decoded, or `nil` on a miss, a stale result when `allowStale` is false, or data that no
    /// longer decodes.
    ///
    /// A result read again with the version it was decoded at is not decoded again.
    func cachedResult(in engine: NormalizedCache, allowStale: Bool) -> OperationResult<ResultData>? {
        guard let cached = try? engine.read(query: cacheKey, allowStale: allowStale) else { return nil }
        let cache = ObjectIdentifier(engine)
        let data: ResultData
        if let decoded = state.withLock({ $0.decoded }), decoded.cache == cache, decoded.version == cached.version {
            data = decoded.data
        } else {
            guard let fresh = try? JSONValueDecoder().decode(ResultData.self, from: .object(cached.data)) else {
                return nil
            }
            data = fresh
            state.withLock { $0.decoded = (cache, cached.version, fresh) }
        }
        return OperationResult(data: data, source: .cache, isStale: cached.isStale, cachedAt: cached.cachedAt)
    }

    func record(_ error: any Error) {
        guard let error = error as? any DataConnectError else { return }
        withMutation(keyPath: \.lastError) {
            state.withLock { $0.lastError = error }
        }
    }

    func publish(_ result: OperationResult<ResultData>) {
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

extension QueryRefObservation: CacheObservingRef {
    func refreshFromCache(_ engine: NormalizedCache) {
        guard let result = cachedResult(in: engine, allowStale: true) else { return }
        publish(result)
    }

    var isSubscribed: Bool {
        realtime.withLock { $0.loop != nil }
    }

    func refetchFromServer() async {
        do {
            _ = try await executeOnServer()
        } catch {
            record(error)
        }
    }
}

/// A weak reference, kept under a lock.
struct WeakObject {
    /// The object, while someone else holds it.
    weak var object: AnyObject?
}

/// A live query ref the cache can republish or refetch, whatever its data type.
protocol CacheObservingRef: AnyObject, Sendable {
    /// The query's identity in the client cache.
    var cacheKey: QueryKey { get }
    /// Publishes the query's cached result again, after a write changed it.
    func refreshFromCache(_ engine: NormalizedCache)
    /// Whether a realtime subscription keeps the query current: the server pushes what a mutation changes (and
    /// a reconnect resumes from the last result), so a mutation does not refetch it.
    var isSubscribed: Bool { get }
    /// Executes the query on the server again, after a mutation made its cached result stale.
    func refetchFromServer() async
}

extension QueryRefObservation {
    /// Whether `error` says the server could not be reached at all: no response, or a gateway's 502, 503 or 504.
    static func isUnreachable(_ error: any Error) -> Bool {
        if error is DataConnectConnectionError { return true }
        guard let error = error as? DataConnectServerError else { return false }
        return [502, 503, 504].contains(error.httpStatus ?? 0)
    }
}
