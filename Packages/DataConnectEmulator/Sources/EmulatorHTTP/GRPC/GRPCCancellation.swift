import Synchronization

/// Fires once: on RST_STREAM from the client, the connection's loss, the deadline passing (the server then
/// answers DEADLINE_EXCEEDED itself, and a later result is dropped), or the server stopping past its grace.
///
/// ```swift
/// let registration = call.cancellation.onCancel { statement.interrupt() }
/// defer { call.cancellation.remove(registration) }
/// ```
public final class GRPCCancellation: Sendable {
    /// An action registered with ``GRPCCancellation/onCancel(_:)``, to remove once the work it guards is done.
    public struct Registration: Sendable, Hashable {
        fileprivate let id: Int
    }

    private struct State {
        var next = 1
        var actions: [Int: @Sendable () -> Void] = [:]
    }

    private let cancelled = Atomic<Bool>(false)
    private let state = Mutex(State())

    /// Creates a cancellation that has not fired.
    public init() {}

    /// Whether the call was cancelled.
    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }

    /// Runs `action` once when cancelled (at once, on the caller's thread, if already); returns a registration
    /// to remove with `remove(_:)` once the work is done.
    @discardableResult
    public func onCancel(_ action: @escaping @Sendable () -> Void) -> Registration {
        let registration: Registration? = state.withLock { state in
            guard !cancelled.load(ordering: .acquiring) else { return nil }
            let id = state.next
            state.next += 1
            state.actions[id] = action
            return Registration(id: id)
        }
        guard let registration else {
            action()
            return Registration(id: 0)
        }
        return registration
    }

    /// Removes a registered action, which then never runs.
    public func remove(_ registration: Registration) {
        _ = state.withLock { $0.actions.removeValue(forKey: registration.id) }
    }

    /// Fires: marks the call cancelled and runs the registered actions (once; later calls do nothing).
    func cancel() {
        let actions: [@Sendable () -> Void]? = state.withLock { state in
            guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
            defer { state.actions = [:] }
            return Array(state.actions.values)
        }
        for action in actions ?? [] { action() }
    }
}
