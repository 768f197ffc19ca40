import Foundation

/// The records of a cache: query results and the entities they share, by id.
///
/// Loading, saving (insert or replace) and removing are all a cache does with records; what a record means is the
/// engine's business. Saving keeps ``statistics()`` current, so the size cap costs no scan. A record store is
/// only used inside ``CacheStorage/transaction(_:)``, under its storage's lock, so it needs no lock of its own.
///
/// ```swift
/// try storage.transaction { records, _ in
///     if var record = try records.query(id: key.id) {
///         record.isStale = true
///         try records.save(record)
///     }
/// }
/// ```
public protocol RecordStore: AnyObject {
    /// The query record with `id`, or `nil`.
    func query(id: String) throws -> QueryRecord?

    /// The entity records among `ids` that exist, by id.
    func entities(ids: [String]) throws -> [String: EntityRecord]

    /// Inserts or replaces a query record.
    func save(_ record: QueryRecord) throws

    /// Inserts or replaces an entity record.
    func save(_ record: EntityRecord) throws

    /// Deletes a query record; deleting a missing one does nothing.
    func removeQuery(id: String) throws

    /// Deletes an entity record; deleting a missing one does nothing.
    func removeEntity(id: String) throws

    /// Up to `limit` query ids, least recently accessed first (ties by id): the eviction order.
    func leastRecentlyAccessedQueryIDs(limit: Int) throws -> [String]

    /// Counts and the total of every record's byte size (``QueryRecord/byteSize``, ``EntityRecord/byteSize``);
    /// cheap.
    func statistics() throws -> CacheStatistics

    /// Every record, each kind sorted by id, for debugging dumps.
    func allRecords() throws -> (queries: [QueryRecord], entities: [EntityRecord])
}
