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

    /// Creates a read.
    public init(data: JSONObject, cachedAt: Date, isStale: Bool) {
        self.data = data
        self.cachedAt = cachedAt
        self.isStale = isStale
    }
}
