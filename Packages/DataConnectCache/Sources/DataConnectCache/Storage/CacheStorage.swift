import Foundation

/// The record-level storage a ``NormalizedCache`` runs on: query records, entity records and a dependency index.
///
/// Storage knows nothing about JSON trees or normalization, so the same engine and the same tests run on every
/// backend: ``MemoryCacheStorage`` and ``SQLiteCacheStorage``.
///
/// Every method is safe to call from any thread. ``transaction(_:)`` groups calls so that they apply together
/// (SQLite commits them at once and rolls back when the body throws); callers must not make other calls
/// concurrently with a transaction's body. ``NormalizedCache`` serializes its operations, so it never does.
///
/// ```swift
/// let storage: any CacheStorage = MemoryCacheStorage()
/// try storage.transaction {
///     try storage.saveEntity(EntityRecord(id: "Movie/m1", fields: Array(#"{"title":"Alien"}"#.utf8)))
/// }
/// ```
public protocol CacheStorage: AnyObject, Sendable {
    // MARK: Queries

    /// The query record with `id`, or `nil`.
    func query(id: String) throws -> QueryRecord?

    /// Inserts or replaces a query record and its dependencies.
    func saveQuery(_ record: QueryRecord, dependencies: QueryDependencies) throws

    /// Deletes a query record and its dependencies; deleting a missing record does nothing.
    func deleteQuery(id: String) throws

    /// The dependencies saved with a query; empty when the query is missing.
    func dependencies(ofQuery id: String) throws -> QueryDependencies

    /// Marks the given queries stale; missing ids are ignored.
    func markStale(queryIDs: Set<String>) throws

    /// Marks queries fresh again (their stale entities were refreshed by other results); missing ids are ignored.
    func clearStale(queryIDs: Set<String>) throws

    /// Sets a query's last-accessed time; a missing id is ignored.
    func touch(queryID: String, at date: Date) throws

    /// Up to `limit` query ids, least recently accessed first.
    func leastRecentlyAccessedQueryIDs(limit: Int) throws -> [String]

    /// Every query record, for debugging dumps.
    func allQueries() throws -> [QueryRecord]

    // MARK: Entities

    /// The entity records among `ids` that exist, by id.
    func entities(ids: [String]) throws -> [String: EntityRecord]

    /// Inserts or replaces an entity record.
    func saveEntity(_ record: EntityRecord) throws

    /// Deletes an entity record; deleting a missing record does nothing.
    func deleteEntity(id: String) throws

    /// Every entity record, for debugging dumps.
    func allEntities() throws -> [EntityRecord]

    // MARK: Dependency index

    /// The queries that show an entity, with the field keys each reads from its record.
    func readers(ofEntity id: String) throws -> [String: Set<String>]

    /// The queries that show at least one entity of `table` (see ``EntityRecord/table(ofEntity:)``).
    func queryIDs(showingTable table: String) throws -> Set<String>

    /// The queries that list entities of `table` (exact match, ``QueryDependencies/unknownTable`` included).
    func queryIDs(listingTable table: String) throws -> Set<String>

    /// Whether any query shows the entity.
    func isEntityReferenced(_ id: String) throws -> Bool

    // MARK: Whole store

    /// The total of every record's byte size (``QueryRecord/byteSize`` and ``EntityRecord/byteSize``); cheap.
    func totalByteSize() throws -> Int

    /// Counts and total size.
    func statistics() throws -> CacheStatistics

    /// Runs `body` so that its calls apply together; rolls back when it throws, where the backend can.
    func transaction<T>(_ body: () throws -> T) throws -> T

    /// Deletes every record.
    func clear() throws
}
