/// Where a result came from.
public enum DataSource: Hashable, Sendable {
    /// The Data Connect service.
    case server
    /// The client cache.
    case cache
}

/// The data an operation returned, and where it came from.
///
/// ```swift
/// let result = try await ref.execute()
/// if let movies = result.data?.movies { print(movies.count, result.source) }
/// ```
public struct OperationResult<ResultData: Decodable & Sendable>: Sendable {
    /// The decoded data, or `nil` when there is none (e.g. a `.cacheOnly` miss).
    public let data: ResultData?
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
