import DataConnectSchema

/// The SQL of vector similarity, full-text search and index types, for one database.
public protocol SearchDialect: Sendable {
    /// The distance between the vector in `column` of the row `alias` and the bound vector `vector` (a JSON
    /// array); NULL when undefined.
    func vectorDistance(_ distance: VectorDistanceMethod, alias: String, column: Column, vector: String) -> String
    /// The statements that keep a table's vectors in the form its distances read fastest; `nil` when the
    /// stored column is read as it is.
    func vectorIndex(table: Table) -> SearchIndexDDL?
    /// How a query of `format` is bound: the text the engine hands to ``searchRows(table:alias:query:format:)``.
    func searchSyntax(_ format: SearchQueryFormat) -> SearchQuerySyntax
    /// A subquery answering the table's rows that match the bound query `query`, each with its relevance
    /// (higher is better) as `_dc_relevance`.
    func searchRows(table: Table, search: TableSearch, query: String, format: SearchQueryFormat) -> String
    /// The statements that create the full-text index of a table.
    func searchIndex(table: Table, search: TableSearch) -> SearchIndexDDL
    /// The access method of an `@index`: `nil` for a plain B-tree, `.skip` when the database has none for it.
    func indexMethod(_ index: Index, table: Table) -> IndexMethod
}

/// A `VectorSimilarityMethod`.
public enum VectorDistanceMethod: String, Sendable {
    case l2 = "L2"
    case cosine = "COSINE"
    case innerProduct = "INNER_PRODUCT"
}

/// How the text of a full-text query reaches the database.
public enum SearchQuerySyntax: Sendable {
    /// Parsed, and printed as an FTS5 `MATCH` expression.
    case fts5
    /// Parsed, and printed in `to_tsquery` syntax.
    case tsquery
    /// As written (for PostgreSQL's `websearch_to_tsquery`, `plainto_tsquery`, `phraseto_tsquery`).
    case text
}

/// The access method of an index.
public enum IndexMethod: Equatable, Sendable {
    /// The database's default (B-tree).
    case standard
    /// `USING <name>`.
    case using(String)
    /// No index.
    case skip
}

/// The statements that create one table's full-text index, or the copies of its vectors.
public struct SearchIndexDDL: Hashable, Sendable {
    /// The SQL name of the indexed table.
    public var table: String
    /// The index's name (SQLite: the FTS5 table).
    public var name: String
    /// The names of the schema objects the statements create (tables, triggers, indexes).
    public var objects: [String]
    /// Columns the index keeps on the indexed table itself, added before the statements run when missing.
    public var columns: [HiddenColumn] = []
    /// The statements, in order.
    public var statements: [String]

    /// Creates the statements of one index.
    ///
    /// - Parameters:
    ///   - table: The SQL name of the indexed table.
    ///   - name: The index's name.
    ///   - objects: The names of the schema objects the statements create.
    ///   - columns: Columns the index keeps on the indexed table itself.
    ///   - statements: The statements, in order.
    public init(
        table: String, name: String, objects: [String], columns: [HiddenColumn] = [], statements: [String]
    ) {
        self.table = table
        self.name = name
        self.objects = objects
        self.columns = columns
        self.statements = statements
    }

    /// `ALTER TABLE ... ADD COLUMN` of each of ``columns``.
    public func addColumnStatement(_ column: HiddenColumn, quote: (String) -> String) -> String {
        "ALTER TABLE \(quote(table)) ADD COLUMN \(quote(column.name)) \(column.type)"
    }
}

/// A column that belongs to an index rather than to the schema: no GraphQL field reads or writes it.
public struct HiddenColumn: Hashable, Sendable {
    /// The SQL name.
    public var name: String
    /// The SQL type.
    public var type: String

    /// Creates a column.
    public init(name: String, type: String) {
        self.name = name
        self.type = type
    }
}
