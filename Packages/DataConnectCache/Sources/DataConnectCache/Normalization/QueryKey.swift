import DataConnectWire

/// The identity of a cached query: its operation name and its variables.
///
/// Two keys are equal when the names are equal and the variables are equal as JSON, whatever the order of
/// their keys. ``id`` is the stable text form used as the storage key and as the de-duplication key of refs:
/// the operation name followed by the canonical JSON of the variables (keys sorted, compact, numbers
/// normalized).
///
/// ```swift
/// let key = QueryKey(operationName: "ListMovies", variables: ["limit": 10, "genre": "sci-fi"])
/// key.id  // ListMovies{"genre":"sci-fi","limit":10}
/// ```
public struct QueryKey: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// The GraphQL operation name.
    public let operationName: String
    /// The variables, as sent.
    public let variables: JSONObject
    /// The canonical text identity: operation name, then the variables' canonical JSON.
    public let id: String

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - operationName: The operation name, a GraphQL name.
    ///   - variables: The operation's variables, as encoded for the request; empty when it has none.
    public init(operationName: String, variables: JSONObject = [:]) {
        self.operationName = operationName
        self.variables = variables
        self.id = operationName + JSONValue.object(variables).jsonString(canonical: true)
    }

    public static func == (lhs: QueryKey, rhs: QueryKey) -> Bool {
        lhs.id == rhs.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    /// The key's ``id``.
    public var description: String { id }
}
