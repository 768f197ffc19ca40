import Synchronization

/// An ``EmulatorClock`` whose time moves only when a test advances it.
///
/// Scheduled actions run on the thread that calls ``advance(by:)``, in the order of their deadlines (actions
/// due at the same instant in the order they were scheduled), before `advance` returns. An action scheduled while
/// the clock advances runs in the same call when its deadline falls within it, so a repeating timer fires once
/// per period crossed.
///
/// ```swift
/// let clock = ManualClock()
/// var options = Emulator.Options(backend: "Backend/movies", port: 0, clock: clock)
/// options.realtime.heartbeatInterval = .seconds(15)
/// // …subscribe…
/// clock.advance(by: .seconds(15))   // each stream has been sent a ping when this returns
/// ```
public final class ManualClock: EmulatorClock {
    private struct Pending {
        let id: UInt64
        let deadline: Duration
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var nextID: UInt64 = 0
        var pending: [Pending] = []
    }

    private let state = Mutex(State())

    /// Creates a clock at time zero with nothing scheduled.
    public init() {}

    /// The time since the clock was created: the sum of the advances.
    public var now: Duration { state.withLock { $0.now } }

    /// The number of actions scheduled and neither run nor cancelled.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let id = state.withLock { state -> UInt64 in
            let id = state.nextID
            state.nextID += 1
            state.pending.append(Pending(id: id, deadline: state.now + max(delay, .zero), action: action))
            return id
        }
        return ScheduledAction { [weak self] in
            self?.state.withLock { $0.pending.removeAll { $0.id == id } }
        }
    }

    /// Moves time forward by `duration`, running every action that falls due, then returns.
    ///
    /// - Parameter duration: How far to move; zero runs only the actions already due.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now + max(duration, .zero) }
        while let action = nextDue(by: target) {
            action()
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Removes the earliest action due by `target` and moves the time to its deadline.
    private func nextDue(by target: Duration) -> (@Sendable () -> Void)? {
        state.withLock { state in
            var earliest: Int?
            for (index, pending) in state.pending.enumerated() where pending.deadline <= target {
                if let current = earliest, state.pending[current].deadline <= pending.deadline { continue }
                earliest = index
            }
            guard let earliest else { return nil }
            let due = state.pending.remove(at: earliest)
            state.now = max(state.now, due.deadline)
            return due.action
        }
    }
}
