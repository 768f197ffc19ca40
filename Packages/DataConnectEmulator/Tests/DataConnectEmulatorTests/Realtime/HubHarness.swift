import DataConnectWire
import Foundation

@testable import DataConnectEmulator
@testable import DataConnectEngine

/// The hub's reducer alone: subscribers and heartbeats are strings, time is a constant, and each event's effects come
/// back as ``HubStep``s to compare with `==`.
///
/// ```swift
/// var hub = HubHarness()
/// #expect(hub.subscribe("a", to: HubQueries.books) == [.groupsChanged, .startFanOut, .subscribed(1)])
/// #expect(hub.send(.fanOutReady) == [.run(["ListBooks"])])
/// ```
struct HubHarness {
    typealias State = HubState<String, String>

    /// The time every result is reported at.
    static let time = Date(timeIntervalSince1970: 1_000_000)

    var state: State
    /// The subscribers by name, as their subscription answered.
    private(set) var ids: [String: SubscriptionHub.SubscriberID] = [:]

    init(_ configuration: SubscriptionHub.Configuration = SubscriptionHub.Configuration()) {
        state = State(configuration: configuration)
    }

    /// Feeds one event to the reducer.
    ///
    /// - Returns: Its effects, as steps.
    mutating func send(_ event: State.Event) -> [HubStep] {
        State.reduce(&state, event).map(HubStep.init)
    }

    /// Subscribes `name` to `query`, remembering its id under its name.
    ///
    /// - Returns: The effects, as steps.
    mutating func subscribe(
        _ name: String, to query: SubscriptionTarget, auth: AuthContext? = nil, client: String = "address:test",
        knownEtag: String? = nil
    ) -> [HubStep] {
        let subscription = HubSubscription(
            target: query, auth: auth, recipient: name, clientKey: client, knownEtag: knownEtag)
        let effects = State.reduce(&state, .subscribe(subscription))
        for case .answer(.subscribed(.success(let id))) in effects { ids[name] = id }
        return effects.map(HubStep.init)
    }

    /// The id of the subscriber called `name`.
    func id(_ name: String) -> SubscriptionHub.SubscriberID {
        ids[name]!
    }

    /// The key of the group of `query` for `auth`.
    static func key(_ query: SubscriptionTarget, auth: AuthContext? = nil) -> String {
        State.groupKey(query, auth: auth)
    }

    /// Reports a result of `query`'s group whose bytes hash to `etag`.
    ///
    /// - Returns: The effects, as steps.
    mutating func result(
        _ query: SubscriptionTarget, etag: String, auth: AuthContext? = nil, isRefresh: Bool = false
    ) -> [HubStep] {
        send(.resultReady(key: Self.key(query, auth: auth), etag: etag, isRefresh: isRefresh, time: Self.time))
    }

    /// Does what the fan-out queue would until it stops, every run finding a result whose bytes hash to `etag`.
    ///
    /// - Returns: Every effect on the way, as steps.
    @discardableResult
    mutating func settle(etag: String) -> [HubStep] {
        var steps: [HubStep] = []
        while true {
            let effects = State.reduce(&state, .fanOutReady)
            steps += effects.map(HubStep.init)
            guard case .run(let runs)? = effects.first else { return steps }
            for run in runs {
                let event = State.Event.resultReady(
                    key: run.key, etag: etag, isRefresh: run.isRefresh, time: Self.time)
                steps += send(event)
            }
        }
    }
}

/// An effect with subscribers, heartbeats and groups by name, sorted where the hub promises no order.
enum HubStep: Equatable {
    case subscribed(UInt64)
    case refused(StatusCode)
    case live(Bool)
    case reauthorized(UInt64?)
    case heartbeat(UInt64)
    case startFanOut
    /// Groups by operation name and variables, `(refresh)` after a refresh run.
    case run([String])
    case send(etag: String, full: [String], unchanged: [String])
    case end([String], RequestError)
    case scheduleRefresh(String, group: UInt64, after: Duration)
    case cancelRefresh(group: UInt64)
    case scheduleHeartbeat(after: Duration)
    case cancelHeartbeat
    case beat([String])
    /// `mutation <operation>` or `tables <tables>`.
    case publish(String)
    case groupsChanged
    case pushed(group: UInt64, subscribers: Int, pushes: Int, etag: String?, reason: SubscriptionHub.PushReason)

    init(_ effect: HubHarness.State.Effect) {
        switch effect {
        case .answer(.subscribed(.success(let id))): self = .subscribed(id.id)
        case .answer(.subscribed(.failure(let error))): self = .refused(error.status)
        case .answer(.live(let live)): self = .live(live)
        case .answer(.reauthorized(let id)): self = .reauthorized(id?.id)
        case .answer(.heartbeat(let registration)): self = .heartbeat(registration)
        case .startFanOut: self = .startFanOut
        case .run(let runs):
            self = .run(runs.map { Self.label($0.key) + ($0.isRefresh ? " (refresh)" : "") }.sorted())
        case .send(let delivery):
            self = .send(etag: delivery.etag, full: delivery.full.sorted(), unchanged: delivery.unchanged.sorted())
        case .end(let recipients, let error): self = .end(recipients.sorted(), error)
        case .scheduleRefresh(let key, let group, let delay):
            self = .scheduleRefresh(Self.label(key), group: group, after: delay)
        case .cancelRefresh(let group): self = .cancelRefresh(group: group)
        case .scheduleHeartbeat(let delay): self = .scheduleHeartbeat(after: delay)
        case .cancelHeartbeat: self = .cancelHeartbeat
        case .beat(let heartbeats): self = .beat(heartbeats.sorted())
        case .publish(.mutation(let mutation)): self = .publish("mutation " + mutation.operationName)
        case .publish(.tables(let tables)): self = .publish("tables " + tables.sorted().joined(separator: ","))
        case .observe(.groupsChanged): self = .groupsChanged
        case .observe(.pushed(let group, let reason)):
            self = .pushed(
                group: group.id, subscribers: group.subscribers, pushes: group.pushes, etag: group.etag, reason: reason)
        }
    }

    /// A group key as `Operation{"canonical":"variables"}`, with ` as <uid>` for a signed-in caller.
    static func label(_ key: String) -> String {
        let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
        let variables = parts[2] == "{}" ? "" : parts[2]
        let caller = parts[3] == "-" ? "" : " as " + (parts[3].split(separator: "|").first.map(String.init) ?? "")
        return parts[1] + variables + caller
    }
}

/// The queries of the reducer tests, as the engine would prepare them.
enum HubQueries {
    static let books = target("ListBooks", tables: ["Book", "Author"])
    static let authors = target("ListAuthors", tables: ["Author"])
    static let notes = target("ListNotes", tables: ["Note"])
    static let polled = target("PolledBooks", tables: ["Book"], every: .seconds(1))

    static func booksBefore(_ year: Int) -> SubscriptionTarget {
        target("BooksBefore", variables: ["year": .number(JSONNumber(year))], tables: ["Book"])
    }

    /// Re-runs after `Poke` when the mutation's tag is the subscription's; reads no table `Poke` writes.
    static func tagged(_ tag: String) -> SubscriptionTarget {
        let condition = "mutation.variables.tag == request.variables.tag"
        let trigger = MutationTrigger(
            operation: "Poke", condition: try! QueryBuilder.parseCEL(condition), conditionSource: condition)
        return target("TaggedBooks", variables: ["tag": .string(tag)], tables: ["Book"], triggers: [trigger])
    }

    static func target(
        _ operation: String, variables: JSONObject = [:], tables: Set<String>, every: Duration? = nil,
        triggers: [MutationTrigger] = []
    ) -> SubscriptionTarget {
        SubscriptionTarget(
            connector: "shop", operationName: operation, variables: variables,
            canonicalVariables: JSONValue.object(variables).jsonString(canonical: true), tables: tables,
            refresh: RefreshRules(every: every, onMutationExecuted: triggers), fingerprint: operation)
    }

    /// A committed mutation writing `tables`.
    static func mutation(_ operation: String, tables: Set<String>, variables: JSONObject = [:]) -> DataChange {
        .mutation(
            MutationEffect(connector: "shop", operationName: operation, variables: variables, auth: nil, tables: tables)
        )
    }
}
