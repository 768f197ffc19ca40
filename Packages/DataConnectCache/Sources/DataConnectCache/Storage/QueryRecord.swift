import Foundation

/// One cached query result as the storage keeps it: the dehydrated tree and its freshness.
///
/// The tree is opaque to storage: ``NormalizedCache`` writes and reads it. Storage only needs the id, the
/// timestamps for eviction and the stale flag.
///
/// ```swift
/// let record = QueryRecord(id: "ListMovies{}", tree: bytes, cachedAt: now, maxAge: 300, lastAccessed: now)
/// ```
public struct QueryRecord: Hashable, Sendable {
    /// The query's identity, ``QueryKey/id``.
    public var id: String
    /// The dehydrated result tree, as JSON bytes.
    public var tree: [UInt8]
    /// When the server sent the result.
    public var cachedAt: Date
    /// How long, in seconds, the result counts as fresh after ``cachedAt``.
    public var maxAge: TimeInterval
    /// When the result was last written or read; eviction removes the least recent first.
    public var lastAccessed: Date
    /// Whether a mutation marked the result stale, whatever its age.
    public var isStale: Bool

    /// Creates a record.
    public init(
        id: String, tree: [UInt8], cachedAt: Date, maxAge: TimeInterval, lastAccessed: Date, isStale: Bool = false
    ) {
        self.id = id
        self.tree = tree
        self.cachedAt = cachedAt
        self.maxAge = maxAge
        self.lastAccessed = lastAccessed
        self.isStale = isStale
    }

    /// The bytes the record counts for against the size cap: id, tree and a fixed overhead for the other columns.
    public var byteSize: Int {
        id.utf8.count + tree.count + 32
    }
}
