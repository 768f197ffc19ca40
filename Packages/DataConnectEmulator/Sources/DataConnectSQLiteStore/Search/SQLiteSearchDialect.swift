import DataConnectEngine
import DataConnectSchema

extension SQLiteDialect {
    public var search: any SearchDialect { SQLiteSearchDialect(dialect: self) }
}

/// Search on SQLite: vector distances from the functions ``ConnectionSetup`` registers on every connection
/// (a scan of every row, over blob copies of the vectors kept by triggers), and an FTS5 external-content table
/// per searchable table, kept in sync by triggers.
///
/// The FTS5 tokenizer is `porter unicode61` for English and `unicode61` for every other language: FTS5
/// stems only English.
struct SQLiteSearchDialect: SearchDialect {
    let dialect: SQLiteDialect

    /// The SQL function of each distance.
    static func functionName(_ distance: VectorDistanceMethod) -> String {
        switch distance {
        case .l2: "dataconnect_vector_l2"
        case .cosine: "dataconnect_vector_cosine"
        case .innerProduct: "dataconnect_vector_negative_inner_product"
        }
    }

    /// The function that turns a JSON vector into the blob the distances read.
    static let blobFunction = "dataconnect_vector_blob"

    /// The hidden column holding a vector column's blob copy.
    static func copyColumn(_ column: Column) -> String { "_dc_vector_" + column.sqlName }

    func vectorDistance(_ distance: VectorDistanceMethod, alias: String, column: Column, vector: String) -> String {
        "\(Self.functionName(distance))(\(alias).\(dialect.quote(Self.copyColumn(column))), \(vector))"
    }

    /// A blob copy of each vector column in a hidden column of the same row, kept by triggers: a similarity
    /// scan reads 8 bytes per element instead of parsing the JSON text of every row on every query.
    func vectorIndex(table: Table) -> SearchIndexDDL? {
        let vectors = table.columns.filter { $0.type == .scalar(.vector) }
        guard !table.isView, !vectors.isEmpty else { return nil }
        let q = dialect.quote
        let name = table.sqlName + "__vectors"
        let base = q(table.sqlName)
        func copies(_ row: String) -> String {
            vectors.map { "\(q(Self.copyColumn($0))) = \(Self.blobFunction)(\(row)\(q($0.sqlName)))" }
                .joined(separator: ", ")
        }
        let setNew = "UPDATE \(base) SET \(copies("new.")) WHERE rowid = new.rowid;"
        let watched = vectors.map { q($0.sqlName) }.joined(separator: ", ")
        let triggers = [name + "_insert", name + "_update"]
        return SearchIndexDDL(
            table: table.sqlName, name: name, objects: triggers,
            columns: vectors.map { HiddenColumn(name: Self.copyColumn($0), type: "BLOB") },
            statements: [
                "CREATE TRIGGER IF NOT EXISTS \(q(triggers[0])) AFTER INSERT ON \(base) BEGIN \(setNew) END",
                "CREATE TRIGGER IF NOT EXISTS \(q(triggers[1])) AFTER UPDATE OF \(watched) ON \(base) BEGIN \(setNew) END",
                "UPDATE \(base) SET \(copies(""))",
            ])
    }

    func searchSyntax(_ format: SearchQueryFormat) -> SearchQuerySyntax { .fts5 }

    static func indexName(_ table: Table) -> String { table.sqlName + "__search" }

    func searchRows(table: Table, search: TableSearch, query: String, format: SearchQueryFormat) -> String {
        let q = dialect.quote
        let fts = q(Self.indexName(table))
        return "SELECT t.*, -bm25(\(fts)) AS _dc_relevance FROM \(fts) JOIN \(q(table.sqlName)) AS t "
            + "ON t.rowid = \(fts).rowid WHERE \(fts) MATCH \(query)"
    }

    func searchIndex(table: Table, search: TableSearch) -> SearchIndexDDL {
        let q = dialect.quote
        let name = Self.indexName(table)
        let fts = q(name)
        let base = q(table.sqlName)
        let columns = search.fields.compactMap { table.column($0)?.sqlName }.map(q)
        let list = columns.joined(separator: ", ")
        let tokenizer = search.language == "english" ? "porter unicode61" : "unicode61"
        let newValues = columns.map { "new.\($0)" }.joined(separator: ", ")
        let oldValues = columns.map { "old.\($0)" }.joined(separator: ", ")
        let insertNew = "INSERT INTO \(fts) (rowid, \(list)) VALUES (new.rowid, \(newValues));"
        let deleteOld = "INSERT INTO \(fts) (\(fts), rowid, \(list)) VALUES ('delete', old.rowid, \(oldValues));"
        let triggers = ["insert", "delete", "update"].map { name + "_" + $0 }
        return SearchIndexDDL(
            table: table.sqlName, name: name, objects: [name] + triggers,
            statements: [
                "CREATE VIRTUAL TABLE IF NOT EXISTS \(fts) USING fts5(\(list), content=\(dialect.stringLiteral(table.sqlName)), "
                    + "content_rowid='rowid', tokenize=\(dialect.stringLiteral(tokenizer)))",
                "CREATE TRIGGER IF NOT EXISTS \(q(triggers[0])) AFTER INSERT ON \(base) BEGIN \(insertNew) END",
                "CREATE TRIGGER IF NOT EXISTS \(q(triggers[1])) AFTER DELETE ON \(base) BEGIN \(deleteOld) END",
                "CREATE TRIGGER IF NOT EXISTS \(q(triggers[2])) AFTER UPDATE OF \(list) ON \(base) BEGIN \(deleteOld) \(insertNew) END",
                "INSERT INTO \(fts) (\(fts)) VALUES ('rebuild')",
            ])
    }

    func indexMethod(_ index: Index, table: Table) -> IndexMethod {
        let isVector = index.fields.contains { table.column($0)?.type == .scalar(.vector) }
        if isVector || index.type == "HNSW" || index.type == "IVFFLAT" { return .skip }
        return .standard
    }
}
