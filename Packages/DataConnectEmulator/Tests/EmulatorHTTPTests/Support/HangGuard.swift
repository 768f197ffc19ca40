import Dispatch
import Foundation

/// How long a test waits for an event (a response, a stream created or ended) before it calls the wait a hang.
///
/// `make test` runs on a 2-core machine busy with other builds, so these limits only catch hangs and never judge
/// speed: the server's throughput and latency are measured by `make bench-emulator`.
enum HangGuard {
    /// For an event from an in-process server.
    static let event: Duration = .seconds(120)

    /// ``event`` in whole seconds, for socket and `URLRequest` time-outs.
    static var eventSeconds: Int { Int(event.components.seconds) }
}

/// Something that happens once, signalled from any thread, that tests wait for.
///
/// Waiting blocks until ``open()`` has been called, or until the hang guard passes; once open, every wait returns at
/// once.
final class Latch: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Marks the event as happened and wakes the waiters.
    func open() {
        semaphore.signal()
    }

    /// Waits for ``open()`` up to the hang guard; returns whether it happened.
    func wait() -> Bool {
        guard semaphore.wait(timeout: .now() + .seconds(HangGuard.eventSeconds)) == .success else { return false }
        semaphore.signal()  // stays open for the next waiter
        return true
    }
}
