import DataConnectEngine
import DataConnectWire
import Foundation

/// Which groups a change touched, and who gets each result.
extension HubState {
    /// The next batch of runs: every group asked for by name, every group reading a changed table, every group
    /// whose `@refresh(onMutationExecuted:)` fires for a committed mutation; each once. With nothing pending (or the
    /// hub stopped) the fan-out queue stops instead, and no ``HubEffect/run(_:)`` comes.
    mutating func nextRuns(into effects: inout [Effect]) {
        guard !closed, hasPendingWork else {
            draining = false
            return
        }
        var keys = pendingGroups
        for (key, group) in groups where !keys.contains(key) {
            if !group.target.tables.isDisjoint(with: pendingTables) {
                keys.insert(key)
                continue
            }
            for trigger in group.target.refresh.onMutationExecuted
            where pendingMutations.contains(where: {
                trigger.fires(for: $0, variables: group.target.variables, auth: group.auth)
            }) {
                keys.insert(key)
                break
            }
        }
        let refreshes = pendingRefreshes
        pendingTables = []
        pendingMutations = []
        pendingGroups = []
        pendingRefreshes = []
        let runs = keys.compactMap { key -> HubRun? in
            guard let group = groups[key] else { return nil }
            return HubRun(
                key: key, connector: group.target.connector, operationName: group.target.operationName,
                variables: group.target.variables, auth: group.auth, isRefresh: refreshes.contains(key))
        }
        effects.append(.run(runs))
    }

    /// Records a group's result and says who gets it; tells the observer when it is new data.
    mutating func resultReady(
        _ key: String, etag: String, isRefresh: Bool, time: Date, into effects: inout [Effect]
    ) {
        guard groups[key] != nil else { return }
        // In place: a copy of the group would copy its subscribers.
        let (delivery, pushed) = Self.recipients(of: &groups[key]!, etag: etag, isRefresh: isRefresh, time: time)
        if !delivery.full.isEmpty || !delivery.unchanged.isEmpty { effects.append(.send(delivery)) }
        if let pushed { effects.append(.observe(.pushed(pushed.0, reason: pushed.1))) }
    }

    /// Who gets a run's result: the whole group when it changed (or on a refresh, the etag alone when it did not),
    /// otherwise only the subscribers waiting for a first result or a resume, so that subscribers joining a large
    /// group one by one cost each run only the newcomers. Clears what was pending and records the push.
    static func recipients(
        of group: inout HubGroup<Recipient>, etag: String, isRefresh: Bool, time: Date
    ) -> (HubDelivery<Recipient>, pushed: (SubscriptionHub.GroupSnapshot, SubscriptionHub.PushReason)?) {
        let changed = group.lastEtag != etag
        let reason: SubscriptionHub.PushReason = group.lastEtag == nil ? .initial : isRefresh ? .refresh : .change
        group.lastEtag = etag
        if changed {
            group.pushes += 1
            group.lastPush = time
        }
        var full: [Recipient] = []
        var unchanged: [Recipient] = []
        func classify(_ subscriber: HubSubscriber<Recipient>) {
            switch subscriber.pending {
            case .initial(let known)?:
                if known != etag { full.append(subscriber.recipient) }
            case .resume(let known)?:
                if known != etag { full.append(subscriber.recipient) } else { unchanged.append(subscriber.recipient) }
            case nil:
                if changed {
                    full.append(subscriber.recipient)
                } else if isRefresh {
                    unchanged.append(subscriber.recipient)
                }
            }
        }
        if changed || isRefresh {
            full.reserveCapacity(group.subscribers.count)
            for subscriber in group.subscribers.values { classify(subscriber) }
            for id in group.pendingIDs { group.subscribers[id]?.pending = nil }
        } else {
            for id in group.pendingIDs {
                // Cleared as it is answered, so that an id asked for twice is answered once.
                guard let subscriber = group.subscribers[id], subscriber.pending != nil else { continue }
                classify(subscriber)
                group.subscribers[id]?.pending = nil
            }
        }
        group.pendingIDs.removeAll()
        let delivery = HubDelivery(etag: etag, full: full, unchanged: unchanged)
        return (delivery, changed ? (group.snapshot, reason) : nil)
    }
}
