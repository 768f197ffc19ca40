import DataConnectEngine
import DataConnectSchema

extension PostgreSQLDialect {
    public var search: any SearchDialect { PostgreSQLSearchDialect(dialect: self) }
}

/// Search on PostgreSQL without pgvector: distances computed from the `jsonb` vectors by plain SQL (a scan of
/// every row), and `to_tsvector` over the searchable fields, stored in a generated column with a GIN index.
///
/// With pgvector, a `Vector` column would be `vector(n)`, the distances its operators `<->` (L2), `<=>`
/// (cosine) and `<#>` (negative inner product), and `@index(type: HNSW | IVFFLAT)` an index `USING hnsw` or
/// `USING ivfflat` with the operator class of the method (`vector_l2_ops`, `vector_cosine_ops`,
/// `vector_ip_ops`).
struct PostgreSQLSearchDialect: SearchDialect {
    let dialect: PostgreSQLDialect

    func vectorIndex(table: Table) -> SearchIndexDDL? { nil }

    func vectorDistance(_ distance: VectorDistanceMethod, alias: String, column: Column, vector: String) -> String {
        let column = "\(alias).\(dialect.quote(column.sqlName))"
        // Both vectors as float8 arrays, zipped by `unnest`; the compared one does not depend on the row, so
        // PostgreSQL converts it once (an InitPlan).
        func array(_ json: String) -> String { "ARRAY(SELECT jsonb_array_elements_text(\(json))::float8)" }
        let pairs = "FROM unnest(\(array(column)), \(array(vector))) AS u(x, c)"
        // Vectors of different sizes have no distance.
        let sizes = "jsonb_array_length(\(column)) = jsonb_array_length(\(vector))"
        let value: String
        switch distance {
        case .l2: value = "sqrt(sum((u.x - u.c) * (u.x - u.c)))"
        case .innerProduct: value = "-sum(u.x * u.c)"
        case .cosine: value = "1 - sum(u.x * u.c) / NULLIF(sqrt(sum(u.x * u.x)) * sqrt(sum(u.c * u.c)), 0)"
        }
        return "(CASE WHEN \(sizes) THEN (SELECT \(value) \(pairs)) END)"
    }

    func searchSyntax(_ format: SearchQueryFormat) -> SearchQuerySyntax {
        format == .advanced ? .tsquery : .text
    }

    /// `to_tsvector` over the searchable fields, as the generated document column holds it.
    func document(_ table: Table, _ search: TableSearch, alias: String?) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        let text = search.fields.compactMap { table.column($0) }.map {
            "coalesce(\(prefix)\(dialect.quote($0.sqlName)), '')"
        }.joined(separator: " || ' ' || ")
        return "to_tsvector(\(dialect.stringLiteral(search.language))::regconfig, \(text))"
    }

    func searchRows(table: Table, search: TableSearch, query: String, format: SearchQueryFormat) -> String {
        let function =
            switch format {
            case .query: "websearch_to_tsquery"
            case .plain: "plainto_tsquery"
            case .phrase: "phraseto_tsquery"
            case .advanced: "to_tsquery"
            }
        let language = "\(dialect.stringLiteral(search.language))::regconfig"
        let document = "t.\(dialect.quote(Self.documentColumn))"
        return
            "SELECT t.*, ts_rank(\(document), q)::float8 AS _dc_relevance FROM \(dialect.quote(table.sqlName)) AS t, "
            + "\(function)(\(language), \(query)) AS q WHERE \(document) @@ q"
    }

    /// The stored `tsvector` of a searchable table's row: generated from the searchable fields by PostgreSQL on
    /// every write, so neither the index's recheck nor `ts_rank` parses the text again.
    static let documentColumn = "_dc_search_document"

    func searchIndex(table: Table, search: TableSearch) -> SearchIndexDDL {
        let name = table.sqlName + "_search_idx"
        return SearchIndexDDL(
            table: table.sqlName, name: name, objects: [name],
            statements: [
                "ALTER TABLE \(dialect.quote(table.sqlName)) ADD COLUMN IF NOT EXISTS "
                    + "\(dialect.quote(Self.documentColumn)) tsvector "
                    + "GENERATED ALWAYS AS (\(document(table, search, alias: nil))) STORED",
                // Without the pending list of `fastupdate`, a search after many writes does not scan it.
                "CREATE INDEX IF NOT EXISTS \(dialect.quote(name)) ON \(dialect.quote(table.sqlName)) "
                    + "USING GIN (\(dialect.quote(Self.documentColumn))) WITH (fastupdate = off)",
            ])
    }

    func indexMethod(_ index: Index, table: Table) -> IndexMethod {
        let columns = index.fields.compactMap { table.column($0) }
        if columns.contains(where: { $0.type == .scalar(.vector) }) || index.type == "HNSW" || index.type == "IVFFLAT" {
            return .skip
        }
        if index.type == "GIN" && !columns.isEmpty && columns.allSatisfy(\.isList) { return .using("GIN") }
        return .standard
    }
}
