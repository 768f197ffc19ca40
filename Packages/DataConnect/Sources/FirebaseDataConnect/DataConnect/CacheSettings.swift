import Foundation

/// How a connector's client cache stores results and how long they stay fresh.
///
/// With cache settings, query results are normalized by the entity ids the server reports and kept in memory or
/// in a SQLite file (one per project, connector, host and signed-in user). ``QueryFetchPolicy`` decides when
/// the cache answers; mutations update it; observed refs are republished when what they show changes.
///
/// ```swift
/// let settings = DataConnectSettings(cacheSettings: CacheSettings(storage: .memory, maxAge: 60))
/// ```
public struct CacheSettings: Hashable, Sendable {
    /// Where cached results live.
    public enum Storage: Hashable, Sendable {
        /// On disk, surviving restarts.
        case persistent
        /// In memory, for the life of the process.
        case memory
    }

    /// The default size cap: 100 MB.
    public static let defaultMaxSize = 100_000_000

    /// Where cached results live.
    public let storage: Storage
    /// How many seconds a cached result stays fresh; `0` means always stale.
    public let maxAge: TimeInterval
    /// The most bytes the cache keeps before evicting the least recently used results **[ext]**.
    public let maxSize: Int
    /// The folder of persistent cache files **[ext]**; `${XDG_CACHE_HOME:-~/.cache}/dataconnect` when `nil`.
    public let directory: String?

    /// Creates cache settings.
    ///
    /// - Parameters:
    ///   - storage: Where cached results live; on disk by default.
    ///   - maxAge: Seconds a result stays fresh; `0` by default.
    ///   - maxSize: The size cap in bytes; 100 MB by default.
    ///   - directory: The folder of persistent cache files; the user's cache folder by default.
    public init(
        storage: Storage = .persistent, maxAge: TimeInterval = 0, maxSize: Int = CacheSettings.defaultMaxSize,
        directory: String? = nil
    ) {
        self.storage = storage
        self.maxAge = maxAge
        self.maxSize = maxSize
        self.directory = directory
    }
}
