import Foundation
import Testing

/// How long a test waits for an event (a line printed, a file written, a response, an exit) before it calls the
/// wait a hang and fails.
///
/// `make test` runs on a 2-core machine busy with other builds, where a debug process doing real work can take
/// tens of seconds. These limits therefore only catch hangs and never judge speed: how fast the tools and the
/// emulator are is measured by the benchmarks (`make bench-*`, see docs/performance.md).
public enum HangGuard {
    /// For a debug `dataconnect` or `movies` process doing real work, and for the events that follow from one.
    public static let process: Duration = .seconds(300)

    /// A hang guard in seconds, for `URLRequest.timeoutInterval`.
    public static func seconds(_ limit: Duration) -> TimeInterval {
        Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
    }

    /// Records a test failure saying that a process or a wait outlived its hang guard.
    public static func record(_ what: String, limit: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record("hang guard: \(what) after \(limit)", sourceLocation: sourceLocation)
    }

    /// Re-checks `condition` until it holds or `limit` has passed, for the few states no event announces (what a
    /// terminal shows).
    ///
    /// Prefer waiting on an event (``ChildProcess/wait(upTo:until:)``). Here the pause between two checks only
    /// spaces them out: the outcome is decided by `condition`, and `limit` only catches hangs.
    ///
    /// - Parameters:
    ///   - limit: The hang guard.
    ///   - interval: The pause between two checks.
    ///   - condition: What the test waits for.
    /// - Returns: Whether `condition` held; `false` only after a hang.
    public static func poll(
        upTo limit: Duration = process, every interval: Duration, until condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: interval)
        }
        return try await condition()
    }
}
