/// How long a test lets a transport wait for a server that does answer, before the wait counts as a hang.
///
/// The tests run on a 2-core machine busy with other builds, so the limit only catches hangs and never judges
/// speed. Waits meant to pass (a server that never answers) use short deadlines: a slow machine only makes them
/// pass sooner.
enum HangGuard {
    /// For an answer from a server in the same process.
    static let event: Duration = .seconds(120)

    /// The deadline of a request that should be answered.
    static var deadline: ContinuousClock.Instant { .now + event }
}
