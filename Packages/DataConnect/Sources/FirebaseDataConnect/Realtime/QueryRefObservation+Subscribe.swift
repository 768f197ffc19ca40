import DataConnectCache
import DataConnectWire
import Foundation

/// The realtime side of one query ref: its local consumers and the loop that keeps one server subscription.
struct RealtimeState<ResultData: Decodable & Sendable>: Sendable {
    typealias Element = Result<OperationResult<ResultData>, AnyDataConnectError>

    var consumers: [Int: AsyncStream<Element>.Continuation] = [:]
    var nextConsumerID = 0
    /// The loop holding the server subscription while anyone consumes.
    var loop: Task<Void, Never>?
    /// The current connection, cancelled to reconnect at once (after a sign-in change).
    var connection: Task<ConnectionOutcome, Never>?
    /// Set when ``connection`` was cancelled to reconnect rather than to stop.
    var restartRequested = false
    /// The etag of the last result received, sent on reconnect so an unchanged result is not sent again.
    var lastEtag: String?
    /// The last response with data, delivered again when the server answers "unchanged" (the same etag, no data).
    var lastResponse: GraphQLResponse?
}

/// How one connection of a subscription ended.
enum ConnectionOutcome: Sendable {
    /// The server closed the stream without cancelling; reconnect.
    case closed(receivedAny: Bool)
    /// The connection failed in a way worth retrying.
    case failed(receivedAny: Bool)
    /// The subscription is over: the server cancelled it or refused it; consumers were told.
    case ended
    /// The consumers went away, or a restart was requested.
    case interrupted

    /// What happened, for log lines: `was closed by the server`, `failed`, ….
    var logDescription: String {
        switch self {
        case .closed: "was closed by the server"
        case .failed: "failed"
        case .ended: "ended"
        case .interrupted: "was interrupted"
        }
    }
}

/// How a subscription reconnects after a dropped connection: exponential backoff with jitter.
struct ReconnectPolicy: Sendable {
    /// The first delay, in seconds.
    var initialDelay: Double = 1
    /// The growth of each further delay.
    var multiplier: Double = 1.3
    /// The longest delay, in seconds.
    var maximumDelay: Double = 30
    /// The random factor range applied to each delay.
    var jitter: ClosedRange<Double> = 0.9...1.1

    /// The delay before reconnect attempt `attempt` (0 for the first), in seconds.
    func delay(attempt: Int, random: Double = Double.random(in: 0...1)) -> Double {
        let base = min(maximumDelay, initialDelay * pow(multiplier, Double(attempt)))
        return base * (jitter.lowerBound + (jitter.upperBound - jitter.lowerBound) * random)
    }
}

extension QueryRefObservation {
    /// Subscribes to realtime updates of this query **[ext]**.
    ///
    /// The sequence yields the cached result first (when there is one, stale allowed), then every result the
    /// server pushes: the emulator pushes whenever a committed mutation changes what this query returns, and on
    /// `@refresh` rules. Each push also updates ``data`` and the client cache. Every consumer of this ref, and
    /// every `subscribe()` call, shares one server subscription. A dropped connection is retried with backoff
    /// (1 s growing by 1.3x to 30 s, with jitter) and resumes after a server restart; a sign-in change
    /// reconnects with the new token. A refusal (bad variables, access denied) or a server-side cancellation
    /// yields one `.failure` and ends the sequence. Cancelling the consuming task ends the consumer; when the
    /// last one goes, the server subscription is closed.
    ///
    /// ```swift
    /// let ref = DataConnect.moviesConnector.listMoviesByGenreQuery.ref(genre: "Sci-Fi")
    /// for await update in try await ref.subscribe() {
    ///     switch update {
    ///     case .success(let result): print(result.data?.movies.count ?? 0)
    ///     case .failure(let error): print("subscription ended:", error)
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: A new sequence for this consumer.
    /// - Throws: ``DataConnectCodecError`` when the variables do not encode.
    public func subscribe() async throws -> AsyncStream<Result<OperationResult<ResultData>, AnyDataConnectError>> {
        _ = try encodedVariables.get()
        let cached: OperationResult<ResultData>?
        if dataConnect.cache != nil, let engine = dataConnect.cacheEngine(uid: await dataConnect.currentUID()) {
            cached = cachedResult(in: engine, allowStale: true)
        } else {
            cached = nil
        }
        let (stream, continuation) = AsyncStream.makeStream(
            of: RealtimeState<ResultData>.Element.self, bufferingPolicy: .unbounded)
        if let cached { continuation.yield(.success(cached)) }
        let id = realtime.withLock { state -> Int in
            let id = state.nextConsumerID
            state.nextConsumerID += 1
            state.consumers[id] = continuation
            if state.loop == nil {
                // The loop keeps the ref alive while anyone consumes, even if the app dropped the ref itself
                // (`connector.listMoviesQuery.ref().subscribe()`); it ends when the last consumer goes.
                state.loop = Task { await self.runSubscription() }
            }
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.removeConsumer(id) }
        return stream
    }

    /// How many consumers share the server subscription (for tests).
    var subscriberCount: Int {
        realtime.withLock { $0.consumers.count }
    }

    /// Reconnects at once, for example with a new user's token.
    func restartSubscription() {
        realtime.withLock { state in
            guard state.loop != nil, let connection = state.connection else { return }
            state.restartRequested = true
            state.lastEtag = nil
            state.lastResponse = nil
            connection.cancel()
        }
    }

    private func removeConsumer(_ id: Int) {
        realtime.withLock { state in
            state.consumers[id] = nil
            if state.consumers.isEmpty {
                state.loop?.cancel()
                state.connection?.cancel()
                state.loop = nil
                state.connection = nil
            }
        }
    }

    private func finishConsumers(with error: (any Error)?) {
        let consumers = realtime.withLock { state -> [AsyncStream<RealtimeState<ResultData>.Element>.Continuation] in
            let all = Array(state.consumers.values)
            state.consumers.removeAll()
            state.loop = nil
            state.connection = nil
            return all
        }
        for consumer in consumers {
            if let error { consumer.yield(.failure(AnyDataConnectError(dataConnectError: Self.wrap(error)))) }
            consumer.finish()
        }
    }

    private static func wrap(_ error: any Error) -> any DataConnectError {
        if let error = error as? any DataConnectError { return error }
        if let error = error as? TransportError { return error.dataConnectError }
        return DataConnectConnectionError(
            code: .unavailable, message: String(describing: error), underlyingError: error)
    }

    /// Keeps one server subscription open while anyone consumes, reconnecting with backoff.
    private func runSubscription() async {
        var attempt = 0
        while !Task.isCancelled {
            let (request, uid) = await dataConnect.subscriptionRequest(
                operationName: operationName, variables: encodedVariables)
            guard let request else {
                finishConsumers(with: DataConnectServerError(.authentication("no auth token could be obtained")))
                return
            }
            let etag = realtime.withLock { $0.lastEtag }
            let stream = dataConnect.resolveSubscriptionTransport().subscribe(request, dataEtag: etag)
            let connection = Task { await self.consume(stream, uid: uid) }
            realtime.withLock { $0.connection = connection }
            let outcome = await connection.value
            let restart = realtime.withLock { state -> Bool in
                defer { state.restartRequested = false }
                return state.restartRequested
            }
            if Task.isCancelled { return }
            switch outcome {
            case .ended:
                return
            case .interrupted:
                if restart {
                    attempt = 0
                    continue
                }
                return
            case .closed(let receivedAny), .failed(let receivedAny):
                if restart {
                    attempt = 0
                    continue
                }
                if receivedAny { attempt = 0 }
                let delay = dataConnect.reconnectPolicy.delay(attempt: attempt)
                attempt += 1
                dataConnect.logger.log(
                    .debug,
                    "subscription to \(operationName) \(outcome.logDescription); reconnecting in "
                        + "\(Int(delay * 1000)) ms (attempt \(attempt))")
                try? await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            }
        }
    }

    /// Reads one connection until it ends; delivers each result to the cache, the ref and the consumers.
    private func consume(
        _ stream: AsyncThrowingStream<StreamMessage, any Error>, uid: String?
    ) async
        -> ConnectionOutcome
    {
        var receivedAny = false
        do {
            for try await message in stream {
                receivedAny = true
                if message.cancelled {
                    // The code a new request would get (PERMISSION_DENIED once a needed claim is gone), else CANCELLED.
                    let error = message.response.errors.first
                    let reason = error?.message ?? "the server cancelled the subscription"
                    let code = error?.extensions?.code.map(DataConnectServerError.Code.init) ?? .cancelled
                    finishConsumers(with: DataConnectServerError(code: code, message: reason, httpStatus: nil))
                    return .ended
                }
                deliver(message, uid: uid)
            }
            return Task.isCancelled ? .interrupted : .closed(receivedAny: receivedAny)
        } catch {
            if Task.isCancelled { return .interrupted }
            if case .server(_, let httpStatus)? = error as? TransportError, (400..<500).contains(httpStatus),
                httpStatus != 408, httpStatus != 429
            {
                finishConsumers(with: error)
                return .ended
            }
            record(Self.wrap(error))
            return .failed(receivedAny: receivedAny)
        }
    }

    /// Delivers one pushed result to the cache, the ref and the consumers.
    ///
    /// A response with the etag of the last result and no data means "unchanged": the last result is delivered
    /// again, so every push (a `@refresh(every:)` tick included) reaches the consumers with data.
    private func deliver(_ message: StreamMessage, uid: String?) {
        let (response, unchanged) = realtime.withLock { state -> (GraphQLResponse, Bool) in
            let hasData = !(message.response.data?.isNull ?? true)
            if !hasData, message.response.errors.isEmpty, let etag = message.dataEtag, etag == state.lastEtag,
                let last = state.lastResponse
            {
                return (last, true)
            }
            state.lastEtag = message.dataEtag
            if hasData { state.lastResponse = message.response }
            return (message.response, false)
        }
        let element: RealtimeState<ResultData>.Element
        do {
            let data = try OperationCodec.decode(response, as: ResultData.self)
            if !unchanged, dataConnect.cache != nil, let engine = dataConnect.cacheEngine(uid: uid),
                case .object(let object)? = message.response.data,
                let update = try? engine.write(
                    query: cacheKey, response: object, properties: message.response.extensions.dataConnect)
            {
                dataConnect.propagate(update, in: engine, from: key)
            }
            let result = OperationResult(data: data, source: .server)
            publish(result)
            element = .success(result)
        } catch {
            record(error)
            element = .failure(AnyDataConnectError(dataConnectError: Self.wrap(error)))
        }
        for consumer in realtime.withLock({ Array($0.consumers.values) }) { consumer.yield(element) }
    }
}

/// A live ref with a realtime subscription, whatever its data type.
protocol RealtimeRef: AnyObject, Sendable {
    /// Reconnects its subscription at once, if it has one.
    func restartSubscription()
}

extension QueryRefObservation: RealtimeRef {}
