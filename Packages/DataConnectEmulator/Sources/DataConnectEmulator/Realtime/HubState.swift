import DataConnectEngine
import DataConnectWire
import Foundation

/// What the realtime hub knows: its groups and subscribers, the timers it keeps, and the work it was asked for.
///
/// A value. ``reduce(_:_:)`` changes it in reply to each ``HubEvent`` and says in ``HubEffect``s what is to be
/// done; ``SubscriptionHub`` holds it under its lock, feeds it events and does the effects. It holds no lock,
/// thread, clock, engine or socket: where a subscriber's responses go (`Recipient`) and a registered sign of life
/// (`Heartbeat`) are values it hands back in effects without looking into them, so tests name them with strings.
///
/// Subscribers of the same connector, query, canonical variables and caller share one group (``groupKey(_:auth:)``),
/// whose query runs once per change however many subscribers it has.
///
/// ```swift
/// var state = HubState<String, String>(configuration: SubscriptionHub.Configuration())
/// let effects = HubState.reduce(&state, .subscribe(subscription))   // [.observe(.groupsChanged), .startFanOut, .answer(…)]
/// ```
struct HubState<Recipient, Heartbeat> {
    /// Limits and timings.
    let configuration: SubscriptionHub.Configuration
    /// The groups, by ``groupKey(_:auth:)``.
    var groups: [String: HubGroup<Recipient>] = [:]
    /// Live subscribers per client key (auth uid, else remote address), for the per-client limit.
    var clients: [String: Int] = [:]
    /// The next subscriber, group or heartbeat id: one sequence for the three.
    var nextID: UInt64 = 1
    /// Tables changed since the last batch of runs was decided.
    var pendingTables: Set<String> = []
    /// Mutations committed since the last batch of runs was decided, for `@refresh(onMutationExecuted:)`.
    var pendingMutations: [MutationEffect] = []
    /// Groups to run in the next batch whatever changed: a first result, a resume, a reload or a refresh.
    var pendingGroups: Set<String> = []
    /// Groups whose `@refresh(every:)` is due: they answer even when nothing changed.
    var pendingRefreshes: Set<String> = []
    /// The registered heartbeats, by registration.
    var heartbeats: [UInt64: Heartbeat] = [:]
    /// Whether the fan-out queue was started and has not found the work done yet.
    var draining = false
    /// Whether the hub stopped: it refuses subscribers and decides no more runs or timers.
    var closed = false
    /// The number of live subscribers.
    var subscribers = 0

    /// Creates the state of a hub with no subscribers.
    ///
    /// - Parameter configuration: Limits and timings.
    init(configuration: SubscriptionHub.Configuration) {
        self.configuration = configuration
    }

    /// Whether work is waiting for the next batch of runs.
    var hasPendingWork: Bool {
        !(pendingTables.isEmpty && pendingMutations.isEmpty && pendingGroups.isEmpty)
    }

    /// Whether no re-run is asked for or running.
    var isIdle: Bool {
        !draining && (closed || !hasPendingWork)
    }

    /// `every` between ``SubscriptionHub/Configuration-swift.struct/minimumRefreshInterval`` and
    /// ``SubscriptionHub/Configuration-swift.struct/maximumRefreshInterval``.
    func clampedRefresh(_ every: Duration) -> Duration {
        min(max(every, configuration.minimumRefreshInterval), configuration.maximumRefreshInterval)
    }

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

/// The subscribers of one query, variables and caller, and what the hub remembers of its last result.
struct HubGroup<Recipient> {
    /// Tells this group from an earlier one under the same key (and its timers from theirs).
    let id: UInt64
    /// The query, re-prepared on reload.
    var target: SubscriptionTarget
    /// The caller the query runs as.
    let auth: AuthContext?
    /// The members, by subscriber id.
    var subscribers: [UInt64: HubSubscriber<Recipient>] = [:]
    /// The subscribers waiting for a first result or a resume, in the order they asked (an id may repeat, or
    /// name a subscriber gone since): a run that finds the result unchanged answers only these.
    var pendingIDs: [UInt64] = []
    /// The etag of the last result.
    var lastEtag: String?
    /// Whether a `@refresh(every:)` timer runs for the group: from its creation while its query has one, until the
    /// timer is cancelled or fires for a query that no longer has one.
    var hasRefreshTimer = false
    /// How many times new data went out to the group, and when last.
    var pushes = 0
    var lastPush: Date?

    /// The group as the console shows it.
    var snapshot: SubscriptionHub.GroupSnapshot {
        SubscriptionHub.GroupSnapshot(
            id: id, connector: target.connector, operationName: target.operationName, variables: target.variables,
            uid: auth?.uid, isAuthenticated: auth != nil, subscribers: subscribers.count, pushes: pushes,
            lastPush: lastPush, etag: lastEtag)
    }
}

/// A member of a group.
struct HubSubscriber<Recipient> {
    /// Where its responses go.
    let recipient: Recipient
    /// Whom the per-client limit counts it against.
    let clientKey: String
    /// What it waits for besides changes: its first result, or a resumed one.
    var pending: HubPending?
}

/// A result a subscriber asked for, with the etag it already holds.
enum HubPending: Equatable, Sendable {
    /// The first result: skipped when the client's etag is current.
    case initial(knownEtag: String?)
    /// A resume: answered without `data` when the client's etag is current.
    case resume(knownEtag: String?)
}

extension HubState: Sendable where Recipient: Sendable, Heartbeat: Sendable {}
extension HubGroup: Sendable where Recipient: Sendable {}
extension HubSubscriber: Sendable where Recipient: Sendable {}
