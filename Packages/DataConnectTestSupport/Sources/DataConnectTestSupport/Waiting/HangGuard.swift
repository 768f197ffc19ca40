import Foundation
import Testing

/// How long a test waits for an event (a line printed, a file written, a response, a stream frame, a published
/// value, an exit) before it calls the wait a hang and fails.
///
/// `make test` runs on a 2-core machine busy with other builds, where a debug process doing real work can take
/// tens of seconds. These limits therefore only catch hangs and never judge speed: how fast the tools, the SDK and
/// the emulator are is measured by the benchmarks (`make bench-*`, see docs/performance.md). Waits for something
/// *not* to happen (no event after an unrelated change) keep their short pauses: a slow machine can only make them
/// pass.
///
/// ```swift
/// request.timeoutInterval = HangGuard.eventSeconds
/// let arrived = await HangGuard.wait { hub.subscriberCount == 1 }
/// #expect(arrived, "hang guard: no subscriber")
/// ```
public enum HangGuard {
    /// For an event in the test's own process: a response from an in-process server or emulator, a published value.
    public static let event: Duration = .seconds(120)

    /// For a debug `dataconnect`, `movies` or `movies-tui` process doing real work, and for the events that follow
    /// from one.
    public static let process: Duration = .seconds(300)

    /// ``event`` in seconds, for `URLRequest.timeoutInterval`, socket and semaphore time-outs.
    public static var eventSeconds: TimeInterval { seconds(event) }

    /// The instant ``event`` from now, for APIs that take a deadline.
    public static var deadline: ContinuousClock.Instant { .now + event }

    /// A hang guard in seconds, for `URLRequest.timeoutInterval`.
    ///
    /// - Parameter limit: The hang guard.
    /// - Returns: The same duration in seconds.
    public static func seconds(_ limit: Duration) -> TimeInterval {
        Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
    }

    /// Records a test failure saying that a process or a wait outlived its hang guard.
    ///
    /// - Parameters:
    ///   - what: What was still going on, e.g. `dataconnect emulator was still running`.
    ///   - limit: The hang guard that passed.
    ///   - sourceLocation: Where the test waited.
    public static func record(_ what: String, limit: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        recorder("hang guard: \(what) after \(limit)", sourceLocation)
    }

    /// Where a passed hang guard is reported: a failing issue of the running test, unless a test of the hang guard
    /// itself collects the reports with `HangGuard.$recorder.withValue { … }`.
    @TaskLocal public static var recorder: @Sendable (String, SourceLocation) -> Void = { message, location in
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    }

    /// Re-checks `condition` until it holds or `limit` has passed, for states no event announces (a counter on
    /// another thread, what a terminal shows).
    ///
    /// Prefer waiting on an event (``ChildProcess/wait(upTo:until:)``, a stream's next element). Here the pause
    /// between two checks only spaces them out: the outcome is decided by `condition`, and `limit` only catches
    /// hangs. When the task is cancelled the wait stops and the condition is checked one last time.
    ///
    /// - Parameters:
    ///   - limit: The hang guard.
    ///   - interval: The pause between two checks.
    ///   - condition: What the test waits for.
    /// - Returns: Whether `condition` held; `false` only after a hang (or when the task is cancelled).
    /// - Throws: What `condition` throws.
    @discardableResult
    public static func wait(
        upTo limit: Duration = event, every interval: Duration = .milliseconds(5),
        until condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            do {
                try await Task.sleep(for: interval)
            } catch {
                break
            }
        }
        return try await condition()
    }
}
