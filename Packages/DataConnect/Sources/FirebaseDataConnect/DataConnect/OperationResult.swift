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

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - data: The decoded data, if any.
    ///   - source: Where it came from.
    public init(data: ResultData?, source: DataSource) {
        self.data = data
        self.source = source
    }
}

extension OperationResult: Equatable where ResultData: Equatable {}
extension OperationResult: Hashable where ResultData: Hashable {}

/// Whether a query execution may answer from the client cache.
///
/// There is no client cache yet: `.preferCache` and `.serverOnly` always go to the server, and `.cacheOnly`
/// never does; it returns `OperationResult(data: nil, source: .cache)` without an error, as on a cache miss.
public enum QueryFetchPolicy: Hashable, Sendable {
    /// Fresh cached data when there is some, otherwise the server; the default of `execute()`.
    case preferCache
    /// Cached data only, stale allowed; `nil` data on a miss, never an error.
    case cacheOnly
    /// The server only.
    case serverOnly
}

/// Which kind of observable query ref to create.
///
/// Linux has no Combine, so every case creates a ``QueryRefObservation``; the enum exists so that code written
/// for Apple platforms compiles unchanged.
public enum ResultsPublisherType: Hashable, Sendable {
    /// The best kind available.
    case auto
    /// `ObservableObject` on Apple platforms.
    case observableObject
    /// The `@Observable` macro.
    case observableMacro
}
