import Foundation

/// How a connector's client cache stores results and how long they stay fresh.
///
/// The settings are accepted and kept in ``DataConnectSettings``; results are not cached yet, so every
/// ``QueryFetchPolicy`` but `.cacheOnly` goes to the server.
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

    /// Where cached results live.
    public let storage: Storage
    /// How many seconds a cached result stays fresh; `0` means always stale.
    public let maxAge: TimeInterval

    /// Creates cache settings.
    ///
    /// - Parameters:
    ///   - storage: Where cached results live; on disk by default.
    ///   - maxAge: Seconds a result stays fresh; `0` by default.
    public init(storage: Storage = .persistent, maxAge: TimeInterval = 0) {
        self.storage = storage
        self.maxAge = maxAge
    }
}
