import DataConnectEngine
import DataConnectWire

/// The hub's logic: how each event changes the state, and what is to be done about it.
extension HubState {
    typealias Event = HubEvent<Recipient, Heartbeat>
    typealias Effect = HubEffect<Recipient, Heartbeat>

    /// Applies `event` to `state` and returns the effects to do, in order.
    ///
    /// Pure: no lock, thread, clock, engine or I/O. The state changes in place rather than being returned anew,
    /// because a copy of it would copy every group's subscribers on every event. Whenever the number of subscribers
    /// or groups changes, the first effect is ``HubEffect/observe(_:)`` of
    /// ``SubscriptionHub/Observation/groupsChanged``.
    ///
    /// ```swift
    /// var state = HubState<String, String>(configuration: SubscriptionHub.Configuration())
    /// HubState.reduce(&state, .subscribe(books))   // [.observe(.groupsChanged), .startFanOut, .answer(.subscribed(…))]
    /// HubState.reduce(&state, .fanOutReady)        // [.run([books' run])]
    /// ```
    ///
    /// - Parameters:
    ///   - state: The hub's state, changed in place.
    ///   - event: What happened.
    /// - Returns: The effects, in the order they are to be done.
    static func reduce(_ state: inout Self, _ event: Event) -> [Effect] {
        var effects: [Effect] = []
        let size = (state.subscribers, state.groups.count)
        state.apply(event, into: &effects)
        if size != (state.subscribers, state.groups.count) {
            effects.insert(.observe(.groupsChanged), at: 0)
        }
        return effects
    }

    private mutating func apply(_ event: Event, into effects: inout [Effect]) {
        switch event {
        case .started:
            effects.append(.scheduleHeartbeat(after: configuration.heartbeatInterval))
        case .subscribe(let subscription):
            let added = subscribe(subscription, into: &effects)
            effects.append(.answer(.subscribed(added)))
        case .unsubscribe(let subscriber):
            _ = removeSubscriber(subscriber, into: &effects)
        case .cancel(let subscriber, let error):
            let removed = removeSubscriber(subscriber, into: &effects)
            if let removed { effects.append(.end([removed.recipient], error)) }
            effects.append(.answer(.live(removed != nil)))
        case .resume(let subscriber, let knownEtag):
            let live = resume(subscriber, knownEtag: knownEtag, into: &effects)
            effects.append(.answer(.live(live)))
        case .reauthorize(let subscriber, let target, let auth):
            let moved = move(subscriber, to: target, auth: auth, into: &effects)
            effects.append(.answer(.reauthorized(moved)))
        case .addHeartbeat(let heartbeat):
            let id = nextID
            nextID += 1
            heartbeats[id] = heartbeat
            effects.append(.answer(.heartbeat(id)))
        case .removeHeartbeat(let id):
            heartbeats[id] = nil
        case .heartbeatDue:
            guard !closed else { return }
            effects.append(.scheduleHeartbeat(after: configuration.heartbeatInterval))
            if !heartbeats.isEmpty { effects.append(.beat(Array(heartbeats.values))) }
        case .refreshDue(let key, let group):
            refreshDue(key, group: group, into: &effects)
        case .changeCommitted(let change, let elsewhere):
            changeCommitted(change, elsewhere: elsewhere, into: &effects)
        case .engineReplaced(let kept):
            engineReplaced(kept: kept, into: &effects)
        case .fanOutReady:
            nextRuns(into: &effects)
        case .resultReady(let key, let etag, let isRefresh, let time):
            resultReady(key, etag: etag, isRefresh: isRefresh, time: time, into: &effects)
        case .runFailed(let key, let error):
            // The query no longer runs for this caller (e.g. its @auth expression now refuses): end it with the
            // error a new request would get.
            guard let group = removeGroup(key, into: &effects) else { return }
            for subscriber in group.subscribers.values { release(subscriber.clientKey) }
            effects.append(.end(group.subscribers.values.map(\.recipient), error))
        case .shutdown:
            shutdown(into: &effects)
        }
    }

    // MARK: Subscribers

    /// Checks the hub is open and the per-client limit, then adds the subscriber to its group.
    private mutating func subscribe(
        _ subscription: HubSubscription<Recipient>, into effects: inout [Effect]
    ) -> Result<SubscriptionHub.SubscriberID, RequestError> {
        if closed { return .failure(RequestError(status: .unavailable, message: "the emulator is stopping")) }
        let limit = configuration.maximumSubscriptionsPerClient
        let count = clients[subscription.clientKey, default: 0]
        if count >= limit {
            return .failure(
                RequestError(
                    status: .resourceExhausted,
                    message:
                        "too many live subscriptions for this client: the limit is \(limit) (maximumSubscriptionsPerClient)"
                ))
        }
        clients[subscription.clientKey] = count + 1
        subscribers += 1
        let subscriber = HubSubscriber(
            recipient: subscription.recipient, clientKey: subscription.clientKey,
            pending: .initial(knownEtag: subscription.knownEtag))
        let id = join(
            subscriber, key: Self.groupKey(subscription.target, auth: subscription.auth), target: subscription.target,
            auth: subscription.auth, into: &effects)
        startFanOut(into: &effects)
        return .success(id)
    }

    /// Adds a subscriber (already counted for its client) to the group of `key`, made when it is the first, and
    /// asks for its pending result.
    private mutating func join(
        _ subscriber: HubSubscriber<Recipient>, key: String, target: SubscriptionTarget, auth: AuthContext?,
        into effects: inout [Effect]
    ) -> SubscriptionHub.SubscriberID {
        let id = nextID
        nextID += 1
        if groups[key] == nil {
            var group = HubGroup<Recipient>(id: id, target: target, auth: auth)
            if let every = target.refresh.every {
                group.hasRefreshTimer = true
                effects.append(.scheduleRefresh(key: key, group: id, after: clampedRefresh(every)))
            }
            groups[key] = group
        }
        // In place: a copy of the group would copy its subscribers, once per subscriber joining.
        groups[key]!.subscribers[id] = subscriber
        groups[key]!.pendingIDs.append(id)
        pendingGroups.insert(key)
        return SubscriptionHub.SubscriberID(id: id, key: key)
    }

    /// Takes a subscriber out of its group (in place: a copy of the group would copy its other subscribers) and
    /// releases it, dropping the group when it was the last; `nil` when it had gone already.
    private mutating func removeSubscriber(
        _ subscriber: SubscriptionHub.SubscriberID, into effects: inout [Effect]
    ) -> HubSubscriber<Recipient>? {
        guard let removed = groups[subscriber.key]?.subscribers.removeValue(forKey: subscriber.id) else { return nil }
        release(removed.clientKey)
        if groups[subscriber.key]?.subscribers.isEmpty ?? false {
            removeGroup(subscriber.key, into: &effects)
        }
        return removed
    }

    /// Uncounts a subscriber that left.
    private mutating func release(_ clientKey: String) {
        let remaining = clients[clientKey, default: 1] - 1
        clients[clientKey] = remaining > 0 ? remaining : nil
        subscribers -= 1
    }

    /// Drops a group and cancels its refresh timer; its subscribers must be released by the caller.
    @discardableResult
    private mutating func removeGroup(_ key: String, into effects: inout [Effect]) -> HubGroup<Recipient>? {
        let group = groups.removeValue(forKey: key)
        if let group, group.hasRefreshTimer { effects.append(.cancelRefresh(group: group.id)) }
        return group
    }

    /// Asks for a live subscriber's current result; `false` when it has gone.
    private mutating func resume(
        _ subscriber: SubscriptionHub.SubscriberID, knownEtag: String?, into effects: inout [Effect]
    ) -> Bool {
        guard groups[subscriber.key]?.subscribers[subscriber.id] != nil else { return false }
        groups[subscriber.key]?.subscribers[subscriber.id]?.pending = .resume(knownEtag: knownEtag)
        groups[subscriber.key]?.pendingIDs.append(subscriber.id)
        pendingGroups.insert(subscriber.key)
        startFanOut(into: &effects)
        return true
    }

    /// Moves a subscriber to the group of its new caller, where it gets a result only when that differs from the one
    /// it holds; the same subscriber when the caller's group is the same, `nil` when it has gone.
    private mutating func move(
        _ subscriber: SubscriptionHub.SubscriberID, to target: SubscriptionTarget, auth: AuthContext?,
        into effects: inout [Effect]
    ) -> SubscriptionHub.SubscriberID? {
        let key = Self.groupKey(target, auth: auth)
        if key == subscriber.key { return subscriber }
        guard var moved = groups[subscriber.key]?.subscribers.removeValue(forKey: subscriber.id) else { return nil }
        let knownEtag = groups[subscriber.key]?.lastEtag
        if groups[subscriber.key]?.subscribers.isEmpty ?? false {
            removeGroup(subscriber.key, into: &effects)
        }
        moved.pending = .initial(knownEtag: knownEtag)
        let id = join(moved, key: key, target: target, auth: auth, into: &effects)
        startFanOut(into: &effects)
        return id
    }

    // MARK: Changes, reloads and timers

    /// Passes a local change on to the other processes, and asks for a batch of runs when any group may care.
    private mutating func changeCommitted(_ change: DataChange, elsewhere: Bool, into effects: inout [Effect]) {
        if !elsewhere { effects.append(.publish(change)) }
        guard !groups.isEmpty else { return }
        switch change {
        case .mutation(let mutation):
            pendingTables.formUnion(mutation.tables)
            pendingMutations.append(mutation)
        case .tables(let tables):
            pendingTables.formUnion(tables)
        }
        startFanOut(into: &effects)
    }

    /// Re-runs the groups the new engine kept, against it, and ends the others with a `cancelled: true` response.
    private mutating func engineReplaced(kept: [String: SubscriptionTarget], into effects: inout [Effect]) {
        var ended: [Recipient] = []
        for key in Array(groups.keys) {
            if let replacement = kept[key] {
                groups[key]!.target = replacement
                pendingGroups.insert(key)
            } else if let group = removeGroup(key, into: &effects) {
                for subscriber in group.subscribers.values {
                    release(subscriber.clientKey)
                    ended.append(subscriber.recipient)
                }
            }
        }
        if !ended.isEmpty {
            effects.append(
                .end(ended, RequestError(status: .cancelled, message: "the operation changed or was removed on reload"))
            )
        }
        startFanOut(into: &effects)
    }

    /// Asks for a re-run of the group and renews its timer, unless the group has gone meanwhile (or its reloaded query
    /// no longer refreshes: then the timer ends).
    private mutating func refreshDue(_ key: String, group id: UInt64, into effects: inout [Effect]) {
        guard !closed, groups[key]?.id == id else { return }
        guard let every = groups[key]!.target.refresh.every else {
            groups[key]!.hasRefreshTimer = false
            effects.append(.cancelRefresh(group: id))
            return
        }
        effects.append(.scheduleRefresh(key: key, group: id, after: clampedRefresh(every)))
        pendingGroups.insert(key)
        pendingRefreshes.insert(key)
        startFanOut(into: &effects)
    }

    /// Ends every subscriber and every timer, and refuses what comes next.
    private mutating func shutdown(into effects: inout [Effect]) {
        closed = true
        effects.append(.cancelHeartbeat)
        var ended: [Recipient] = []
        for group in groups.values {
            if group.hasRefreshTimer { effects.append(.cancelRefresh(group: group.id)) }
            ended += group.subscribers.values.map(\.recipient)
        }
        groups = [:]
        clients = [:]
        subscribers = 0
        heartbeats = [:]
        if !ended.isEmpty {
            effects.append(.end(ended, RequestError(status: .cancelled, message: "the emulator is stopping")))
        }
    }

    /// Starts the fan-out queue unless it is running (it will find the new work) or the hub has stopped.
    mutating func startFanOut(into effects: inout [Effect]) {
        guard !draining, !closed else { return }
        draining = true
        effects.append(.startFanOut)
    }
}
