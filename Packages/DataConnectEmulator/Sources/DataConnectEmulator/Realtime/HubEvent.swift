import DataConnectEngine
import DataConnectWire
import Foundation

/// Something the realtime hub reacts to: a request of its API, a change to the data, a timer, a run's outcome.
///
/// ``SubscriptionHub`` turns each call and each callback into one event for ``HubState/reduce(_:_:)``; what the
/// engine has to say (a prepared subscription, a reloaded query, a run's result) comes in the event, computed by the
/// hub beforehand, so the reducer never calls the engine.
enum HubEvent<Recipient, Heartbeat> {
    /// The hub was created: its heartbeat starts.
    case started
    /// A checked subscription asks to join its group; answers ``HubAnswer/subscribed(_:)``.
    case subscribe(HubSubscription<Recipient>)
    /// A subscriber leaves without a last response (the client cancelled or went away).
    case unsubscribe(SubscriptionHub.SubscriberID)
    /// A subscriber ends with a last response carrying `cancelled: true` and the error; answers
    /// ``HubAnswer/live(_:)``.
    case cancel(SubscriptionHub.SubscriberID, RequestError)
    /// A subscriber asks for the current result again; answers ``HubAnswer/live(_:)``.
    case resume(SubscriptionHub.SubscriberID, knownEtag: String?)
    /// A subscriber's caller changed and may still read the query, prepared anew as `target`: it moves to the group
    /// of the new caller; answers ``HubAnswer/reauthorized(_:)``.
    case reauthorize(SubscriptionHub.SubscriberID, target: SubscriptionTarget, auth: AuthContext?)
    /// A heartbeat is registered; answers ``HubAnswer/heartbeat(_:)``.
    case addHeartbeat(Heartbeat)
    /// A heartbeat registration ends.
    case removeHeartbeat(UInt64)
    /// The heartbeat timer fired.
    case heartbeatDue
    /// The `@refresh(every:)` timer of the group `group` under `key` fired.
    case refreshDue(key: String, group: UInt64)
    /// A change was committed: in this process, or in another one serving from the same database (`elsewhere`).
    case changeCommitted(DataChange, elsewhere: Bool)
    /// The engine was reloaded. `kept` has the groups whose query is unchanged and still allowed, prepared against the
    /// new engine; the others end.
    case engineReplaced(kept: [String: SubscriptionTarget])
    /// The fan-out queue is ready for the next batch of runs.
    case fanOutReady
    /// A group's run produced a result whose bytes hash to `etag`, at `time` (the push's time, if it is one).
    case resultReady(key: String, etag: String, isRefresh: Bool, time: Date)
    /// A group's run was refused (its `@auth` now refuses the caller, say): the group ends with `error`.
    case runFailed(key: String, RequestError)
    /// The hub stops: every subscriber ends, nothing new is accepted.
    case shutdown
}

/// A subscription the engine accepted, asking to join its group.
struct HubSubscription<Recipient> {
    /// The prepared query.
    var target: SubscriptionTarget
    /// The caller; re-runs use it too.
    var auth: AuthContext?
    /// Where its responses go.
    var recipient: Recipient
    /// Whom the per-client limit counts it against (auth uid, else the remote address).
    var clientKey: String
    /// The etag of the result the client holds: the first result is skipped when it matches.
    var knownEtag: String?
}

extension HubEvent: Sendable where Recipient: Sendable, Heartbeat: Sendable {}
extension HubSubscription: Sendable where Recipient: Sendable {}
