/// Runs work after a delay: the one source of time for the emulator's timers.
///
/// The realtime hub's heartbeats and `@refresh(every:)` re-runs are scheduled on a clock rather than on a
/// dispatch queue's wall-clock deadline, so tests can replace time: ``LiveClock`` runs actions when the delay has
/// passed, ``ManualClock`` when a test advances it. The seam is synchronous (schedule a closure, get a handle that
/// cancels it), like a scheduler, because the hub is driven from dispatch queues and locks, not from tasks.
///
/// ```swift
/// let clock = ManualClock()
/// let hub = SubscriptionHub(engine: engine, clock: clock)
/// clock.advance(by: .seconds(15))   // every stream gets its ping
/// ```
public protocol EmulatorClock: Sendable {
    /// Runs `action` once, `delay` from now.
    ///
    /// The action runs on a thread of the clock's choosing and must not block. A delay of zero or less runs it
    /// as soon as the clock can.
    ///
    /// - Parameters:
    ///   - delay: How long from now.
    ///   - action: What to run.
    /// - Returns: A handle that cancels the action if it has not started.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction
}

/// An action an ``EmulatorClock`` will run; cancelling it keeps it from starting.
///
/// Dropping the handle does not cancel the action.
public struct ScheduledAction: Sendable {
    private let onCancel: @Sendable () -> Void

    /// Creates a handle that runs `onCancel` when cancelled.
    ///
    /// - Parameter onCancel: Removes the action from its clock; it may be called more than once.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Keeps the action from starting; does nothing if it already started or was cancelled.
    public func cancel() {
        onCancel()
    }
}

extension EmulatorClock where Self == LiveClock {
    /// The wall clock: actions run on a dispatch queue when their delay has passed.
    public static var live: LiveClock { LiveClock() }
}
