import Foundation
import Synchronization

/// A ``CacheStorage`` in process memory, for the `.memory` cache setting and for tests.
///
/// One lock guards the records and the index. A transaction does not roll back: none of this storage's calls
/// can fail, so a transaction's body only fails for reasons outside storage.
///
/// ```swift
/// let cache = NormalizedCache(storage: MemoryCacheStorage())
/// ```
public final class MemoryCacheStorage: CacheStorage {
    private struct Stores {
        let records = MemoryRecordStore()
        let index = MemoryDependencyIndex()
    }

    private let stores = Mutex(Stores())

    /// Creates an empty storage.
    public init() {}

    public func transaction<T: Sendable>(_ body: (any RecordStore, any DependencyIndex) throws -> T) throws -> T {
        try stores.withLock { stores in try body(stores.records, stores.index) }
    }

    public func clear() {
        stores.withLock { $0 = Stores() }
    }
}

/// The records of a ``MemoryCacheStorage``: dictionaries by id and running totals.
final class MemoryRecordStore: RecordStore {
    private var queries: [String: QueryRecord] = [:]
    private var entities: [String: EntityRecord] = [:]
    private var byteSize = 0

    func query(id: String) -> QueryRecord? {
        queries[id]
    }

    func entities(ids: [String]) -> [String: EntityRecord] {
        var found: [String: EntityRecord] = [:]
        found.reserveCapacity(ids.count)
        for id in ids {
            if let record = entities[id] { found[id] = record }
        }
        return found
    }

    func save(_ record: QueryRecord) {
        byteSize += record.byteSize - (queries.updateValue(record, forKey: record.id)?.byteSize ?? 0)
    }

    func save(_ record: EntityRecord) {
        byteSize += record.byteSize - (entities.updateValue(record, forKey: record.id)?.byteSize ?? 0)
    }

    func removeQuery(id: String) {
        byteSize -= queries.removeValue(forKey: id)?.byteSize ?? 0
    }

    func removeEntity(id: String) {
        byteSize -= entities.removeValue(forKey: id)?.byteSize ?? 0
    }

    func leastRecentlyAccessedQueryIDs(limit: Int) -> [String] {
        guard limit > 0 else { return [] }
        // Keep the `limit` oldest in a small sorted buffer: one pass, no full sort.
        var oldest: [(date: Date, id: String)] = []
        oldest.reserveCapacity(min(limit, queries.count) + 1)
        for record in queries.values {
            let candidate = (date: record.lastAccessed, id: record.id)
            if oldest.count == limit, let last = oldest.last, !Self.precedes(candidate, last) { continue }
            let position = oldest.firstIndex { Self.precedes(candidate, $0) } ?? oldest.endIndex
            oldest.insert(candidate, at: position)
            if oldest.count > limit { oldest.removeLast() }
        }
        return oldest.map(\.id)
    }

    private static func precedes(_ lhs: (date: Date, id: String), _ rhs: (date: Date, id: String)) -> Bool {
        lhs.date != rhs.date ? lhs.date < rhs.date : lhs.id < rhs.id
    }

    func statistics() -> CacheStatistics {
        CacheStatistics(queryCount: queries.count, entityCount: entities.count, byteSize: byteSize)
    }

    func allRecords() -> (queries: [QueryRecord], entities: [EntityRecord]) {
        (queries.values.sorted { $0.id < $1.id }, entities.values.sorted { $0.id < $1.id })
    }
}

/// The dependency index of a ``MemoryCacheStorage``: each query's dependencies and the reverse maps.
final class MemoryDependencyIndex: DependencyIndex {
    private var dependencies: [String: QueryDependencies] = [:]
    /// entity id -> query id -> fields read.
    private var readers: [String: [String: Set<String>]] = [:]
    /// table -> query id -> number of entities of that table the query shows.
    private var showing: [String: [String: Int]] = [:]
    /// table -> query ids listing it.
    private var listing: [String: Set<String>] = [:]

    func dependencies(ofQuery id: String) -> QueryDependencies {
        dependencies[id] ?? QueryDependencies()
    }

    func setDependencies(_ new: QueryDependencies, ofQuery queryID: String) {
        remove(queryID)
        guard !new.entities.isEmpty || !new.listTables.isEmpty else { return }
        dependencies[queryID] = new
        for (entityID, fields) in new.entities {
            readers[entityID, default: [:]][queryID] = fields
            showing[EntityRecord.table(ofEntity: entityID), default: [:]][queryID, default: 0] += 1
        }
        for table in new.listTables {
            listing[table, default: []].insert(queryID)
        }
    }

    private func remove(_ queryID: String) {
        guard let old = dependencies.removeValue(forKey: queryID) else { return }
        for entityID in old.entities.keys {
            readers[entityID]?[queryID] = nil
            if readers[entityID]?.isEmpty == true { readers[entityID] = nil }
            let table = EntityRecord.table(ofEntity: entityID)
            if let count = showing[table]?[queryID] {
                showing[table]?[queryID] = count > 1 ? count - 1 : nil
                if showing[table]?.isEmpty == true { showing[table] = nil }
            }
        }
        for table in old.listTables {
            listing[table]?.remove(queryID)
            if listing[table]?.isEmpty == true { listing[table] = nil }
        }
    }

    func readers(ofEntity id: String) -> [String: Set<String>] {
        readers[id] ?? [:]
    }

    func queryIDs(showingTable table: String) -> Set<String> {
        Set((showing[table] ?? [:]).keys)
    }

    func queryIDs(listingTable table: String) -> Set<String> {
        listing[table] ?? []
    }
}
