import DataConnectWire
import Foundation

/// A query result read from the cache.
///
/// ```swift
/// if let cached = try cache.read(query: key, allowStale: true) {
///     print(cached.data, cached.isStale ? "stale" : "fresh", cached.cachedAt)
/// }
/// ```
public struct CachedRead: Hashable, Sendable {
    /// The result's `data` object, exactly as the server sent it (keys, order and values).
    public var data: JSONObject
    /// When the server sent the result.
    public var cachedAt: Date
    /// Whether the result is older than its `maxAge` or a mutation marked it stale.
    public var isStale: Bool
    /// Identifies this content of the result: two reads of one cache with the same version returned equal
    /// ``data``, so a caller may reuse what it decoded from the first.
    public var version: UInt64

    /// Creates a read.
    public init(data: JSONObject, cachedAt: Date, isStale: Bool, version: UInt64 = 0) {
        self.data = data
        self.cachedAt = cachedAt
        self.isStale = isStale
        self.version = version
    }
}
