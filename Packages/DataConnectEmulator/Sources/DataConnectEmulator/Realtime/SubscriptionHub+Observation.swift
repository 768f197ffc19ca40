import DataConnectEngine
import DataConnectWire
import Dispatch
import Foundation
import Synchronization

/// What the hub tells the console and the benchmarks: pushes, groups and their snapshots.
extension SubscriptionHub {
    // MARK: Observation

    /// What the hub tells its observer (``setObserver(_:)``).
    public enum Observation: Sendable {
        /// Subscribers or groups were added or removed.
        case groupsChanged
        /// A group's query produced new data, which went to its subscribers.
        case pushed(GroupSnapshot, reason: PushReason)
    }

    /// Why a group's query ran when it produced new data.
    public enum PushReason: String, Sendable {
        /// The group's first result.
        case initial
        /// A change to what it reads.
        case change
        /// Its `@refresh(every:)` schedule.
        case refresh
    }

    /// A live group as the console shows it.
    public struct GroupSnapshot: Sendable {
        /// Identifies the group while it lives.
        public var id: UInt64
        /// The connector id.
        public var connector: String
        /// The query's name.
        public var operationName: String
        /// The variables as the first subscriber sent them.
        public var variables: JSONObject
        /// The subscribers' identity: their uid when signed in.
        public var uid: String?
        /// Whether the subscribers are signed in.
        public var isAuthenticated: Bool
        /// How many subscribers share the group.
        public var subscribers: Int
        /// How many times new data went out.
        public var pushes: Int
        /// When new data last went out.
        public var lastPush: Date?
        /// The etag of the last result.
        public var etag: String?
    }

    /// Calls `observer` (on the hub's threads: return quickly) when groups change and when a group gets new
    /// data; `nil` stops observing.
    public func setObserver(_ observer: (@Sendable (Observation) -> Void)?) {
        let callback = observer.map { Callback(call: $0) }
        self.observer.withLock { $0 = callback }
    }

    /// The live groups, oldest first.
    public func groupSnapshots() -> [GroupSnapshot] {
        state.withLock { state in state.core.groups.values.map(\.snapshot).sorted { $0.id < $1.id } }
    }

    func observe(_ observation: @autoclosure () -> Observation) {
        guard let observer = observer.withLock({ $0 }) else { return }
        observer.call(observation())
    }
}
