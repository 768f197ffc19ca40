import Dispatch
import Foundation
import Synchronization

/// Catches signals (Ctrl-C, SIGTERM) while a long-running command runs, instead of letting them kill it.
///
/// Install it before starting the work, then say what a signal does with ``onSignal(_:)``; a signal that
/// arrives in between is remembered and handled as soon as the action is set.
final class SignalTrap {
    /// What the signal queue and the caller share.
    private final class State: Sendable {
        struct Value {
            var fired = false
            var action: (@Sendable () -> Void)?
        }

        let value = Mutex(Value())

        /// Records a signal; returns the action to run, if it is the first signal and an action is set.
        func fire() -> (@Sendable () -> Void)? {
            value.withLock { value in
                guard !value.fired else { return nil }
                value.fired = true
                return value.action
            }
        }
    }

    private let signals: [Int32]
    private let sources: [any DispatchSourceSignal]
    private let state = State()

    /// Starts catching `signals`: their default action (ending the process) no longer applies.
    ///
    /// - Parameter signals: The signal numbers, e.g. `[SIGINT, SIGTERM]`.
    init(signals: [Int32]) {
        let queue = DispatchQueue(label: "movies.signals")
        let state = self.state
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { state.fire()?() }
            source.resume()
            sources.append(source)
        }
        self.signals = signals
        self.sources = sources
    }

    /// Sets what the first signal does; runs it at once when a signal already arrived.
    ///
    /// - Parameter action: Called once, on a background queue.
    func onSignal(_ action: @escaping @Sendable () -> Void) {
        let alreadyFired = state.value.withLock { value in
            value.action = action
            return value.fired
        }
        if alreadyFired { action() }
    }

    /// Whether a signal arrived.
    var fired: Bool { state.value.withLock { $0.fired } }

    /// Stops catching; the signals' default actions apply again.
    func cancel() {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}
