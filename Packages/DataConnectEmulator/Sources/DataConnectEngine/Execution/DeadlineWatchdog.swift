import Foundation
import Synchronization

/// Calls an action once a deadline passes: how a request's time limit stops a statement that never returns
/// to the engine on its own (one expensive step, a PostgreSQL query).
///
/// The engine uses ``DeadlineWatchdog/shared``; tests pass their own, to decide when a deadline has passed.
public protocol DeadlineScheduler: Sendable {
    /// Calls `action` once, on some other thread, when `deadline` has passed, unless ``cancel(_:)`` comes first.
    ///
    /// - Returns: What ``cancel(_:)`` takes.
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> DeadlineTicket
    /// Forgets a scheduled action; nothing happens when it already ran.
    func cancel(_ ticket: DeadlineTicket)
}

/// A scheduled action of a ``DeadlineScheduler``.
public struct DeadlineTicket: Hashable, Sendable {
    /// The scheduler's number for it.
    public let id: UInt64

    /// Wraps a scheduler's number.
    public init(id: UInt64) {
        self.id = id
    }
}

/// The live ``DeadlineScheduler``: one thread that sleeps until the earliest deadline and runs what is due.
///
/// Scheduling and cancelling cost a lock and a heap operation; the thread wakes only for deadlines that pass,
/// so requests that finish in time never wake it.
public final class DeadlineWatchdog: DeadlineScheduler, @unchecked Sendable {
    /// The process's watchdog, started on first use.
    public static let shared = DeadlineWatchdog()

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let id: UInt64
        let action: @Sendable () -> Void
    }

    private let condition = NSCondition()
    /// A binary min-heap on the deadline.
    private var heap: [Entry] = []
    /// Where each scheduled id sits in ``heap``, so that a cancel removes it at once.
    private var positions: [UInt64: Int] = [:]
    private var nextID: UInt64 = 1
    private var started = false
    /// When the thread wakes up next on its own; `nil` while it waits for a signal. A new action due later needs
    /// no signal (the thread re-reads the heap when it wakes), so requests that end in time cost no wake-up.
    private var wakeUp: ContinuousClock.Instant?

    /// Creates a watchdog; its thread starts with the first scheduled action.
    public init() {}

    public func schedule(
        at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void
    ) -> DeadlineTicket {
        condition.lock()
        defer { condition.unlock() }
        let id = nextID
        nextID += 1
        heap.append(Entry(deadline: deadline, id: id, action: action))
        positions[id] = heap.count - 1
        siftUp(heap.count - 1)
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "deadline-watchdog"
            thread.start()
        } else if heap[0].id == id, wakeUp.map({ deadline < $0 }) ?? true {
            condition.signal()
        }
        return DeadlineTicket(id: id)
    }

    public func cancel(_ ticket: DeadlineTicket) {
        condition.lock()
        defer { condition.unlock() }
        if let index = positions[ticket.id] { _ = remove(at: index) }
    }

    /// The number of actions waiting for their deadline.
    public var pendingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return heap.count
    }

    private func run() {
        condition.lock()
        while true {
            guard let first = heap.first else {
                wakeUp = nil
                condition.wait()
                continue
            }
            let now = ContinuousClock.now
            if first.deadline > now {
                let (seconds, attoseconds) = now.duration(to: first.deadline).components
                wakeUp = first.deadline
                _ = condition.wait(
                    until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18 + 0.000_5))
                continue
            }
            let due = remove(at: 0)
            condition.unlock()
            due.action()
            condition.lock()
        }
    }

    private func remove(at index: Int) -> Entry {
        let removed = heap[index]
        positions[removed.id] = nil
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            positions[last.id] = index
            siftDown(index)
            siftUp(index)
        }
        return removed
    }

    private func swap(_ first: Int, _ second: Int) {
        heap.swapAt(first, second)
        positions[heap[first].id] = first
        positions[heap[second].id] = second
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            swap(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            if smallest == parent { return }
            swap(parent, smallest)
            parent = smallest
        }
    }
}
