import Foundation

/// How long a test waits for an event (a published value, an opened stream, a response) before it calls the
/// wait a hang.
///
/// `make test` runs on a 2-core machine busy with other builds, so these limits only catch hangs and never judge
/// speed: latency and throughput are measured by the benchmarks (`make bench-sdk`, `make bench-realtime`).
enum HangGuard {
    /// For an event in this process, or an answer from an in-process emulator.
    static let event: Duration = .seconds(120)

    /// ``event`` in seconds, for a transport's per-request time-out.
    static var eventSeconds: TimeInterval { TimeInterval(event.components.seconds) }

    /// Polls `condition` every few milliseconds until it holds or `limit` has passed.
    ///
    /// - Parameters:
    ///   - limit: The hang guard.
    ///   - condition: What the test waits for.
    /// - Returns: Whether `condition` held; `false` only after a hang (or when the task is cancelled).
    @discardableResult
    static func wait(upTo limit: Duration = event, until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if condition() { return true }
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                break
            }
        }
        return condition()
    }
}
