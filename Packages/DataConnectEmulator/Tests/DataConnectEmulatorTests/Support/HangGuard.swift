import Foundation

/// How long a test waits for an event (a response, a stream frame, a subscriber count) before it calls the
/// wait a hang.
///
/// `make test` runs on a 2-core machine busy with other builds, so these limits only catch hangs and never judge
/// speed: the emulator's latency is measured by the benchmarks (`make bench-emulator`, `make bench-realtime`).
/// Waits for something *not* to happen (no event after an unrelated change) keep their short pauses: a slow
/// machine can only make them pass.
enum HangGuard {
    /// For an event from an in-process emulator.
    static let event: Duration = .seconds(120)

    /// ``event`` in seconds, for `URLRequest.timeoutInterval`.
    static var eventSeconds: TimeInterval { TimeInterval(event.components.seconds) }
}
