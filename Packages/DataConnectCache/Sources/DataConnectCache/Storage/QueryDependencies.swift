/// What a cached query depends on, kept by storage as an index with reverse lookups.
///
/// ```swift
/// let dependencies = QueryDependencies(entities: ["Movie/m1": ["title"]], listTables: ["Movie"])
/// ```
public struct QueryDependencies: Hashable, Sendable {
    /// The table name that stands for an empty list of entities whose table is unknown.
    public static let unknownTable = "*"

    /// For each entity the query shows, the field keys it reads from the entity record.
    public var entities: [String: Set<String>]
    /// Tables the query lists entities of (``unknownTable`` for an empty list of unknown table).
    public var listTables: Set<String>

    /// Creates dependencies.
    public init(entities: [String: Set<String>] = [:], listTables: Set<String> = []) {
        self.entities = entities
        self.listTables = listTables
    }
}
