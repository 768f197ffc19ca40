import Synchronization

/// Lets a transport stop a request it no longer needs the answer to: a gRPC call the client reset
/// (`RST_STREAM`), whose deadline passed, or whose connection closed.
///
/// Pass one in ``EngineRequest/cancellation``; ``cancel()`` from any thread interrupts the request's running
/// statement (as its time limit would) and ends the request with `CANCELLED`. A mutation that has not committed
/// rolls back; one that has committed stays committed. Cancelling twice, or after the request ended, does nothing.
///
/// ```swift
/// let cancellation = RequestCancellation()
/// call.onClientReset { cancellation.cancel() }
/// let response = engine.execute(EngineRequest(kind: kind, variables: variables, cancellation: cancellation))
/// ```
public final class RequestCancellation: Sendable {
    private struct State {
        var cancelled = false
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
    }
    private let state = Mutex(State())

    /// Creates a signal that has not fired.
    public init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Fires the signal: every registered action runs once, on the calling thread.
    public func cancel() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.actions = [:] }
            return Array(state.actions.values)
        }
        for action in actions { action() }
    }

    /// Runs `action` when the signal fires (at once, on this thread, if it has); returns the registration's id for
    /// ``remove(_:)``, or `nil` when `action` already ran.
    func onCancel(_ action: @escaping @Sendable () -> Void) -> UInt64? {
        let id = state.withLock { state -> UInt64? in
            guard !state.cancelled else { return nil }
            state.nextID += 1
            state.actions[state.nextID] = action
            return state.nextID
        }
        if id == nil { action() }
        return id
    }

    /// Forgets an action registered with ``onCancel(_:)``.
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.actions.removeValue(forKey: id) }
    }
}
