/// What a write or a mutation did to other cached queries.
///
/// The SDK republishes ``changedQueries`` from the cache (stale allowed) and refetches the observed
/// ``staleQueries``. Ids are ``QueryKey/id`` values.
///
/// ```swift
/// let update = try cache.write(query: key, response: data, properties: properties)
/// for id in update.changedQueries { refs[id]?.republishFromCache() }
/// ```
public struct CacheUpdate: Hashable, Sendable {
    /// Queries whose result as read from the cache is now different.
    public var changedQueries: Set<QueryKey.ID>
    /// Queries a mutation marked stale: the cache cannot tell their new result.
    public var staleQueries: Set<QueryKey.ID>
    /// Queries evicted to keep the cache under its size cap.
    public var evictedQueries: Set<QueryKey.ID>

    /// Creates an update.
    public init(
        changedQueries: Set<QueryKey.ID> = [], staleQueries: Set<QueryKey.ID> = [],
        evictedQueries: Set<QueryKey.ID> = []
    ) {
        self.changedQueries = changedQueries
        self.staleQueries = staleQueries
        self.evictedQueries = evictedQueries
    }
}
