import DataConnectWire
import Foundation

/// Hydrated results of recent reads, keyed by query id, with the use they recorded.
///
/// An entry is dropped whenever its query's content or staleness may have changed (a write, a mutation's
/// effects, eviction, a failed operation); so while it lives, it equals what hydrating the stored records would
/// give. Each entry gets a new version, which lets callers reuse what they decoded from it.
struct ReadMemo: Sendable {
    struct Entry: Sendable {
        var data: JSONObject
        var cachedAt: Date
        var maxAge: TimeInterval
        var isStale: Bool
        var version: UInt64
    }

    /// The most entries kept; past it, an arbitrary entry makes room.
    static let capacity = 512

    var entries: [String: Entry] = [:]
    /// Last-accessed times of reads answered here, written to storage before eviction picks its victims.
    var pendingTouches: [String: Date] = [:]
    private var nextVersion: UInt64 = 1

    /// Drops remembered reads of `queries`, whose content or staleness changed.
    mutating func forget(_ queries: some Sequence<String>) {
        for id in queries { entries[id] = nil }
    }

    /// Stores a freshly hydrated result and returns its version.
    mutating func remember(
        _ id: String, data: JSONObject, cachedAt: Date, maxAge: TimeInterval, isStale: Bool
    )
        -> UInt64
    {
        if entries.count >= Self.capacity, let victim = entries.keys.first {
            entries[victim] = nil
        }
        let version = nextVersion
        nextVersion += 1
        entries[id] = Entry(data: data, cachedAt: cachedAt, maxAge: maxAge, isStale: isStale, version: version)
        return version
    }
}
