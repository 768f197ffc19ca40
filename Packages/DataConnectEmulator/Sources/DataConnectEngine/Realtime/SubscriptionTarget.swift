import DataConnectWire

/// A query checked and planned for a subscription: what to run, and what it depends on.
public struct SubscriptionTarget: Sendable {
    /// The connector id.
    public var connector: String
    /// The query's name.
    public var operationName: String
    /// The variables as sent (re-runs send them again).
    public var variables: JSONObject
    /// The coerced variables serialized with sorted keys: equal text means the same subscription.
    public var canonicalVariables: String
    /// The tables (GraphQL type names) the query reads: root fields, nested relations, join tables and
    /// tables reached by filters.
    public var tables: Set<String>
    /// The query's `@refresh` rules.
    public var refresh: RefreshRules
    /// The printed operation: a reload that changes it cancels the subscription.
    public var fingerprint: String
}
