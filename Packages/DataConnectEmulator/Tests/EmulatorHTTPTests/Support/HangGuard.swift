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

    /// Polls `condition` every 10 ms until it holds or the hang guard passes; returns whether it held.
    static func wait(until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + event
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
