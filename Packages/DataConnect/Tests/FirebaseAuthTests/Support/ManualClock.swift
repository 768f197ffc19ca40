import Foundation
import Synchronization

/// A clock tests move by hand: `now` for `AuthEnvironment.now`, `sleep(for:)` for `AuthEnvironment.sleep`.
///
/// Sleepers wake when ``advance(by:)`` moves the time past their deadline; ``sleepers()`` lets a test wait
/// until the code under test has gone to sleep, so no test waits on the wall clock.
final class ManualClock: Sendable {
    private struct Sleeper {
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        /// Tests waiting for a number of sleepers, by id.
        var sleeperWaiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]

        /// Removes the sleeper waiters now satisfied, to be resumed outside the lock.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = sleeperWaiters.filter { $0.value.count <= sleepers.count }
            for id in ready.keys { sleeperWaiters[id] = nil }
            return ready.values.map(\.continuation)
        }
    }

    private let state: Mutex<State>

    init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Mutex(State(now: now))
    }

    var now: Date { state.withLock { $0.now } }

    /// Suspends until the clock passes `now + duration`, or throws `CancellationError` when cancelled.
    func sleep(for duration: Duration) async throws {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    let deadline = state.now.addingTimeInterval(seconds)
                    if deadline <= state.now || Task.isCancelled { return (true, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, state.satisfiedWaiters())
                }
                for waiter in waiters { waiter.resume() }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward and wakes the sleepers whose deadline has passed.
    func advance(by seconds: TimeInterval) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(seconds)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// The deadlines of the current sleepers.
    func sleepers() -> [Date] {
        state.withLock { $0.sleepers.values.map(\.deadline).sorted() }
    }

    /// Waits until `count` sleepers are suspended (woken when one goes to sleep; a 60 s hang guard ends a wait that
    /// would never end); returns whether they are.
    func waitForSleepers(_ count: Int = 1) async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        let guardTask = Task { [weak self] in
            try? await Task.sleep(for: .seconds(60))
            let waiter = self?.state.withLock { $0.sleeperWaiters.removeValue(forKey: id) }
            waiter?.continuation.resume()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleeperWaiters[id] = (count, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        guardTask.cancel()
        return sleepers().count >= count
    }
}
