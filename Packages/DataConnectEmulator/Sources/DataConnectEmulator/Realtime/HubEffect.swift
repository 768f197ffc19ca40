import DataConnectEngine
import DataConnectWire

/// Something ``HubState/reduce(_:_:)`` decided and ``SubscriptionHub`` does: run queries, write to subscribers, set
/// or cancel a timer, tell the observer, answer the caller.
///
/// Effects come in the order they are to be done. Timer effects are done under the hub's lock, as the state that
/// asked for them changes, so that a timer set and then cancelled by two threads is never set after it was cancelled;
/// the others after the lock is released.
enum HubEffect<Recipient, Heartbeat> {
    /// Answer the request the event was (the last effect of such an event).
    case answer(HubAnswer)
    /// Start the fan-out queue: it sends ``HubEvent/fanOutReady`` until it gets no ``run(_:)`` back.
    case startFanOut
    /// Run these groups' queries, each once, and report each outcome (``HubEvent/resultReady(key:etag:isRefresh:time:)``
    /// or ``HubEvent/runFailed(key:_:)``).
    case run([HubRun])
    /// Send the result of the run that was just reported to these subscribers.
    case send(HubDelivery<Recipient>)
    /// Send each of these subscribers its last response, `cancelled: true` with the error.
    case end([Recipient], RequestError)
    /// Set the `@refresh(every:)` timer of the group `group` under `key`.
    case scheduleRefresh(key: String, group: UInt64, after: Duration)
    /// Cancel the `@refresh(every:)` timer of the group `group`.
    case cancelRefresh(group: UInt64)
    /// Set the heartbeat timer.
    case scheduleHeartbeat(after: Duration)
    /// Cancel the heartbeat timer.
    case cancelHeartbeat
    /// Run these heartbeats.
    case beat([Heartbeat])
    /// Tell the other processes serving from the same database about a change committed here.
    case publish(DataChange)
    /// Tell the observer.
    case observe(SubscriptionHub.Observation)
}

/// What an event that is a request answers.
enum HubAnswer: Equatable, Sendable {
    /// The new subscriber, or why it was refused.
    case subscribed(Result<SubscriptionHub.SubscriberID, RequestError>)
    /// Whether the subscriber was live.
    case live(Bool)
    /// The subscriber's id from now on, or `nil` when it had gone.
    case reauthorized(SubscriptionHub.SubscriberID?)
    /// The heartbeat's registration.
    case heartbeat(UInt64)
}

/// One run of a group's query, as its caller.
struct HubRun: Equatable, Sendable {
    /// The group.
    var key: String
    /// The connector id.
    var connector: String
    /// The query's name.
    var operationName: String
    /// The variables as the first subscriber sent them.
    var variables: JSONObject
    /// The group's caller.
    var auth: AuthContext?
    /// Whether a `@refresh(every:)` asked for it: subscribers hear from it even when nothing changed.
    var isRefresh: Bool
}

/// Who gets a run's result, decided when it was reported.
struct HubDelivery<Recipient> {
    /// The etag of the result.
    var etag: String
    /// The subscribers to send the result to, with its `data`.
    var full: [Recipient]
    /// The subscribers to send the unchanged etag to, without `data` (a refresh or a resume that found nothing new).
    var unchanged: [Recipient]
}

extension HubEffect: Sendable where Recipient: Sendable, Heartbeat: Sendable {}
extension HubDelivery: Sendable where Recipient: Sendable {}
extension HubDelivery: Equatable where Recipient: Equatable {}
