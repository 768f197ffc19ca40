import DataConnectWire
import Dispatch
import EmulatorHTTP
import Foundation
import Synchronization

/// The console's live feed: sends each open `/emulator/console/events` WebSocket the requests served, the
/// realtime hub's pushes and group changes, and service reloads, as JSON text frames (see ``ConsoleEventsSession``).
///
/// Costs nothing while no console listens: the hub and the request log call in, and the feed returns at once.
/// Group changes are coalesced: however many subscribers come and go at once, listeners get one `groups` frame
/// per burst. A listener that does not read (more than ``maximumBufferedBytes`` waiting) misses frames rather
/// than holding memory.
final class ConsoleEvents: Sendable {
    /// The most bytes a connection may have waiting before frames to it are dropped.
    static let maximumBufferedBytes = 4 << 20

    private struct State {
        var connections: [ObjectIdentifier: WebSocketConnection] = [:]
        var groupsPending = false
    }
    private let state = Mutex(State())
    private let listening = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "ConsoleEvents")
    private let hub: SubscriptionHub

    /// Creates the feed of `hub`'s groups and pushes; the responder sends it requests and reloads.
    init(hub: SubscriptionHub) {
        self.hub = hub
    }

    /// Starts sending to `connection`.
    func add(_ connection: WebSocketConnection) {
        let count = state.withLock { state in
            state.connections[ObjectIdentifier(connection)] = connection
            return state.connections.count
        }
        listening.store(count, ordering: .releasing)
    }

    /// Stops sending to `connection`.
    func remove(_ connection: WebSocketConnection) {
        let count = state.withLock { state in
            state.connections[ObjectIdentifier(connection)] = nil
            return state.connections.count
        }
        listening.store(count, ordering: .releasing)
    }

    /// Whether any console listens.
    var isListened: Bool { listening.load(ordering: .acquiring) > 0 }

    /// Sends a served request.
    func requestServed(_ record: RequestLog.Record) {
        guard isListened else { return }
        broadcast(["type": "request", "request": record.json])
    }

    /// Sends what the hub observed.
    func hubObserved(_ observation: SubscriptionHub.Observation) {
        guard isListened else { return }
        switch observation {
        case .groupsChanged:
            let schedule = state.withLock { state -> Bool in
                defer { state.groupsPending = true }
                return !state.groupsPending
            }
            guard schedule else { return }
            queue.async { [self] in
                state.withLock { $0.groupsPending = false }
                broadcast(groupsFrame())
            }
        case .pushed(let group, let reason):
            broadcast([
                "type": "push",
                "push": [
                    "group": .string(Self.groupID(group.id)), "connector": .string(group.connector),
                    "operation": .string(group.operationName), "subscribers": .number(JSONNumber(group.subscribers)),
                    "etag": group.etag.map(JSONValue.string) ?? .null,
                    "time": .string(RequestLog.timestamp(group.lastPush ?? Date())),
                    "reason": .string(reason.rawValue),
                ],
            ])
        }
    }

    /// Tells the consoles that the service was reloaded (its schema or operations may have changed).
    func serviceReloaded() {
        guard isListened else { return }
        broadcast(["type": "reloaded"])
    }

    /// The `groups` frame: every live group and the subscriber total.
    func groupsFrame() -> JSONValue {
        var frame = realtimeState()
        frame["type"] = "groups"
        return .object(frame)
    }

    /// The hub's groups as `GET /emulator/console/realtime` answers them.
    func realtimeState() -> JSONObject {
        let groups = hub.groupSnapshots()
        return [
            "subscribers": .number(JSONNumber(groups.reduce(0) { $0 + $1.subscribers })),
            "groups": .array(groups.map(Self.json)),
        ]
    }

    /// Sends a frame to one connection (the greeting).
    func send(_ frame: JSONValue, to connection: WebSocketConnection) {
        _ = connection.sendText(utf8: frame.serialized())
    }

    private func broadcast(_ frame: JSONValue) {
        let connections = state.withLock { Array($0.connections.values) }
        guard !connections.isEmpty else { return }
        let bytes = frame.serialized()
        for connection in connections where connection.bufferedByteCount <= Self.maximumBufferedBytes {
            _ = connection.sendText(utf8: bytes)
        }
    }

    /// A group's id as the console shows it.
    static func groupID(_ id: UInt64) -> String { "g\(id)" }

    /// A group as the console reads it.
    static func json(_ group: SubscriptionHub.GroupSnapshot) -> JSONValue {
        [
            "id": .string(groupID(group.id)), "connector": .string(group.connector),
            "operation": .string(group.operationName), "variables": .object(group.variables),
            "caller": .string(
                group.uid.map { "uid:\($0)" } ?? (group.isAuthenticated ? "signed-in" : "unauthenticated")),
            "subscribers": .number(JSONNumber(group.subscribers)), "pushes": .number(JSONNumber(group.pushes)),
            "lastPush": group.lastPush.map { .string(RequestLog.timestamp($0)) } ?? .null,
            "etag": group.etag.map(JSONValue.string) ?? .null,
        ]
    }
}
