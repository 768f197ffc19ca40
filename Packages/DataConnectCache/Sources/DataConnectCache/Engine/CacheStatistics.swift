/// Counts of what a cache holds.
///
/// ```swift
/// let statistics = try cache.statistics()
/// print(statistics.queryCount, statistics.entityCount, statistics.byteSize)
/// ```
public struct CacheStatistics: Hashable, Sendable {
    /// The number of cached query results.
    public var queryCount: Int
    /// The number of entity records.
    public var entityCount: Int
    /// The bytes counted against the size cap (see ``QueryRecord/byteSize`` and ``EntityRecord/byteSize``).
    public var byteSize: Int

    /// Creates statistics.
    public init(queryCount: Int, entityCount: Int, byteSize: Int) {
        self.queryCount = queryCount
        self.entityCount = entityCount
        self.byteSize = byteSize
    }
}
