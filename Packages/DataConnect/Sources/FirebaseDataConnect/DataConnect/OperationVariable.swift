/// The variables of an operation: what generated `Variables` structs conform to.
///
/// The SDK's refs are generic over their variables, constrained by this protocol as upstream: variables are
/// encoded into the request (unset ``OptionalVariable`` properties are left out), compared and hashed, and sent
/// across concurrency domains. A ref's identity, and its client cache entry, come from the encoded JSON rather
/// than from `==`, so two values that send the same bytes always share one ref and one cache entry.
///
/// ```swift
/// struct GenreVariables: OperationVariable {
///     var genre: String
/// }
/// let ref = dataConnect.query(
///     name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
/// ```
public protocol OperationVariable: Encodable, Hashable, Equatable, Sendable {}
