/// A fixed-capacity map that forgets the least recently used entry when a new one does not fit.
///
/// Lookups and insertions are O(1): entries live in an array threaded by a doubly linked recency list,
/// and a dictionary maps keys to their slots. A full cache reuses the slot of its oldest entry, so the
/// working set of a busy server stays cached instead of being dropped wholesale.
///
/// ```swift
/// var cache = LRUCache<String, Int>(capacity: 2)
/// cache["a"] = 1
/// cache["b"] = 2
/// _ = cache["a"]      // "a" is now the most recent
/// cache["c"] = 3      // forgets "b"
/// ```
///
/// Not synchronized: wrap it in a `Mutex` to share it.
package struct LRUCache<Key: Hashable, Value> {
    private struct Entry {
        var key: Key
        var value: Value
        var newer: Int?
        var older: Int?
    }

    /// The most entries kept.
    package let capacity: Int
    private var slots: [Key: Int] = [:]
    private var entries: [Entry] = []
    private var newest: Int?
    private var oldest: Int?

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: The most entries kept; at least 1.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The number of entries.
    package var count: Int { entries.count }

    /// The value for `key`, marking it most recently used; setting a value inserts or replaces it.
    package subscript(key: Key) -> Value? {
        mutating get {
            guard let slot = slots[key] else { return nil }
            touch(slot)
            return entries[slot].value
        }
        set {
            guard let newValue else {
                remove(key)
                return
            }
            insert(newValue, for: key)
        }
    }

    /// The value for `key` without changing the recency order.
    package func peek(_ key: Key) -> Value? {
        slots[key].map { entries[$0].value }
    }

    /// Inserts or replaces the value for `key`, forgetting the least recently used entry when full.
    package mutating func insert(_ value: Value, for key: Key) {
        if let slot = slots[key] {
            entries[slot].value = value
            touch(slot)
            return
        }
        if entries.count < capacity {
            entries.append(Entry(key: key, value: value, newer: nil, older: nil))
            let slot = entries.count - 1
            slots[key] = slot
            link(slot)
            return
        }
        // Full: the oldest entry's slot takes the new key.
        guard let slot = oldest else { return }
        unlink(slot)
        slots[entries[slot].key] = nil
        entries[slot] = Entry(key: key, value: value, newer: nil, older: nil)
        slots[key] = slot
        link(slot)
    }

    /// Forgets every entry.
    package mutating func removeAll() {
        slots = [:]
        entries = []
        newest = nil
        oldest = nil
    }

    /// Forgets `key`'s entry, if any (its slot is filled by the last entry of the array).
    private mutating func remove(_ key: Key) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        unlink(slot)
        let last = entries.count - 1
        if slot != last {
            let moved = entries[last]
            unlink(last)
            entries[slot] = Entry(key: moved.key, value: moved.value, newer: nil, older: nil)
            slots[moved.key] = slot
            entries.removeLast()
            // The moved entry loses its place in the order and becomes the newest: acceptable for a cache.
            link(slot)
        } else {
            entries.removeLast()
        }
    }

    private mutating func touch(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        link(slot)
    }

    /// Puts a detached slot at the newest end.
    private mutating func link(_ slot: Int) {
        entries[slot].older = newest
        entries[slot].newer = nil
        if let newest { entries[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    /// Detaches a slot from the recency list.
    private mutating func unlink(_ slot: Int) {
        let entry = entries[slot]
        if let newer = entry.newer { entries[newer].older = entry.older } else { newest = entry.older }
        if let older = entry.older { entries[older].newer = entry.newer } else { oldest = entry.newer }
        entries[slot].newer = nil
        entries[slot].older = nil
    }
}
