import Foundation
import Synchronization

/// A ``CacheStorage`` in process memory, for the `.memory` cache setting and for tests.
///
/// Every call takes one lock. A transaction does not roll back: none of this storage's calls can fail, so a
/// transaction's body only fails for reasons outside storage.
///
/// ```swift
/// let cache = NormalizedCache(storage: MemoryCacheStorage())
/// ```
public final class MemoryCacheStorage: CacheStorage {
    private struct State {
        var queries: [String: QueryRecord] = [:]
        var dependencies: [String: QueryDependencies] = [:]
        var entities: [String: EntityRecord] = [:]
        /// entity id -> query id -> fields read.
        var readers: [String: [String: Set<String>]] = [:]
        /// table -> query id -> number of entities of that table the query shows.
        var showing: [String: [String: Int]] = [:]
        /// table -> query ids listing it.
        var listing: [String: Set<String>] = [:]
        var byteSize = 0

        mutating func removeDependencies(of queryID: String) {
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

        mutating func addDependencies(_ new: QueryDependencies, of queryID: String) {
            dependencies[queryID] = new
            for (entityID, fields) in new.entities {
                readers[entityID, default: [:]][queryID] = fields
                showing[EntityRecord.table(ofEntity: entityID), default: [:]][queryID, default: 0] += 1
            }
            for table in new.listTables {
                listing[table, default: []].insert(queryID)
            }
        }
    }

    private let state = Mutex(State())

    /// Creates an empty storage.
    public init() {}

    public func query(id: String) -> QueryRecord? {
        state.withLock { $0.queries[id] }
    }

    public func saveQuery(_ record: QueryRecord, dependencies: QueryDependencies) {
        state.withLock { state in
            if let old = state.queries[record.id] { state.byteSize -= old.byteSize }
            state.queries[record.id] = record
            state.byteSize += record.byteSize
            state.removeDependencies(of: record.id)
            state.addDependencies(dependencies, of: record.id)
        }
    }

    public func deleteQuery(id: String) {
        state.withLock { state in
            guard let old = state.queries.removeValue(forKey: id) else { return }
            state.byteSize -= old.byteSize
            state.removeDependencies(of: id)
        }
    }

    public func dependencies(ofQuery id: String) -> QueryDependencies {
        state.withLock { $0.dependencies[id] ?? QueryDependencies() }
    }

    public func markStale(queryIDs: Set<String>) {
        state.withLock { state in
            for id in queryIDs {
                state.queries[id]?.isStale = true
            }
        }
    }

    public func clearStale(queryIDs: Set<String>) {
        state.withLock { state in
            for id in queryIDs {
                state.queries[id]?.isStale = false
            }
        }
    }

    public func touch(queryID: String, at date: Date) {
        state.withLock { $0.queries[queryID]?.lastAccessed = date }
    }

    public func leastRecentlyAccessedQueryIDs(limit: Int) -> [String] {
        guard limit > 0 else { return [] }
        return state.withLock { state in
            // Keep the `limit` oldest in a small sorted buffer: one pass, no full sort.
            var oldest: [(date: Date, id: String)] = []
            oldest.reserveCapacity(limit + 1)
            for record in state.queries.values {
                let candidate = (date: record.lastAccessed, id: record.id)
                if oldest.count == limit, let last = oldest.last, !Self.precedes(candidate, last) { continue }
                let position = oldest.firstIndex { Self.precedes(candidate, $0) } ?? oldest.endIndex
                oldest.insert(candidate, at: position)
                if oldest.count > limit { oldest.removeLast() }
            }
            return oldest.map(\.id)
        }
    }

    private static func precedes(_ lhs: (date: Date, id: String), _ rhs: (date: Date, id: String)) -> Bool {
        lhs.date != rhs.date ? lhs.date < rhs.date : lhs.id < rhs.id
    }

    public func allQueries() -> [QueryRecord] {
        state.withLock { $0.queries.values.sorted { $0.id < $1.id } }
    }

    public func entities(ids: [String]) -> [String: EntityRecord] {
        state.withLock { state in
            var found: [String: EntityRecord] = [:]
            found.reserveCapacity(ids.count)
            for id in ids {
                if let record = state.entities[id] { found[id] = record }
            }
            return found
        }
    }

    public func saveEntity(_ record: EntityRecord) {
        state.withLock { state in
            if let old = state.entities[record.id] { state.byteSize -= old.byteSize }
            state.entities[record.id] = record
            state.byteSize += record.byteSize
        }
    }

    public func deleteEntity(id: String) {
        state.withLock { state in
            guard let old = state.entities.removeValue(forKey: id) else { return }
            state.byteSize -= old.byteSize
        }
    }

    public func allEntities() -> [EntityRecord] {
        state.withLock { $0.entities.values.sorted { $0.id < $1.id } }
    }

    public func readers(ofEntity id: String) -> [String: Set<String>] {
        state.withLock { $0.readers[id] ?? [:] }
    }

    public func queryIDs(showingTable table: String) -> Set<String> {
        state.withLock { Set(($0.showing[table] ?? [:]).keys) }
    }

    public func queryIDs(listingTable table: String) -> Set<String> {
        state.withLock { $0.listing[table] ?? [] }
    }

    public func isEntityReferenced(_ id: String) -> Bool {
        state.withLock { $0.readers[id]?.isEmpty == false }
    }

    public func totalByteSize() -> Int {
        state.withLock { $0.byteSize }
    }

    public func statistics() -> CacheStatistics {
        state.withLock {
            CacheStatistics(queryCount: $0.queries.count, entityCount: $0.entities.count, byteSize: $0.byteSize)
        }
    }

    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try body()
    }

    public func clear() {
        state.withLock { $0 = State() }
    }
}
