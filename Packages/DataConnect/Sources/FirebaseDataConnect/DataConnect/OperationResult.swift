import Foundation

/// Where a result came from.
public enum DataSource: Hashable, Sendable {
    /// The Data Connect service.
    case server
    /// The client cache.
    case cache
}

/// The data an operation returned, and where it came from.
///
/// `data` is an implicitly unwrapped optional, so both styles of the Data Connect documentation compile:
///
/// ```swift
/// let result = try await connector.createMovieMutation.execute(title: "Alien", releaseYear: 1979, genre: "Sci-Fi", rating: 5)
/// print(result.data.movie_insert.id)          // a mutation that succeeded always has data
/// if let movies = try await ref.execute().data?.movies { print(movies.count) }   // a cache miss has none
/// ```
public struct OperationResult<ResultData: Decodable & Sendable>: Sendable {
    /// The decoded data, or `nil` when there is none (a `.cacheOnly` miss).
    ///
    /// Implicitly unwrapped: reading a member straight through it (`result.data.movies`) traps on `nil`,
    /// which only a `.cacheOnly` query can return; `if let`, `?.` and `== nil` work as on any optional.
    public let data: ResultData!
    /// Where ``data`` came from.
    public let source: DataSource
    /// Whether cached data is older than its `maxAge` (or was invalidated by a mutation) **[ext]**.
    ///
    /// Only `.cacheOnly` and `.staleIfOffline` return stale data; server results are never stale.
    public let isStale: Bool
    /// When cached data was received from the server; `nil` for server results **[ext]**.
    public let cachedAt: Date?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - data: The decoded data, if any.
    ///   - source: Where it came from.
    ///   - isStale: Whether cached data is past its freshness.
    ///   - cachedAt: When cached data arrived from the server.
    public init(data: ResultData?, source: DataSource, isStale: Bool = false, cachedAt: Date? = nil) {
        self.data = data
        self.source = source
        self.isStale = isStale
        self.cachedAt = cachedAt
    }
}

extension OperationResult: Equatable where ResultData: Equatable {}
extension OperationResult: Hashable where ResultData: Hashable {}

/// Whether a query execution may answer from the client cache.
///
/// Without ``CacheSettings`` nothing is cached: `.cacheOnly` then always misses and the others go to the server.
public enum QueryFetchPolicy: Hashable, Sendable {
    /// Fresh cached data when there is some, otherwise the server (whose result is cached); the default.
    case preferCache
    /// Cached data only, stale allowed and marked; a miss is `data == nil` with `source == .cache`, never an
    /// error, and never a request.
    case cacheOnly
    /// The server only; the result is then cached.
    case serverOnly
    /// Like ``preferCache``, but when the server cannot be reached (a connection failure or timeout, not an
    /// error the server returned) cached data is returned even if stale, with `isStale` set **[ext]**.
    case staleIfOffline
}

/// Which kind of observable query ref `DataConnect.query(name:variables:resultsDataType:publisher:)` creates.
///
/// Upstream, `.observableObject` makes a Combine `ObservableObject` and `.auto` / `.observableMacro` an
/// `@Observable` class where the OS has Observation. Linux has no Combine, so here:
/// - `.observableObject` makes a ``QueryRefObservableObject``: the upstream name and members, observable with
///   the Observation framework;
/// - `.auto` and `.observableMacro` make a ``QueryRefObservation``.
///
/// Both kinds share one underlying ref per operation name and variables, so they see the same data and share
/// one realtime subscription. A call that passes no publisher returns a ``QueryRefObservation``: see
/// `docs/sdk.md` for why that, not upstream's `.observableObject`, is the default on Linux.
public enum ResultsPublisherType: Hashable, Sendable {
    /// The best kind available: a ``QueryRefObservation``.
    case auto
    /// A ``QueryRefObservableObject`` (upstream: a Combine `ObservableObject`).
    case observableObject
    /// A ``QueryRefObservation`` (upstream: the `@Observable` macro).
    case observableMacro
}
