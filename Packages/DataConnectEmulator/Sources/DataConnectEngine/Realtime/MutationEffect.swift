import DataConnectWire

/// What a committed mutation changed, for the realtime hub.
public struct MutationEffect: Sendable {
    /// The connector, or `nil` for an admin (`executeGraphql`) document.
    public var connector: String?
    /// The operation's name (empty for an anonymous admin document).
    public var operationName: String
    /// The mutation's variables after coercion.
    public var variables: JSONObject
    /// The caller.
    public var auth: AuthContext?
    /// The tables (GraphQL type names) the mutation may have written, cascades included.
    public var tables: Set<String>

    /// Creates an effect.
    public init(
        connector: String?, operationName: String, variables: JSONObject, auth: AuthContext?, tables: Set<String>
    ) {
        self.connector = connector
        self.operationName = operationName
        self.variables = variables
        self.auth = auth
        self.tables = tables
    }
}

// MARK: - Subscriptions
