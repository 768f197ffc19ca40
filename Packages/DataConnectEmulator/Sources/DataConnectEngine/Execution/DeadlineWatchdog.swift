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

    private let condition = NSCondition()
    /// The scheduled actions; only touched under ``condition``'s lock.
    private var queue = DeadlineQueue()
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
        let (ticket, isFirst) = queue.insert(deadline, action)
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "deadline-watchdog"
            thread.start()
        } else if isFirst, wakeUp.map({ deadline < $0 }) ?? true {
            condition.signal()
        }
        return ticket
    }

    public func cancel(_ ticket: DeadlineTicket) {
        condition.lock()
        let removed = queue.cancel(ticket)
        condition.unlock()
        // The action (and what it holds) is released outside the lock.
        _ = removed
    }

    /// The number of actions waiting for their deadline.
    public var pendingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    private func run() {
        condition.lock()
        while true {
            guard let first = queue.earliest else {
                wakeUp = nil
                condition.wait()
                continue
            }
            let now = ContinuousClock.now
            if first > now {
                let (seconds, attoseconds) = now.duration(to: first).components
                wakeUp = first
                _ = condition.wait(
                    until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18 + 0.000_5))
                continue
            }
            let due = queue.remove(at: 0)
            condition.unlock()
            due?()
            condition.lock()
        }
    }
}

/// The watchdog's actions: a binary min-heap on the deadline over slots that stay put while their entries move, so
/// that a ticket (a slot and its generation) finds its action with no hashing.
private struct DeadlineQueue {
    /// A heap element: a deadline and the slot holding its action.
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let slot: Int
    }

    /// A scheduled action.
    private struct Slot {
        /// Counts the slot's uses: a ticket of an earlier use no longer matches.
        var generation: UInt32 = 0
        /// Where the slot's entry sits in ``heap``; -1 while the slot is free.
        var heapIndex = -1
        var action: (@Sendable () -> Void)?
    }

    private var heap: [Entry] = []
    /// The actions, by slot; free slots are listed in ``freeSlots``.
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []

    /// How many actions wait.
    var count: Int { heap.count }

    /// The earliest deadline, if any action waits.
    var earliest: ContinuousClock.Instant? { heap.first?.deadline }

    /// Adds an action: its ticket, and whether it is now the earliest.
    mutating func insert(
        _ deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void
    ) -> (DeadlineTicket, isFirst: Bool) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.count
            slots.append(Slot())
        }
        slots[slot].action = action
        slots[slot].heapIndex = heap.count
        heap.append(Entry(deadline: deadline, slot: slot))
        siftUp(heap.count - 1)
        let ticket = DeadlineTicket(id: UInt64(slots[slot].generation) << 32 | UInt64(slot))
        return (ticket, heap[0].slot == slot)
    }

    /// Removes the action `ticket` names, if it still waits, and returns it.
    mutating func cancel(_ ticket: DeadlineTicket) -> (@Sendable () -> Void)? {
        let slot = Int(ticket.id & 0xFFFF_FFFF)
        let generation = UInt32(truncatingIfNeeded: ticket.id >> 32)
        guard slot < slots.count, slots[slot].generation == generation, slots[slot].heapIndex >= 0 else { return nil }
        return remove(at: slots[slot].heapIndex)
    }

    /// Takes the entry at `index` out of the heap, frees its slot, and returns its action.
    mutating func remove(at index: Int) -> (@Sendable () -> Void)? {
        let slot = heap[index].slot
        let action = slots[slot].action
        slots[slot].action = nil
        slots[slot].heapIndex = -1
        slots[slot].generation &+= 1
        freeSlots.append(slot)
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            slots[last.slot].heapIndex = index
            siftDown(index)
            siftUp(index)
        }
        return action
    }

    private mutating func swap(_ first: Int, _ second: Int) {
        heap.swapAt(first, second)
        slots[heap[first].slot].heapIndex = first
        slots[heap[second].slot].heapIndex = second
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            swap(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
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
