import DataConnectWire
import Foundation
import Synchronization

/// The normalized client cache: stores query results as trees over shared entity records.
///
/// A write splits a response into a per-query tree and entity records using `extensions.dataConnect`; a read
/// rebuilds the exact JSON the server sent. Because entities are shared, a write of one query reports the other
/// queries whose result it changed, and a mutation's ids and actions update or invalidate cached queries.
/// The cache stays under a size cap by evicting the least recently used query results that are not pinned.
///
/// All methods are safe to call from any thread; they run one at a time. They throw only what the storage
/// throws (for example an SQLite I/O error).
///
/// ```swift
/// let cache = NormalizedCache(storage: MemoryCacheStorage(), maxSize: 10_000_000, maxAge: 60)
/// let key = QueryKey(operationName: "GetMovie", variables: ["id": "m1"])
/// try cache.write(query: key, response: response.data, properties: response.extensions.dataConnect)
/// let cached = try cache.read(query: key, allowStale: false)?.data
/// ```
public final class NormalizedCache: Sendable {
    /// The storage the cache runs on.
    let storage: any CacheStorage
    /// The size cap in bytes (see ``CacheStatistics/byteSize``).
    public let maxSize: Int
    /// How long a result stays fresh, in seconds, when neither the write nor the server says otherwise.
    public let maxAge: TimeInterval

    let clock: @Sendable () -> Date
    /// Serializes operations; holds the pinned query ids.
    let pinned = Mutex<Set<QueryKey.ID>>([])
    /// Why queries went stale after mutations: per query, per entity, the fields it shows that the mutation may
    /// have changed. A later result carrying all those fields makes the query fresh again without a refetch;
    /// ``unknownReason`` (an insert or bulk change) never clears. Only touched with ``pinned`` locked.
    let staleReasons = Mutex<[QueryKey.ID: [String: Set<String>]]>([:])
    /// The reason key of staleness no single entity write can cure.
    static let unknownReason = "*"
    /// Hydrated results of recent reads, so a repeated read costs a lookup. Only touched with ``pinned`` locked.
    let memo = Mutex(ReadMemo())

    /// Creates a cache over a storage.
    ///
    /// - Parameters:
    ///   - storage: Where records live: ``MemoryCacheStorage`` or ``SQLiteCacheStorage``.
    ///   - maxSize: The size cap in bytes; 100 MB by default.
    ///   - maxAge: The default freshness in seconds; 0 by default, so results are stale as soon as time passes.
    ///   - clock: The current time; injected for tests.
    public init(
        storage: any CacheStorage, maxSize: Int = 100_000_000, maxAge: TimeInterval = 0,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.maxSize = maxSize
        self.maxAge = maxAge
        self.clock = clock
    }

    // MARK: Writing and reading

    /// Stores a query's result and reports the other queries whose cached result changed.
    ///
    /// Objects at paths with an `entityId` are stored once as entity records shared by all queries; the query's
    /// tree keeps references, lists and everything without an id. The result's `maxAge` is the smallest
    /// per-path `maxAge` in `properties`, else `maxAge`, else the cache's ``maxAge``. The query counts as fresh
    /// and most recently used.
    ///
    /// ```swift
    /// let update = try cache.write(query: key, response: data, properties: extensions.dataConnect)
    /// update.changedQueries  // other queries showing an entity field whose value changed
    /// ```
    ///
    /// - Parameters:
    ///   - query: The query's key.
    ///   - data: The response's `data` object.
    ///   - properties: The response's `extensions.dataConnect`.
    ///   - maxAge: The freshness for this result, in seconds, unless the server sent per-path values.
    /// - Returns: The queries whose result changed (this one too when its own result changed) and the queries
    ///   evicted to keep the size cap.
    /// - Throws: Storage errors.
    @discardableResult
    public func write(
        query: QueryKey, response data: JSONObject, properties: [DataConnectProperties], maxAge: TimeInterval? = nil
    ) throws -> CacheUpdate {
        let normalized = Normalizer(properties: properties).normalize(data)
        let tree = normalized.tree.serialized()
        let dependencies = ResultTree.dependencies(of: normalized.tree)
        return try pinned.withLock { pinned in
            try changing {
                try storage.transaction {
                    let now = clock()
                    let old = try storage.query(id: query.id)
                    let oldDependencies = old == nil ? QueryDependencies() : try storage.dependencies(ofQuery: query.id)
                    let changedFields = try mergeEntities(normalized.entities)
                    var changed = try readers(of: changedFields, excluding: query.id)
                    let readsChangedField = dependencies.entities.contains { id, read in
                        changedFields[id].map { !read.isDisjoint(with: $0) } ?? false
                    }
                    if old?.tree != tree || readsChangedField {
                        changed.insert(query.id)
                    }
                    let record = QueryRecord(
                        id: query.id, tree: tree, cachedAt: now, maxAge: normalized.maxAge ?? maxAge ?? self.maxAge,
                        lastAccessed: now
                    )
                    try storage.saveQuery(record, dependencies: dependencies)
                    try refreshStaleQueries(with: normalized.entities, written: query.id)
                    try sweepOrphans(Set(oldDependencies.entities.keys).subtracting(dependencies.entities.keys))
                    let evicted = try evictIfNeeded(pinned: pinned)
                    forget(changed.union([query.id]))
                    return CacheUpdate(changedQueries: changed.subtracting(evicted), evictedQueries: evicted)
                }
            }
        }
    }

    /// Reads a query's result, rebuilt exactly as the server sent it.
    ///
    /// A result is stale when it is older than its `maxAge` or a mutation marked it stale. Reading counts as a
    /// use for eviction.
    ///
    /// ```swift
    /// if let cached = try cache.read(query: key) { decode(cached.data) }
    /// ```
    ///
    /// - Parameters:
    ///   - query: The query's key.
    ///   - allowStale: Whether to return a stale result rather than `nil`.
    /// - Returns: The result, or `nil` when the query is not cached, is stale and `allowStale` is false, or
    ///   refers to records storage no longer has.
    /// - Throws: Storage errors.
    public func read(query: QueryKey, allowStale: Bool = false) throws -> CachedRead? {
        try pinned.withLock { _ in
            let now = clock()
            if let entry = memo.withLock({ $0.entries[query.id] }) {
                let isStale = entry.isStale || now.timeIntervalSince(entry.cachedAt) > entry.maxAge
                guard allowStale || !isStale else { return nil }
                memo.withLock { $0.pendingTouches[query.id] = now }
                return CachedRead(data: entry.data, cachedAt: entry.cachedAt, isStale: isStale, version: entry.version)
            }
            guard let record = try storage.query(id: query.id) else { return nil }
            let isStale = record.isStale || now.timeIntervalSince(record.cachedAt) > record.maxAge
            guard allowStale || !isStale else { return nil }
            guard let tree = try? JSONValue(parsing: record.tree) else { return nil }
            let records = try storage.entities(ids: Hydrator.entityIDs(in: tree))
            var entities: [String: JSONObject] = [:]
            entities.reserveCapacity(records.count)
            for (id, entity) in records {
                guard case .object(let fields)? = try? JSONValue(parsing: entity.fields) else { return nil }
                entities[id] = fields
            }
            guard case .object(let data)? = try? Hydrator(entities: entities).hydrate(tree) else { return nil }
            try storage.touch(queryID: query.id, at: now)
            let version = memo.withLock { memo in
                memo.remember(
                    query.id, data: data, cachedAt: record.cachedAt, maxAge: record.maxAge, isStale: record.isStale)
            }
            return CachedRead(data: data, cachedAt: record.cachedAt, isStale: isStale, version: version)
        }
    }

    /// Drops remembered reads of `queries`, whose content or staleness changed.
    func forget(_ queries: some Sequence<QueryKey.ID>) {
        memo.withLock { memo in
            for id in queries { memo.entries[id] = nil }
        }
    }

    /// Runs a changing operation; if it fails midway, nothing remembered can be trusted.
    func changing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            memo.withLock { $0.entries.removeAll() }
            throw error
        }
    }

    /// Whether a query has a cached result that is neither past its `maxAge` nor marked stale.
    ///
    /// - Throws: Storage errors.
    public func isFresh(_ query: QueryKey) throws -> Bool {
        try pinned.withLock { _ in
            guard let record = try storage.query(id: query.id) else { return false }
            return !record.isStale && clock().timeIntervalSince(record.cachedAt) <= record.maxAge
        }
    }

    /// Orders stale queries for refetching: those showing the most entities first, since their fresh results
    /// often refresh every field the smaller ones show and so make those fresh without a request.
    ///
    /// ```swift
    /// for id in try cache.refetchOrder(update.staleQueries) where !(try cache.isFresh(keys[id]!)) { … }
    /// ```
    ///
    /// - Throws: Storage errors.
    public func refetchOrder(_ queries: Set<QueryKey.ID>) throws -> [QueryKey.ID] {
        try pinned.withLock { _ in
            let sizes = try queries.map { ($0, try storage.dependencies(ofQuery: $0).entities.count) }
            return sizes.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
        }
    }

    // MARK: Pinning

    /// Protects a query from eviction, typically while it is observed.
    ///
    /// ```swift
    /// cache.pin(key)    // a ref starts observing
    /// cache.unpin(key)  // the ref is released
    /// ```
    public func pin(_ query: QueryKey) {
        pinned.withLock { _ = $0.insert(query.id) }
    }

    /// Makes a pinned query an eviction candidate again.
    public func unpin(_ query: QueryKey) {
        pinned.withLock { _ = $0.remove(query.id) }
    }

    // MARK: Maintenance

    /// Deletes every cached record; pins are kept.
    ///
    /// - Throws: Storage errors.
    public func clear() throws {
        try pinned.withLock { _ in
            staleReasons.withLock { $0.removeAll() }
            memo.withLock { $0 = ReadMemo() }
            try storage.clear()
        }
    }

    /// Counts and size of what the cache holds.
    ///
    /// - Throws: Storage errors.
    public func statistics() throws -> CacheStatistics {
        try pinned.withLock { _ in try storage.statistics() }
    }

    /// The whole cache as JSON, for debugging.
    ///
    /// The shape is `{"queries": [{"id", "cachedAt", "maxAge", "lastAccessed", "isStale", "byteSize", "tree"}],
    /// "entities": {id: fields}}`, with times in seconds since 1970 and trees in their dehydrated form.
    ///
    /// ```swift
    /// print(try cache.dump().jsonString())
    /// ```
    ///
    /// - Throws: Storage errors.
    public func dump() throws -> JSONValue {
        try pinned.withLock { _ in
            let queries: [JSONValue] = try storage.allQueries().map { record in
                .object([
                    "id": .string(record.id),
                    "cachedAt": JSONValue(record.cachedAt.timeIntervalSince1970),
                    "maxAge": JSONValue(record.maxAge),
                    "lastAccessed": JSONValue(record.lastAccessed.timeIntervalSince1970),
                    "isStale": .bool(record.isStale),
                    "byteSize": JSONValue(record.byteSize),
                    "tree": (try? JSONValue(parsing: record.tree)) ?? .null,
                ])
            }
            let entities = try storage.allEntities().map { record in
                (record.id, (try? JSONValue(parsing: record.fields)) ?? .null)
            }
            return .object(["queries": .array(queries), "entities": .object(JSONObject(entities))])
        }
    }

    // MARK: Shared steps (called with the lock held, inside a storage transaction)

    /// Merges field values into entity records.
    ///
    /// - Returns: For each entity whose record changed, the keys whose values changed or appeared.
    func mergeEntities(_ entities: [String: JSONObject]) throws -> [String: Set<String>] {
        guard !entities.isEmpty else { return [:] }
        let existing = try storage.entities(ids: Array(entities.keys))
        var changedFields: [String: Set<String>] = [:]
        for (id, fields) in entities {
            var merged: JSONObject
            if let record = existing[id], case .object(let old)? = try? JSONValue(parsing: record.fields) {
                merged = old
            } else {
                merged = JSONObject()
            }
            var changed: Set<String> = []
            for (key, value) in fields {
                if let old = merged[key], old.isIdentical(to: value) { continue }
                changed.insert(key)
                merged[key] = value
            }
            if !changed.isEmpty || existing[id] == nil {
                try storage.saveEntity(EntityRecord(id: id, fields: JSONValue.object(merged).serialized()))
            }
            if !changed.isEmpty {
                changedFields[id] = changed
            }
        }
        return changedFields
    }

    /// The queries that read at least one of the changed fields.
    func readers(of changedFields: [String: Set<String>], excluding excluded: QueryKey.ID?) throws -> Set<QueryKey.ID> {
        var result: Set<QueryKey.ID> = []
        for (entityID, keys) in changedFields {
            for (queryID, read) in try storage.readers(ofEntity: entityID)
            where queryID != excluded && !read.isDisjoint(with: keys) {
                result.insert(queryID)
            }
        }
        return result
    }

    /// Clears the staleness of queries whose every stale entity field was just written fresh from the server.
    func refreshStaleQueries(with entities: [String: JSONObject], written: QueryKey.ID?) throws {
        var fresh: Set<QueryKey.ID> = []
        staleReasons.withLock { reasons in
            if let written { reasons[written] = nil }
            for (queryID, var pending) in reasons {
                for (entityID, needed) in pending where entityID != Self.unknownReason {
                    guard let fields = entities[entityID], needed.allSatisfy({ fields[$0] != nil }) else { continue }
                    pending[entityID] = nil
                }
                if pending.isEmpty {
                    reasons[queryID] = nil
                    fresh.insert(queryID)
                } else {
                    reasons[queryID] = pending
                }
            }
        }
        if !fresh.isEmpty {
            try storage.clearStale(queryIDs: fresh)
            forget(fresh)
        }
    }

    /// Records why queries went stale (see ``staleReasons``).
    func recordStaleness(_ reasons: [QueryKey.ID: [String: Set<String>]]) {
        staleReasons.withLock { all in
            for (queryID, entities) in reasons {
                all[queryID, default: [:]].merge(entities) { $0.union($1) }
            }
        }
    }

    /// Deletes the entities among `candidates` that no query shows any more.
    func sweepOrphans(_ candidates: some Sequence<String>) throws {
        for id in candidates where try !storage.isEntityReferenced(id) {
            try storage.deleteEntity(id: id)
        }
    }

    /// Evicts unpinned queries, least recently accessed first, until the cache fits its cap.
    func evictIfNeeded(pinned: Set<QueryKey.ID>) throws -> Set<QueryKey.ID> {
        // Reads answered from memory recorded their use here; the order below needs it.
        let touches = memo.withLock { memo -> [String: Date] in
            let touches = memo.pendingTouches
            memo.pendingTouches.removeAll()
            return touches
        }
        for (id, date) in touches {
            try storage.touch(queryID: id, at: date)
        }
        var size = try storage.totalByteSize()
        guard size > maxSize else { return [] }
        var evicted: Set<QueryKey.ID> = []
        while size > maxSize {
            let batch = try storage.leastRecentlyAccessedQueryIDs(limit: pinned.count + 16)
            let candidates = batch.filter { !pinned.contains($0) }
            guard !candidates.isEmpty else { break }
            for id in candidates {
                let dependencies = try storage.dependencies(ofQuery: id)
                try storage.deleteQuery(id: id)
                try sweepOrphans(dependencies.entities.keys)
                forget([id])
                evicted.insert(id)
                size = try storage.totalByteSize()
                if size <= maxSize { break }
            }
        }
        return evicted
    }
}

extension JSONValue {
    /// Equal values with objects' keys in the same order: what a reader would see as the same JSON.
    func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let lhs), .object(let rhs)):
            guard lhs.count == rhs.count else { return false }
            for index in 0..<lhs.count {
                let (left, right) = (lhs[index], rhs[index])
                guard left.key == right.key, left.value.isIdentical(to: right.value) else { return false }
            }
            return true
        case (.array(let lhs), .array(let rhs)):
            guard lhs.count == rhs.count else { return false }
            return zip(lhs, rhs).allSatisfy { $0.isIdentical(to: $1) }
        default:
            return self == other
        }
    }
}
