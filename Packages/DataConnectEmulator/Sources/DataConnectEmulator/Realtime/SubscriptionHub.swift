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

    let state: Mutex<State>
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

    struct Subscriber {
        let sink: any SubscriptionSink
        let requestID: String
        /// `{"requestId":"<id>",`: what each of its responses starts with.
        let prefix: [UInt8]
        let clientKey: String
        /// What the subscriber waits for besides changes: its first result, or a resumed one.
        var pending: Pending?
    }

    /// A result a subscriber asked for, with the etag it already holds.
    enum Pending: Equatable {
        /// The first result: skipped when the client's etag is current.
        case initial(knownEtag: String?)
        /// A resume: answered without `data` when the client's etag is current.
        case resume(knownEtag: String?)
    }

    /// A subscriber of the hub, for ``removeSubscriber(_:)``, ``resume(_:dataEtag:)`` and ``cancel(_:reason:)``.
    public struct SubscriberID: Hashable, Sendable {
        let id: UInt64
        let key: String
    }

    struct Group {
        /// Tells this group's timers from those of an earlier group under the same key.
        let id: UInt64
        var target: SubscriptionTarget
        let auth: AuthContext?
        var subscribers: [UInt64: Subscriber] = [:]
        /// The subscribers waiting for a first result or a resume, in the order they asked (an id may repeat, or
        /// name a subscriber gone since): a run that finds the result unchanged answers only these.
        var pendingIDs: [UInt64] = []
        var lastEtag: String?
        /// The next `@refresh(every:)` re-run, while the query has one.
        var refresh: ScheduledAction?
        /// How many times new data went out to the group, and when last.
        var pushes = 0
        var lastPush: Date?
    }

    /// A task suspended in ``waitUntilIdle()`` or ``waitUntilSubscriberCount(is:)``.
    struct Waiter {
        /// The subscriber count awaited; `nil` for idleness.
        let subscriberCount: Int?
        let continuation: CheckedContinuation<Void, Never>
    }

    struct State {
        var engine: Engine
        var groups: [String: Group] = [:]
        var clients: [String: Int] = [:]
        var nextID: UInt64 = 1
        var pendingTables: Set<String> = []
        var pendingMutations: [MutationEffect] = []
        var pendingGroups: Set<String> = []
        /// Groups whose `@refresh(every:)` is due: they answer even when nothing changed.
        var pendingRefreshes: Set<String> = []
        var heartbeats: [UInt64: @Sendable () -> Void] = [:]
        var draining = false
        var closed = false
        var subscribers = 0
        var heartbeat: ScheduledAction?
        var waiters: [Waiter] = []

        /// Whether no re-run is asked for or running.
        var isIdle: Bool {
            !draining && (closed || (pendingTables.isEmpty && pendingMutations.isEmpty && pendingGroups.isEmpty))
        }

        /// Removes the waiters whose condition now holds, to be resumed outside the lock.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            guard !waiters.isEmpty else { return [] }
            var satisfied: [CheckedContinuation<Void, Never>] = []
            let (idle, subscribers) = (isIdle, subscribers)
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
        state = Mutex(State(engine: engine))
        state.withLock { $0.heartbeat = scheduleHeartbeat() }
    }

    deinit {
        state.withLock { state in
            state.heartbeat?.cancel()
            for group in state.groups.values { group.refresh?.cancel() }
        }
    }

    // MARK: Observability (tests and benchmarks)

    /// How many times a group's query has run (initial results and re-runs), since the hub was created.
    public var executionCount: Int { executions.load(ordering: .relaxed) }

    /// The number of live subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers } }

    /// The number of groups (distinct query, variables and caller).
    public var groupCount: Int { state.withLock { $0.groups.count } }

    /// Returns once no re-run is asked for or running: every result the hub was asked to compute so far (initial
    /// results, re-runs after mutations, reloads and refreshes) has been written to its subscribers' streams.
    ///
    /// A subscription's initial result is asked for before ``addSubscriber(connector:operationName:variables:auth:requestId:dataEtag:clientKey:sink:)``
    /// returns, a mutation's re-runs before ``mutationExecuted(_:)`` returns, and a due refresh before the clock's
    /// action returns (``ManualClock/advance(by:)``), so awaiting this after any of them observes its events.
    public func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                if state.isIdle { return true }
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
                if state.subscribers == count { return true }
                state.waiters.append(Waiter(subscriberCount: count, continuation: continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Runs `body` on the locked state, then resumes the waiters whose condition it made true.
    func update<T>(_ body: (inout State) -> T) -> T {
        let (result, satisfied, resized) = state.withLock { state in
            let before = (state.subscribers, state.groups.count)
            let result = body(&state)
            return (result, state.satisfiedWaiters(), before != (state.subscribers, state.groups.count))
        }
        for continuation in satisfied { continuation.resume() }
        if resized { observe(.groupsChanged) }
        return result
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
        let key = Self.groupKey(target, auth: auth)
        let limit = configuration.maximumSubscriptionsPerClient
        let added = update { state -> Result<SubscriberID, RequestError> in
            if state.closed { return .failure(RequestError(status: .unavailable, message: "the emulator is stopping")) }
            let count = state.clients[clientKey, default: 0]
            if count >= limit {
                return .failure(
                    RequestError(
                        status: .resourceExhausted,
                        message:
                            "too many live subscriptions for this client: the limit is \(limit) (maximumSubscriptionsPerClient)"
                    ))
            }
            state.clients[clientKey] = count + 1
            state.subscribers += 1
            let subscriber = Subscriber(
                sink: sink, requestID: requestId, prefix: Self.responsePrefix(requestId), clientKey: clientKey,
                pending: .initial(knownEtag: dataEtag))
            return .success(join(subscriber, key: key, target: target, auth: auth, in: &state))
        }
        if case .success = added { scheduleDrain() }
        return added
    }

    /// The error a refused subscription (or a refused re-run) answers with.
    static func refusal(_ response: EngineResponse) -> RequestError {
        let body = (try? JSONValue(parsing: response.body)) ?? .null
        return (try? RequestError(json: body, httpStatus: response.status.httpStatus))
            ?? RequestError(status: response.status, message: "the subscription was refused")
    }

    /// Adds a subscriber (already counted for its client) to the group of `key`, made when it is the first, and
    /// asks for its pending result.
    func join(
        _ subscriber: Subscriber, key: String, target: SubscriptionTarget, auth: AuthContext?, in state: inout State
    ) -> SubscriberID {
        let id = state.nextID
        state.nextID += 1
        if state.groups[key] == nil {
            var group = Group(id: id, target: target, auth: auth)
            if let every = target.refresh.every {
                group.refresh = scheduleRefresh(key, group: id, after: clampedRefresh(every))
            }
            state.groups[key] = group
        }
        // In place: a copy of the group would copy its subscribers, once per subscriber joining.
        state.groups[key]!.subscribers[id] = subscriber
        state.groups[key]!.pendingIDs.append(id)
        state.pendingGroups.insert(key)
        return SubscriberID(id: id, key: key)
    }

    /// Removes a subscriber without sending it anything (the client cancelled or went away). Does nothing for a
    /// subscriber that has already gone.
    public func removeSubscriber(_ subscriber: SubscriberID) {
        remove(subscriber.id, from: subscriber.key)
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
        let removed = update { state in Self.removeSubscriber(subscriber.id, from: subscriber.key, in: &state) }
        guard let removed else { return false }
        Self.cancel(removed, error: error)
        return true
    }

    /// Sends a subscriber the current result again: re-runs its group's query and answers with the result, or,
    /// when `dataEtag` is current, with a response carrying that etag and no `data`.
    ///
    /// - Returns: Whether the subscriber was live.
    @discardableResult
    public func resume(_ subscriber: SubscriberID, dataEtag: String?) -> Bool {
        let live = update { state -> Bool in
            guard state.groups[subscriber.key]?.subscribers[subscriber.id] != nil else { return false }
            state.groups[subscriber.key]?.subscribers[subscriber.id]?.pending = .resume(knownEtag: dataEtag)
            state.groups[subscriber.key]?.pendingIDs.append(subscriber.id)
            state.pendingGroups.insert(subscriber.key)
            return true
        }
        if live { scheduleDrain() }
        return live
    }

    /// Runs `action` once per heartbeat interval, until ``removeHeartbeat(_:)``; for transports whose sign of life
    /// is per connection (a WebSocket's ping) rather than per subscriber.
    ///
    /// - Returns: The registration, for ``removeHeartbeat(_:)``.
    public func addHeartbeat(_ action: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.heartbeats[id] = action
            return id
        }
    }

    /// Stops a heartbeat registered with ``addHeartbeat(_:)``.
    public func removeHeartbeat(_ registration: UInt64) {
        _ = state.withLock { $0.heartbeats.removeValue(forKey: registration) }
    }

    func clampedRefresh(_ every: Duration) -> Duration {
        min(max(every, configuration.minimumRefreshInterval), configuration.maximumRefreshInterval)
    }

    func remove(_ id: UInt64, from key: String) {
        update { state in _ = Self.removeSubscriber(id, from: key, in: &state) }
    }

    /// Takes a subscriber out of its group (in place: a copy of the group would copy its other subscribers) and
    /// releases it, dropping the group when it was the last; `nil` when it had gone already.
    static func removeSubscriber(_ id: UInt64, from key: String, in state: inout State) -> Subscriber? {
        guard let subscriber = state.groups[key]?.subscribers.removeValue(forKey: id) else { return nil }
        release(subscriber.clientKey, in: &state)
        if state.groups[key]?.subscribers.isEmpty ?? false {
            removeGroup(key, in: &state)
        }
        return subscriber
    }

    static func release(_ clientKey: String, in state: inout State) {
        let remaining = state.clients[clientKey, default: 1] - 1
        state.clients[clientKey] = remaining > 0 ? remaining : nil
        state.subscribers -= 1
    }

    /// Drops a group and its refresh timer; its subscribers must have been released.
    @discardableResult
    static func removeGroup(_ key: String, in state: inout State) -> Group? {
        let group = state.groups.removeValue(forKey: key)
        group?.refresh?.cancel()
        return group
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
        switch change {
        case .mutation(let effect): schedule(effect)
        case .tables(let tables): schedule(tables)
        }
    }

    /// Reports a committed mutation: groups reading its tables, and groups whose
    /// `@refresh(onMutationExecuted:)` names it, re-run (off the caller's thread).
    public func mutationExecuted(_ effect: MutationEffect) {
        changePublisher.withLock { $0 }?.call(.mutation(effect))
        schedule(effect)
    }

    func schedule(_ effect: MutationEffect) {
        let hasGroups = state.withLock { state -> Bool in
            guard !state.groups.isEmpty else { return false }
            state.pendingTables.formUnion(effect.tables)
            state.pendingMutations.append(effect)
            return true
        }
        if hasGroups { scheduleDrain() }
    }

    /// Reports tables (GraphQL type names) written outside a mutation response (clear, import).
    public func tablesChanged(_ tables: Set<String>) {
        changePublisher.withLock { $0 }?.call(.tables(tables))
        schedule(tables)
    }

    func schedule(_ tables: Set<String>) {
        let hasGroups = state.withLock { state -> Bool in
            guard !state.groups.isEmpty else { return false }
            state.pendingTables.formUnion(tables)
            return true
        }
        if hasGroups { scheduleDrain() }
    }

    /// Serves a reloaded engine: subscriptions whose query disappeared or changed, or that the new
    /// engine refuses, end with a `cancelled: true` event; the others re-run against the new engine.
    public func replaceEngine(_ engine: Engine) {
        var cancelled: [Subscriber] = []
        update { state in
            state.engine = engine
            for (key, group) in state.groups {
                let target = group.target
                var replacement: SubscriptionTarget?
                if engine.operationFingerprint(connector: target.connector, operationName: target.operationName)
                    == target.fingerprint,
                    case .ready(let ready) = engine.prepareSubscription(
                        connector: target.connector, operationName: target.operationName,
                        variables: target.variables, auth: group.auth)
                {
                    replacement = ready
                }
                if let replacement {
                    state.groups[key]?.target = replacement
                    state.pendingGroups.insert(key)
                } else {
                    for subscriber in group.subscribers.values {
                        Self.release(subscriber.clientKey, in: &state)
                        cancelled.append(subscriber)
                    }
                    Self.removeGroup(key, in: &state)
                }
            }
        }
        for subscriber in cancelled {
            Self.cancel(subscriber, reason: "the operation changed or was removed on reload")
        }
        scheduleDrain()
    }

    /// Ends every subscription with a `cancelled: true` event and refuses new ones.
    ///
    /// Returns once the streams have sent those last events, or after a second: the grace period bounds how long a
    /// client that reads nothing can hold the stop up. It is wall-clock time, not the hub's ``clock``, because it
    /// waits for sockets, and a stop must return even when no test advances a ``ManualClock``.
    public func shutdown() {
        let subscribers = update { state -> [Subscriber] in
            state.closed = true
            state.heartbeat?.cancel()
            state.heartbeat = nil
            let all = state.groups.values.flatMap { $0.subscribers.values }
            for group in state.groups.values { group.refresh?.cancel() }
            state.groups = [:]
            state.clients = [:]
            state.subscribers = 0
            state.heartbeats = [:]
            return all
        }
        let ended = DispatchGroup()
        for subscriber in subscribers {
            ended.enter()
            subscriber.sink.whenEnded { ended.leave() }
            Self.cancel(subscriber, reason: "the emulator is stopping")
        }
        // Let the server send those last events and end the responses before it closes the connections.
        _ = ended.wait(timeout: .now() + .seconds(1))
    }

    static func cancel(_ subscriber: Subscriber, reason: String) {
        cancel(subscriber, error: RequestError(status: .cancelled, message: reason))
    }

    /// Sends a subscriber its last response, `cancelled: true` with `error`, and ends it.
    static func cancel(_ subscriber: Subscriber, error: RequestError) {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("requestId")
        writer.write(.string(subscriber.requestID))
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
        subscriber.sink.finish(with: writer.bytes)
    }

    // MARK: Heartbeats and periodic refresh

    /// Schedules the next heartbeat, one interval from now.
    func scheduleHeartbeat() -> ScheduledAction {
        clock.schedule(after: configuration.heartbeatInterval) { [weak self] in self?.heartbeat() }
    }

    /// Runs the registered heartbeats (pings on WebSockets) and schedules the next round.
    func heartbeat() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else { return [] }
            state.heartbeat = scheduleHeartbeat()
            return Array(state.heartbeats.values)
        }
        for action in actions {
            action()
        }
    }

    /// Schedules the `@refresh(every:)` re-run of the group `id` under `key`.
    func scheduleRefresh(_ key: String, group id: UInt64, after interval: Duration) -> ScheduledAction {
        clock.schedule(after: interval) { [weak self] in self?.refreshDue(key, group: id) }
    }

    /// Asks for a re-run of the group and schedules its next refresh, unless the group has gone meanwhile.
    func refreshDue(_ key: String, group id: UInt64) {
        let due = update { state -> Bool in
            guard !state.closed, let group = state.groups[key], group.id == id,
                let every = group.target.refresh.every
            else { return false }
            state.groups[key]?.refresh = scheduleRefresh(key, group: id, after: clampedRefresh(every))
            state.pendingGroups.insert(key)
            state.pendingRefreshes.insert(key)
            return true
        }
        if due { scheduleDrain() }
    }

    // MARK: Keys and errors

    /// Connector, operation, canonical variables and the claims the query can see (without the token's
    /// timing claims, so a refreshed token of the same user shares the group).
    static func groupKey(_ target: SubscriptionTarget, auth: AuthContext?) -> String {
        var identity = "-"
        if let auth {
            var claims = auth.claims
            for claim in ["iat", "exp", "auth_time"] { _ = claims.removeValue(forKey: claim) }
            identity = (auth.uid ?? "") + "|" + JSONValue.object(claims).jsonString(canonical: true)
        }
        return [target.connector, target.operationName, target.canonicalVariables, identity].joined(separator: "\u{0}")
    }
}
