import DataConnectEngine
import DataConnectWire
import Dispatch
import Foundation
import Synchronization

/// Re-running the groups a change touched and sending each subscriber what it needs.
extension SubscriptionHub {
    // MARK: Fan-out

    struct Run {
        let key: String
        let request: EngineRequest
        let engine: Engine
        /// Whether a `@refresh(every:)` asked for it: subscribers hear from it even when nothing changed.
        let isRefresh: Bool
    }

    func scheduleDrain() {
        let start = state.withLock { state -> Bool in
            guard !state.draining, !state.closed else { return false }
            state.draining = true
            return true
        }
        if start { fanOut.async { [self] in drain() } }
    }

    func drain() {
        while true {
            let runs = update { state -> [Run]? in
                if state.closed
                    || (state.pendingTables.isEmpty && state.pendingMutations.isEmpty && state.pendingGroups.isEmpty)
                {
                    state.draining = false
                    return nil
                }
                var keys = state.pendingGroups
                for (key, group) in state.groups where !keys.contains(key) {
                    if !group.target.tables.isDisjoint(with: state.pendingTables) {
                        keys.insert(key)
                        continue
                    }
                    for trigger in group.target.refresh.onMutationExecuted
                    where state.pendingMutations.contains(where: {
                        trigger.fires(for: $0, variables: group.target.variables, auth: group.auth)
                    }) {
                        keys.insert(key)
                        break
                    }
                }
                let refreshes = state.pendingRefreshes
                state.pendingTables = []
                state.pendingMutations = []
                state.pendingGroups = []
                state.pendingRefreshes = []
                return keys.compactMap { key in
                    guard let group = state.groups[key] else { return nil }
                    let target = group.target
                    return Run(
                        key: key,
                        request: EngineRequest(
                            kind: .connector(
                                connector: target.connector, operationName: target.operationName, mutation: false),
                            variables: target.variables, auth: group.auth),
                        engine: state.engine, isRefresh: refreshes.contains(key))
                }
            }
            guard let runs else { return }
            if runs.count == 1 {
                deliver(runs[0], runs[0].engine.execute(runs[0].request))
            } else if !runs.isEmpty {
                DispatchQueue.concurrentPerform(iterations: runs.count) { index in
                    deliver(runs[index], runs[index].engine.execute(runs[index].request))
                }
            }
        }
    }

    /// Sends a group's new result to the subscribers that need it, and the unchanged etag to those of a refresh run
    /// or a resume that found nothing new.
    func deliver(_ run: Run, _ response: EngineResponse) {
        let key = run.key
        executions.add(1, ordering: .relaxed)
        guard response.status == .ok, response.body.count >= 2 else {
            // The query no longer runs for this caller (e.g. its @auth expression now refuses): end it with the
            // error a new request would get.
            let error = Self.refusal(response)
            let ended = update { state -> [Subscriber] in
                guard let group = Self.removeGroup(key, in: &state) else { return [] }
                for subscriber in group.subscribers.values { Self.release(subscriber.clientKey, in: &state) }
                return Array(group.subscribers.values)
            }
            for subscriber in ended {
                Self.cancel(subscriber, error: error)
            }
            return
        }
        let etag = Self.etag(response.body)
        let (full, unchanged, pushed) = state.withLock {
            state -> ([Subscriber], [Subscriber], (GroupSnapshot, PushReason)?) in
            guard state.groups[key] != nil else { return ([], [], nil) }
            return Self.recipients(of: &state.groups[key]!, etag: etag, isRefresh: run.isRefresh)
        }
        if !full.isEmpty {
            // `{"data":…,"errors":…,"extensions":…}` becomes `{"requestId":…,"data":…,…,"dataEtag":…,"cancelled":false}`.
            var tail = Array(response.body[1..<(response.body.count - 1)])
            tail += Array(#","dataEtag":"\#(etag)","cancelled":false}"#.utf8)
            // The result is copied once per subscriber, by its transport, not joined to its prefix first.
            Self.forEach(full) { [tail] subscriber in
                subscriber.sink.send(subscriber.prefix, tail)
            }
        }
        if !unchanged.isEmpty {
            let tail = Array(#""dataEtag":"\#(etag)","cancelled":false}"#.utf8)
            for subscriber in unchanged {
                subscriber.sink.send(subscriber.prefix, tail)
            }
        }
        if let pushed { observe(.pushed(pushed.0, reason: pushed.1)) }
    }

    /// Who gets a run's result: the whole group when it changed (or on a refresh, the etag alone when it did not),
    /// otherwise only the subscribers waiting for a first result or a resume, so that subscribers joining a large
    /// group one by one cost each run only the newcomers. Clears what was pending and records the push.
    static func recipients(
        of group: inout Group, etag: String, isRefresh: Bool
    ) -> (full: [Subscriber], unchanged: [Subscriber], pushed: (GroupSnapshot, PushReason)?) {
        let changed = group.lastEtag != etag
        let reason: PushReason = group.lastEtag == nil ? .initial : isRefresh ? .refresh : .change
        group.lastEtag = etag
        if changed {
            group.pushes += 1
            group.lastPush = Date()
        }
        var full: [Subscriber] = []
        var unchanged: [Subscriber] = []
        func classify(_ subscriber: Subscriber) {
            switch subscriber.pending {
            case .initial(let known)?:
                if known != etag { full.append(subscriber) }
            case .resume(let known)?:
                if known != etag { full.append(subscriber) } else { unchanged.append(subscriber) }
            case nil:
                if changed {
                    full.append(subscriber)
                } else if isRefresh {
                    unchanged.append(subscriber)
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
        return (full, unchanged, changed ? (snapshot(group), reason) : nil)
    }

    /// Calls `body` for every subscriber; spread over the cores for a large group, whose sends (a copy of the
    /// result and a socket write each) would otherwise all wait on one thread. Each subscriber gets one call.
    static func forEach(_ subscribers: [Subscriber], _ body: @Sendable (Subscriber) -> Void) {
        let slices = min(ProcessInfo.processInfo.activeProcessorCount, subscribers.count / 1_000)
        guard slices > 1 else {
            subscribers.forEach(body)
            return
        }
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            for index in stride(from: slice, to: subscribers.count, by: slices) { body(subscribers[index]) }
        }
    }

    /// `{"requestId":"<id>",`
    static func responsePrefix(_ requestID: String) -> [UInt8] {
        var prefix = Array(#"{"requestId":"#.utf8)
        prefix += JSONValue.string(requestID).serialized()
        prefix.append(UInt8(ascii: ","))
        return prefix
    }

    /// A fast 64-bit hash of the result bytes, as 16 hex digits: FNV-1a's step over 8-byte words, each followed
    /// by a shift-xor, then over the last bytes one by one, seeded with the length. It tells results apart; it is
    /// no defence against a chosen collision.
    static func etag(_ bytes: [UInt8]) -> String {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset + 8 <= buffer.count {
                hash ^= buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                hash &*= prime
                hash ^= hash >> 29
                offset += 8
            }
            while offset < buffer.count {
                hash ^= UInt64(buffer[offset])
                hash &*= prime
                offset += 1
            }
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
