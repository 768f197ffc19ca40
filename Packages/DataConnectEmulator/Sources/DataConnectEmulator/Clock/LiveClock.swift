import Dispatch
import Synchronization

/// An ``EmulatorClock`` that runs actions on a dispatch queue once their delay has passed.
///
/// Delays are measured on the monotonic clock (`DispatchTime`), so a change of the system time moves nothing.
///
/// ```swift
/// let handle = LiveClock().schedule(after: .seconds(15)) { print("ping") }
/// handle.cancel()
/// ```
public struct LiveClock: EmulatorClock {
    private let queue: DispatchQueue

    /// Creates a clock running its actions on `queue`.
    ///
    /// - Parameter queue: Where actions run; a serial queue of the clock's own by default.
    public init(queue: DispatchQueue = DispatchQueue(label: "LiveClock")) {
        self.queue = queue
    }

    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let cancellation = Cancellation()
        queue.asyncAfter(deadline: .now() + Self.interval(delay)) {
            if !cancellation.isCancelled { action() }
        }
        return ScheduledAction { cancellation.cancel() }
    }

    /// Whether a scheduled action was cancelled, shared by the handle and the queued block.
    private final class Cancellation: Sendable {
        private let cancelled = Atomic<Bool>(false)

        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

        func cancel() { cancelled.store(true, ordering: .releasing) }
    }

    /// `delay` as a dispatch interval in nanoseconds, zero for negative delays and capped at about 292 years.
    static func interval(_ delay: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = delay.components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return .nanoseconds(Int.max) }
        return .nanoseconds(Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
