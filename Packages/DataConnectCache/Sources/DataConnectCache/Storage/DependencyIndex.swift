/// Which cached queries depend on which entities and tables: the index a cache updates observed queries by.
///
/// A query's ``QueryDependencies`` are set whole (saving a result replaces them, empty ones remove the query from
/// the index) and looked up both ways: by query, and by entity or table. A dependency index is only used inside
/// ``CacheStorage/transaction(_:)``, under its storage's lock, so it needs no lock of its own.
///
/// ```swift
/// try storage.transaction { _, index in
///     try index.setDependencies(QueryDependencies(entities: ["Movie/m1": ["title"]]), ofQuery: "GetMovie{}")
///     try index.readers(ofEntity: "Movie/m1")  // ["GetMovie{}": ["title"]]
/// }
/// ```
public protocol DependencyIndex: AnyObject {
    /// The dependencies set for a query; empty when it has none.
    func dependencies(ofQuery id: String) throws -> QueryDependencies

    /// Replaces a query's dependencies; empty dependencies remove the query from the index.
    func setDependencies(_ dependencies: QueryDependencies, ofQuery id: String) throws

    /// The queries that show an entity, with the field keys each reads from its record.
    func readers(ofEntity id: String) throws -> [String: Set<String>]

    /// The queries that show at least one entity of `table` (see ``EntityRecord/table(ofEntity:)``).
    func queryIDs(showingTable table: String) throws -> Set<String>

    /// The queries that list entities of `table` (exact match, ``QueryDependencies/unknownTable`` included).
    func queryIDs(listingTable table: String) throws -> Set<String>
}

extension DependencyIndex {
    /// Whether any query shows the entity.
    public func isReferenced(entity id: String) throws -> Bool {
        try !readers(ofEntity: id).isEmpty
    }
}
