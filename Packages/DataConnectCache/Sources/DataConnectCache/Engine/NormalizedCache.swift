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

    /// What the engine keeps besides storage.
    struct State: Sendable {
        /// Queries protected from eviction.
        var pinned: Set<QueryKey.ID> = []
        /// Why queries went stale after mutations: per query, per entity, the fields it shows that the mutation
        /// may have changed. A later result carrying all those fields makes the query fresh again without a
        /// refetch; ``unknownReason`` (an insert or bulk change) never clears.
        var staleReasons: [QueryKey.ID: [String: Set<String>]] = [:]
        /// Hydrated results of recent reads, so a repeated read costs a lookup.
        var memo = ReadMemo()
    }

    /// The engine's one lock: serializes operations and guards ``State``.
    let state = Mutex(State())
    /// The reason key of staleness no single entity write can cure.
    static let unknownReason = "*"

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
        return try state.withLock { state in
            try changing(&state) { state in
                try storage.transaction { records, index in
                    let store = Store(records: records, index: index)
                    let now = clock()
                    let old = try records.query(id: query.id)
                    let oldDependencies = old == nil ? QueryDependencies() : try index.dependencies(ofQuery: query.id)
                    let changedFields = try store.mergeEntities(normalized.entities)
                    var changed = try store.readers(of: changedFields, excluding: query.id)
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
                    try records.save(record)
                    try index.setDependencies(dependencies, ofQuery: query.id)
                    try refreshStaleQueries(with: normalized.entities, written: query.id, state: &state, store: store)
                    try store.sweepOrphans(Set(oldDependencies.entities.keys).subtracting(dependencies.entities.keys))
                    let evicted = try evictIfNeeded(state: &state, store: store)
                    state.memo.forget(changed.union([query.id]))
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
        try state.withLock { state in
            let now = clock()
            if let entry = state.memo.entries[query.id] {
                let isStale = entry.isStale || now.timeIntervalSince(entry.cachedAt) > entry.maxAge
                guard allowStale || !isStale else { return nil }
                state.memo.pendingTouches[query.id] = now
                return CachedRead(data: entry.data, cachedAt: entry.cachedAt, isStale: isStale, version: entry.version)
            }
            let hydrated = try storage.transaction { records, _ -> (data: JSONObject, record: QueryRecord)? in
                guard var record = try records.query(id: query.id) else { return nil }
                let isStale = record.isStale || now.timeIntervalSince(record.cachedAt) > record.maxAge
                guard allowStale || !isStale else { return nil }
                guard let tree = try? JSONValue(parsing: record.tree) else { return nil }
                let entityRecords = try records.entities(ids: Hydrator.entityIDs(in: tree))
                var entities: [String: JSONObject] = [:]
                entities.reserveCapacity(entityRecords.count)
                for (id, entity) in entityRecords {
                    guard case .object(let fields)? = try? JSONValue(parsing: entity.fields) else { return nil }
                    entities[id] = fields
                }
                guard case .object(let data)? = try? Hydrator(entities: entities).hydrate(tree) else { return nil }
                record.lastAccessed = now
                try records.save(record)
                return (data, record)
            }
            guard let (data, record) = hydrated else { return nil }
            let version = state.memo.remember(
                query.id, data: data, cachedAt: record.cachedAt, maxAge: record.maxAge, isStale: record.isStale)
            let isStale = record.isStale || now.timeIntervalSince(record.cachedAt) > record.maxAge
            return CachedRead(data: data, cachedAt: record.cachedAt, isStale: isStale, version: version)
        }
    }

    /// Runs a changing operation; if it fails midway, nothing remembered can be trusted.
    func changing<T>(_ state: inout State, _ body: (inout State) throws -> T) throws -> T {
        do {
            return try body(&state)
        } catch {
            state.memo.entries.removeAll()
            throw error
        }
    }

    /// Whether a query has a cached result that is neither past its `maxAge` nor marked stale.
    ///
    /// - Throws: Storage errors.
    public func isFresh(_ query: QueryKey) throws -> Bool {
        try state.withLock { _ in
            guard let record = try storage.transaction({ records, _ in try records.query(id: query.id) }) else {
                return false
            }
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
        try state.withLock { _ in
            let sizes = try storage.transaction { _, index in
                try queries.map { ($0, try index.dependencies(ofQuery: $0).entities.count) }
            }
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
        state.withLock { _ = $0.pinned.insert(query.id) }
    }

    /// Makes a pinned query an eviction candidate again.
    public func unpin(_ query: QueryKey) {
        state.withLock { _ = $0.pinned.remove(query.id) }
    }

    // MARK: Maintenance

    /// Deletes every cached record; pins are kept.
    ///
    /// - Throws: Storage errors.
    public func clear() throws {
        try state.withLock { state in
            state.staleReasons.removeAll()
            state.memo = ReadMemo()
            try storage.clear()
        }
    }

    /// Counts and size of what the cache holds.
    ///
    /// - Throws: Storage errors.
    public func statistics() throws -> CacheStatistics {
        try state.withLock { _ in try storage.transaction { records, _ in try records.statistics() } }
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
        try state.withLock { _ in
            let all = try storage.transaction { records, _ in try records.allRecords() }
            let queries: [JSONValue] = all.queries.map { record in
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
            let entities = all.entities.map { record in
                (record.id, (try? JSONValue(parsing: record.fields)) ?? .null)
            }
            return .object(["queries": .array(queries), "entities": .object(JSONObject(entities))])
        }
    }

    // MARK: Shared steps (called with the lock held, inside a storage transaction)

    /// Clears the staleness of queries whose every stale entity field was just written fresh from the server.
    func refreshStaleQueries(
        with entities: [String: JSONObject], written: QueryKey.ID?, state: inout State, store: Store
    ) throws {
        var fresh: Set<QueryKey.ID> = []
        if let written { state.staleReasons[written] = nil }
        for (queryID, var pending) in state.staleReasons {
            for (entityID, needed) in pending where entityID != Self.unknownReason {
                guard let fields = entities[entityID], needed.allSatisfy({ fields[$0] != nil }) else { continue }
                pending[entityID] = nil
            }
            if pending.isEmpty {
                state.staleReasons[queryID] = nil
                fresh.insert(queryID)
            } else {
                state.staleReasons[queryID] = pending
            }
        }
        if !fresh.isEmpty {
            try store.setStale(false, queryIDs: fresh)
            state.memo.forget(fresh)
        }
    }

    /// Records why queries went stale (see ``State/staleReasons``).
    func recordStaleness(_ reasons: [QueryKey.ID: [String: Set<String>]], state: inout State) {
        for (queryID, entities) in reasons {
            state.staleReasons[queryID, default: [:]].merge(entities) { $0.union($1) }
        }
    }

    /// Evicts unpinned queries, least recently accessed first, until the cache fits its cap.
    func evictIfNeeded(state: inout State, store: Store) throws -> Set<QueryKey.ID> {
        // Reads answered from memory recorded their use here; the order below needs it.
        let touches = state.memo.pendingTouches
        state.memo.pendingTouches.removeAll()
        for (id, date) in touches {
            guard var record = try store.records.query(id: id) else { continue }
            record.lastAccessed = date
            try store.records.save(record)
        }
        var size = try store.records.statistics().byteSize
        guard size > maxSize else { return [] }
        var evicted: Set<QueryKey.ID> = []
        while size > maxSize {
            let batch = try store.records.leastRecentlyAccessedQueryIDs(limit: state.pinned.count + 16)
            let candidates = batch.filter { !state.pinned.contains($0) }
            guard !candidates.isEmpty else { break }
            for id in candidates {
                let dependencies = try store.index.dependencies(ofQuery: id)
                try store.records.removeQuery(id: id)
                try store.index.setDependencies(QueryDependencies(), ofQuery: id)
                try store.sweepOrphans(dependencies.entities.keys)
                state.memo.forget([id])
                evicted.insert(id)
                size = try store.records.statistics().byteSize
                if size <= maxSize { break }
            }
        }
        return evicted
    }
}

/// The records and the index of one storage transaction, with the steps the engine's operations share.
struct Store {
    let records: any RecordStore
    let index: any DependencyIndex

    /// Merges field values into entity records.
    ///
    /// - Returns: For each entity whose record changed, the keys whose values changed or appeared.
    func mergeEntities(_ entities: [String: JSONObject]) throws -> [String: Set<String>] {
        guard !entities.isEmpty else { return [:] }
        let existing = try records.entities(ids: Array(entities.keys))
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
                try records.save(EntityRecord(id: id, fields: JSONValue.object(merged).serialized()))
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
            for (queryID, read) in try index.readers(ofEntity: entityID)
            where queryID != excluded && !read.isDisjoint(with: keys) {
                result.insert(queryID)
            }
        }
        return result
    }

    /// Marks queries stale or fresh; missing ids are ignored.
    func setStale(_ isStale: Bool, queryIDs: Set<QueryKey.ID>) throws {
        for id in queryIDs {
            guard var record = try records.query(id: id), record.isStale != isStale else { continue }
            record.isStale = isStale
            try records.save(record)
        }
    }

    /// Deletes the entities among `candidates` that no query shows any more.
    func sweepOrphans(_ candidates: some Sequence<String>) throws {
        for id in candidates where try !index.isReferenced(entity: id) {
            try records.removeEntity(id: id)
        }
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
