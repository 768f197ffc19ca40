import DataConnectEngine
import DataConnectWire
import Dispatch
import EmulatorHTTP
import Foundation
import Synchronization

/// Realtime query subscriptions, served on the WebSocket stream
/// (``addSubscriber(connector:operationName:variables:auth:requestId:dataEtag:clientKey:sink:)``).
///
/// Each subscriber has a ``SubscriptionSink`` that frames its responses for its transport (one request of a stream
/// session); groups, etags and fan-out do not depend on it.
///
/// Subscribers of the same connector, query, canonical variables and caller identity share one *group*,
/// whose query runs once per change however many subscribers it has. What triggers a re-run:
/// - a committed mutation (connector, admin, seed, clear) that wrote a table the query reads
///   (``SubscriptionTarget/tables``; deletes count the tables their cascades touch);
/// - `@refresh(onMutationExecuted:)` naming the mutation, when its condition holds for the group;
/// - `@refresh(every:)`, on schedule (clamped to ``Configuration-swift.struct/minimumRefreshInterval``
///   and ``Configuration-swift.struct/maximumRefreshInterval``).
///
/// Re-runs happen on the hub's own queue, never on the thread of the mutation's request. The result's
/// bytes are hashed into an etag; subscribers get an event only when the etag changed, except that a
/// `@refresh(every:)` run that finds nothing changed still sends each subscriber a response with the unchanged
/// `dataEtag` and no `data`. Every registered heartbeat (``addHeartbeat(_:)``: a WebSocket's ping) runs once per
/// ``Configuration-swift.struct/heartbeatInterval``.
///
/// Heartbeats and `@refresh(every:)` are timers on the hub's ``EmulatorClock``: the wall clock by default, a
/// ``ManualClock`` in tests, which then advance time instead of waiting. ``waitUntilIdle()`` returns once every
/// re-run that was asked for has delivered its events.
///
/// The hub is a shell around a pure core: `HubState` holds the groups, subscribers, timers and pending work, and
/// `HubState.reduce(_:_:)` decides, for each `HubEvent` (a call, a change, a timer, a run's outcome), the
/// `HubEffect`s to do. The hub keeps that state under its lock with what only it can hold (the engine, the clock's
/// timer handles, the tasks waiting), prepares subscriptions and runs queries on the engine outside the lock, and
/// does the effects: writes to the sinks, sets the timers, tells the observer.
///
/// ```swift
/// let hub = SubscriptionHub(engine: engine)
/// let added = hub.addSubscriber(
///     connector: "movies", operationName: "ListMovies", variables: [:], auth: nil,
///     requestId: "1", dataEtag: nil, clientKey: "address:127.0.0.1", sink: sink)
/// // after a write outside the engine's responses:
/// hub.tablesChanged(engine.allTables)
/// ```
public final class SubscriptionHub: Sendable {
    /// Limits and timings of a hub.
    public struct Configuration: Sendable {
        /// How often the registered heartbeats run, e.g. each WebSocket's ping (default 15 s).
        public var heartbeatInterval: Duration
        /// The most live subscriptions per client, keyed by auth uid or else remote address (default 1,000).
        public var maximumSubscriptionsPerClient: Int
        /// The shortest `@refresh(every:)` honoured (default 10 s, as the reference says).
        public var minimumRefreshInterval: Duration
        /// The longest `@refresh(every:)` honoured (default 1 h).
        public var maximumRefreshInterval: Duration

        /// Creates a configuration; every argument has the documented default.
        public init(
            heartbeatInterval: Duration = .seconds(15), maximumSubscriptionsPerClient: Int = 1_000,
            minimumRefreshInterval: Duration = .seconds(10), maximumRefreshInterval: Duration = .seconds(3_600)
        ) {
            self.heartbeatInterval = heartbeatInterval
            self.maximumSubscriptionsPerClient = maximumSubscriptionsPerClient
            self.minimumRefreshInterval = minimumRefreshInterval
            self.maximumRefreshInterval = maximumRefreshInterval
        }
    }

    /// The configuration the hub runs with.
    public let configuration: Configuration

    /// Where the heartbeats and `@refresh(every:)` re-runs are scheduled.
    public let clock: any EmulatorClock

    /// The reducer's state and what only the shell can hold, under one lock.
    let state: Mutex<LockedState>
    /// Told about each change this process commits (for other processes serving from the same database).
    let changePublisher = Mutex<Callback<DataChange>?>(nil)
    let executions = Atomic<Int>(0)
    /// Told when groups come and go or change size, and when a group gets new data (the console's live view).
    let observer = Mutex<Callback<Observation>?>(nil)
    let fanOut = DispatchQueue(label: "SubscriptionHub.fanOut")

    /// A closure kept behind a lock, wrapped in a struct: a bare closure read out of `Mutex.withLock { $0 }` (an
    /// `inout` of a generic value) is re-abstracted and written back wrapped in two more thunks on every read, so
    /// each later call would walk a longer chain (one link per subscriber added, per push and per mutation).
    struct Callback<Argument>: Sendable {
        let call: @Sendable (Argument) -> Void
    }

    /// Where one subscriber's responses go, as the hub's state keeps it.
    struct Recipient: Sendable {
        let sink: any SubscriptionSink
        let requestID: String
        /// `{"requestId":"<id>",`: what each of its responses starts with.
        let prefix: [UInt8]
    }

    /// A registered heartbeat (``addHeartbeat(_:)``), in a struct for the reason ``Callback`` gives.
    struct Heartbeat: Sendable {
        let run: @Sendable () -> Void
    }

    /// The hub's core state, with the shell's recipients and heartbeats.
    typealias State = HubState<Recipient, Heartbeat>

    /// A subscriber of the hub, for ``removeSubscriber(_:)``, ``resume(_:dataEtag:)`` and ``cancel(_:reason:)``.
    public struct SubscriberID: Hashable, Sendable {
        let id: UInt64
        let key: String
    }

    /// A task suspended in ``waitUntilIdle()`` or ``waitUntilSubscriberCount(is:)``.
    struct Waiter {
        /// The subscriber count awaited; `nil` for idleness.
        let subscriberCount: Int?
        let continuation: CheckedContinuation<Void, Never>
    }

    /// What the hub's lock guards: the reducer's state, and what only the shell can hold.
    struct LockedState {
        var core: State
        /// The engine whose queries are subscribed to; replaced on reload.
        var engine: Engine
        /// The clock's handles of the groups' `@refresh(every:)` timers, by group id.
        var refreshTimers: [UInt64: ScheduledAction] = [:]
        var heartbeatTimer: ScheduledAction?
        var waiters: [Waiter] = []

        /// Removes the waiters whose condition now holds, to be resumed outside the lock.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            guard !waiters.isEmpty else { return [] }
            var satisfied: [CheckedContinuation<Void, Never>] = []
            let (idle, subscribers) = (core.isIdle, core.subscribers)
            waiters.removeAll { waiter in
                let holds = waiter.subscriberCount.map { $0 == subscribers } ?? idle
                if holds { satisfied.append(waiter.continuation) }
                return holds
            }
            return satisfied
        }
    }

    /// Creates a hub serving subscriptions of `engine`'s queries.
    ///
    /// - Parameters:
    ///   - engine: The engine whose queries are subscribed to.
    ///   - configuration: Limits and timings.
    ///   - clock: Where heartbeats and `@refresh(every:)` re-runs are scheduled; the wall clock by default.
    public init(engine: Engine, configuration: Configuration = Configuration(), clock: any EmulatorClock = LiveClock())
    {
        self.configuration = configuration
        self.clock = clock
        state = Mutex(LockedState(core: State(configuration: configuration), engine: engine))
        handle(.started)
    }

    deinit {
        state.withLock { state in
            state.heartbeatTimer?.cancel()
            for timer in state.refreshTimers.values { timer.cancel() }
        }
    }

    // MARK: Observability (tests and benchmarks)

    /// How many times a group's query has run (initial results and re-runs), since the hub was created.
    public var executionCount: Int { executions.load(ordering: .relaxed) }

    /// The number of live subscribers.
    public var subscriberCount: Int { state.withLock { $0.core.subscribers } }

    /// The number of groups (distinct query, variables and caller).
    public var groupCount: Int { state.withLock { $0.core.groups.count } }

    /// Returns once no re-run is asked for or running: every result the hub was asked to compute so far (initial
    /// results, re-runs after mutations, reloads and refreshes) has been written to its subscribers' streams.
    ///
    /// A subscription's initial result is asked for before ``addSubscriber(connector:operationName:variables:auth:requestId:dataEtag:clientKey:sink:)``
    /// returns, a mutation's re-runs before ``mutationExecuted(_:)`` returns, and a due refresh before the clock's
    /// action returns (``ManualClock/advance(by:)``), so awaiting this after any of them observes its events.
    public func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                if state.core.isIdle { return true }
                state.waiters.append(Waiter(subscriberCount: nil, continuation: continuation))
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Returns once exactly `count` subscribers are live, e.g. after a client closed its stream.
    ///
    /// - Parameter count: The number of live subscribers to wait for.
    public func waitUntilSubscriberCount(is count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state -> Bool in
                if state.core.subscribers == count { return true }
                state.waiters.append(Waiter(subscriberCount: count, continuation: continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    // MARK: Subscribing

    /// Checks a subscription and, when allowed, adds a subscriber whose responses go to `sink`.
    ///
    /// The checks are those of `:executeQuery` (operation, kind, `@auth`, variables), then the per-client limit
    /// (RESOURCE_EXHAUSTED) and whether the hub is stopping (UNAVAILABLE). The first result is on its way when
    /// this returns, unless the client's `dataEtag` is current.
    ///
    /// - Parameters:
    ///   - connector: The connector id.
    ///   - operationName: The query's name.
    ///   - variables: The variables as sent.
    ///   - auth: The caller; re-runs use it too.
    ///   - requestId: Echoed in every response.
    ///   - dataEtag: The etag of the result the client holds; the first result is skipped when it matches.
    ///   - clientKey: Whom the per-client limit counts against (auth uid, else the remote address).
    ///   - sink: Where the responses go.
    /// - Returns: The subscriber, or why it was refused.
    public func addSubscriber(
        connector: String, operationName: String, variables: JSONObject, auth: AuthContext?, requestId: String,
        dataEtag: String?, clientKey: String, sink: any SubscriptionSink
    ) -> Result<SubscriberID, RequestError> {
        let engine = state.withLock { $0.engine }
        let target: SubscriptionTarget
        switch engine.prepareSubscription(
            connector: connector, operationName: operationName, variables: variables, auth: auth)
        {
        case .refused(let response):
            return .failure(Self.refusal(response))
        case .ready(let ready):
            target = ready
        }
        let recipient = Recipient(sink: sink, requestID: requestId, prefix: Self.responsePrefix(requestId))
        let subscription = HubSubscription(
            target: target, auth: auth, recipient: recipient, clientKey: clientKey, knownEtag: dataEtag)
        guard case .subscribed(let added)? = handle(.subscribe(subscription)) else {
            preconditionFailure("the hub answers every subscription")
        }
        return added
    }

    /// The error a refused subscription (or a refused re-run) answers with.
    static func refusal(_ response: EngineResponse) -> RequestError {
        let body = (try? JSONValue(parsing: response.body)) ?? .null
        return (try? RequestError(json: body, httpStatus: response.status.httpStatus))
            ?? RequestError(status: response.status, message: "the subscription was refused")
    }

    /// Removes a subscriber without sending it anything (the client cancelled or went away). Does nothing for a
    /// subscriber that has already gone.
    public func removeSubscriber(_ subscriber: SubscriberID) {
        handle(.unsubscribe(subscriber))
    }

    /// Ends a subscriber with a last response carrying `cancelled: true` and a CANCELLED error saying `reason`.
    ///
    /// - Returns: Whether the subscriber was live.
    @discardableResult
    public func cancel(_ subscriber: SubscriberID, reason: String) -> Bool {
        cancel(subscriber, error: RequestError(status: .cancelled, message: reason))
    }

    /// Ends a subscriber with a last response carrying `cancelled: true` and `error`.
    ///
    /// - Returns: Whether the subscriber was live.
    @discardableResult
    public func cancel(_ subscriber: SubscriberID, error: RequestError) -> Bool {
        guard case .live(let live)? = handle(.cancel(subscriber, error)) else {
            preconditionFailure("the hub answers every cancellation")
        }
        return live
    }

    /// Sends a subscriber the current result again: re-runs its group's query and answers with the result, or,
    /// when `dataEtag` is current, with a response carrying that etag and no `data`.
    ///
    /// - Returns: Whether the subscriber was live.
    @discardableResult
    public func resume(_ subscriber: SubscriberID, dataEtag: String?) -> Bool {
        guard case .live(let live)? = handle(.resume(subscriber, knownEtag: dataEtag)) else {
            preconditionFailure("the hub answers every resume")
        }
        return live
    }

    /// Runs `action` once per heartbeat interval, until ``removeHeartbeat(_:)``; for transports whose sign of life
    /// is per connection (a WebSocket's ping) rather than per subscriber.
    ///
    /// - Returns: The registration, for ``removeHeartbeat(_:)``.
    public func addHeartbeat(_ action: @escaping @Sendable () -> Void) -> UInt64 {
        guard case .heartbeat(let registration)? = handle(.addHeartbeat(Heartbeat(run: action))) else {
            preconditionFailure("the hub answers every heartbeat registration")
        }
        return registration
    }

    /// Stops a heartbeat registered with ``addHeartbeat(_:)``.
    public func removeHeartbeat(_ registration: UInt64) {
        handle(.removeHeartbeat(registration))
    }

    // MARK: Changes

    /// Calls `publisher` with every change reported to the hub from now on (not with changes reported by
    /// ``changeCommittedElsewhere(_:)``): the emulator passes them to the other processes serving from its
    /// database.
    public func setChangePublisher(_ publisher: @escaping @Sendable (DataChange) -> Void) {
        let callback = Callback(call: publisher)
        changePublisher.withLock { $0 = callback }
    }

    /// Reports a change another process committed to the same database: subscriptions re-run as for a
    /// local one.
    public func changeCommittedElsewhere(_ change: DataChange) {
        handle(.changeCommitted(change, elsewhere: true))
    }

    /// Reports a committed mutation: groups reading its tables, and groups whose
    /// `@refresh(onMutationExecuted:)` names it, re-run (off the caller's thread).
    public func mutationExecuted(_ effect: MutationEffect) {
        handle(.changeCommitted(.mutation(effect), elsewhere: false))
    }

    /// Reports tables (GraphQL type names) written outside a mutation response (clear, import).
    public func tablesChanged(_ tables: Set<String>) {
        handle(.changeCommitted(.tables(tables), elsewhere: false))
    }

    /// Serves a reloaded engine: subscriptions whose query disappeared or changed, or that the new
    /// engine refuses, end with a `cancelled: true` event; the others re-run against the new engine.
    public func replaceEngine(_ engine: Engine) {
        let (effects, _) = reduce { state in
            state.engine = engine
            var kept: [String: SubscriptionTarget] = [:]
            for (key, group) in state.core.groups {
                let target = group.target
                if engine.operationFingerprint(connector: target.connector, operationName: target.operationName)
                    == target.fingerprint,
                    case .ready(let ready) = engine.prepareSubscription(
                        connector: target.connector, operationName: target.operationName,
                        variables: target.variables, auth: group.auth)
                {
                    kept[key] = ready
                }
            }
            return .engineReplaced(kept: kept)
        }
        perform(effects, engine: engine)
    }

    /// Ends every subscription with a `cancelled: true` event and refuses new ones.
    ///
    /// Returns once the streams have sent those last events, or after a second: the grace period bounds how long a
    /// client that reads nothing can hold the stop up. It is wall-clock time, not the hub's ``clock``, because it
    /// waits for sockets, and a stop must return even when no test advances a ``ManualClock``.
    public func shutdown() {
        let (effects, engine) = reduce { _ in .shutdown }
        let ended = DispatchGroup()
        perform(effects, engine: engine, ending: ended)
        // Let the server send those last events and end the responses before it closes the connections.
        _ = ended.wait(timeout: .now() + .seconds(1))
    }

    // MARK: Running the reducer

    /// Feeds the reducer `event` and does its effects.
    ///
    /// - Returns: The event's answer, when it is a request.
    @discardableResult
    func handle(_ event: State.Event) -> HubAnswer? {
        let (effects, engine) = reduce { _ in event }
        return perform(effects, engine: engine)
    }

    /// Feeds the reducer the event `makeEvent` returns, all under the lock: `makeEvent` may read and change what the
    /// lock guards (the engine, on reload). Sets and cancels the timers the reducer asked for there too, then resumes
    /// the waiters whose condition now holds.
    ///
    /// - Returns: The effects, to be done by ``perform(_:engine:result:ending:)``, and the engine of the moment.
    func reduce(_ makeEvent: (inout LockedState) -> State.Event) -> (effects: [State.Effect], engine: Engine) {
        let (effects, engine, satisfied) = state.withLock { state in
            let event = makeEvent(&state)
            let effects = State.reduce(&state.core, event)
            for effect in effects { setTimer(effect, in: &state) }
            return (effects, state.engine, state.satisfiedWaiters())
        }
        for continuation in satisfied { continuation.resume() }
        return (effects, engine)
    }

    /// Does a timer effect, under the lock (others are done by ``perform(_:engine:result:ending:)``).
    private func setTimer(_ effect: State.Effect, in state: inout LockedState) {
        switch effect {
        case .scheduleRefresh(let key, let group, let delay):
            state.refreshTimers[group] = clock.schedule(after: delay) { [weak self] in
                self?.handle(.refreshDue(key: key, group: group))
            }
        case .cancelRefresh(let group):
            state.refreshTimers.removeValue(forKey: group)?.cancel()
        case .scheduleHeartbeat(let delay):
            state.heartbeatTimer = clock.schedule(after: delay) { [weak self] in self?.handle(.heartbeatDue) }
        case .cancelHeartbeat:
            state.heartbeatTimer?.cancel()
            state.heartbeatTimer = nil
        default:
            break
        }
    }

    /// Does the effects other than timers, in order, outside the lock.
    ///
    /// - Parameters:
    ///   - effects: What ``reduce(_:)`` returned.
    ///   - engine: The engine to run queries on.
    ///   - result: The bytes of the result reported, for ``HubEffect/send(_:)`` (only ``HubEvent/resultReady(key:etag:isRefresh:time:)``
    ///     asks for one).
    ///   - ending: Entered for each subscriber ended, left once its transport let go of it.
    /// - Returns: The answer among the effects, if any.
    @discardableResult
    func perform(
        _ effects: [State.Effect], engine: Engine, result: [UInt8]? = nil, ending: DispatchGroup? = nil
    ) -> HubAnswer? {
        var answer: HubAnswer?
        for effect in effects {
            switch effect {
            case .answer(let reply):
                answer = reply
            case .startFanOut:
                fanOut.async { [self] in drain() }
            case .run(let runs):
                execute(runs, on: engine)
            case .send(let delivery):
                if let result { send(delivery, result: result) }
            case .end(let recipients, let error):
                for recipient in recipients {
                    if let ending {
                        ending.enter()
                        recipient.sink.whenEnded { ending.leave() }
                    }
                    Self.end(recipient, error: error)
                }
            case .beat(let heartbeats):
                for heartbeat in heartbeats { heartbeat.run() }
            case .publish(let change):
                changePublisher.withLock { $0 }?.call(change)
            case .observe(let observation):
                observe(observation)
            case .scheduleRefresh, .cancelRefresh, .scheduleHeartbeat, .cancelHeartbeat:
                break
            }
        }
        return answer
    }

    /// Sends a subscriber its last response, `cancelled: true` with `error`, and ends it.
    static func end(_ recipient: Recipient, error: RequestError) {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("requestId")
        writer.write(.string(recipient.requestID))
        writer.key("data")
        writer.null()
        writer.key("errors")
        writer.write(
            .array([
                .object([
                    "message": .string(error.message), "path": .array([]),
                    "extensions": ["code": .string(error.status.name)],
                ])
            ]))
        writer.key("extensions")
        writer.write(["dataConnect": .array([])])
        writer.key("cancelled")
        writer.write(.bool(true))
        writer.endObject()
        recipient.sink.finish(with: writer.bytes)
    }
}
