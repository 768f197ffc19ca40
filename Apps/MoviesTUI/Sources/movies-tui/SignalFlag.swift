import Foundation
import Synchronization

/// The last SIGINT or SIGTERM received, 0 when none; written only by the signal handler.
private let receivedSignal = Atomic<Int32>(0)

/// Turns SIGINT (Ctrl-C), SIGTERM and SIGHUP into a flag the main loop checks, so the app can restore the terminal.
///
/// The handler only stores the signal number in a lock-free atomic, which is async-signal-safe; it never calls
/// ncurses, allocates or locks.
enum SignalFlag {
    /// Installs the handlers.
    static func install() {
        // Initialize the global before a handler can touch it: lazy initialization is not signal-safe.
        _ = receivedSignal.load(ordering: .relaxed)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            _ = signal(number) { number in receivedSignal.store(number, ordering: .relaxed) }
        }
    }

    /// The signal received, if any.
    static var received: Int32? {
        let number = receivedSignal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
