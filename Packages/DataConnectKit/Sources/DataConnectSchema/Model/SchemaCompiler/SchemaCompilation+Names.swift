import GraphQLLanguage

// Stage 6: generated names that must not collide.
extension SchemaCompilation {
    mutating func checkRootFieldNames() {
        var owners: [String: String] = [:]
        for table in model.tables {
            for name in [table.singular, table.plural] {
                if let owner = owners[name], owner != table.name {
                    error(
                        "the generated field \"\(name)\" of \"\(table.name)\" collides with one of \"\(owner)\"; set @table(singular:) or @table(plural:)",
                        at: table.location)
                }
                owners[name] = table.name
            }
            if table.singular == table.plural {
                error(
                    "\"\(table.name)\" has the same singular and plural name \"\(table.singular)\"; set @table(plural:)",
                    at: table.location)
            }
            var sqlNames: [String: String] = [:]
            let lengths = Self.lengthCounts(table.columns.map(\.sqlName))
            for column in table.columns where lengths[column.sqlName.utf8.count, default: 0] > 1 {
                let key = Self.sqlIdentifierKey(column.sqlName)
                if let other = sqlNames[key] {
                    error(
                        "fields \"\(other)\" and \"\(column.name)\" of \"\(table.name)\" map to the same column \"\(column.sqlName)\"",
                        at: column.location)
                }
                sqlNames[key] = column.name
            }
        }
        var sqlTables: [String: String] = [:]
        let lengths = Self.lengthCounts(model.tables.map(\.sqlName))
        for table in model.tables where lengths[table.sqlName.utf8.count, default: 0] > 1 {
            let key = Self.sqlIdentifierKey(table.sqlName)
            if let other = sqlTables[key] {
                error(
                    "tables \"\(other)\" and \"\(table.name)\" map to the same SQL table \"\(table.sqlName)\"",
                    at: table.location)
            }
            sqlTables[key] = table.name
        }
    }

    /// A SQL identifier as SQLite compares identifiers: ASCII letters without case.
    static func sqlIdentifierKey(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 &- UInt8(ascii: "A") < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// How many names have each UTF-8 length. Identifiers that SQLite takes for the same have the same
    /// length, so only names sharing a length are compared, and long generated names
    /// (`next_next_next_id`) are not folded and hashed for nothing.
    static func lengthCounts(_ names: [String]) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for name in names { counts[name.utf8.count, default: 0] += 1 }
        return counts
    }

    /// Rule: a declared field does not take the name of a field the API generates for another one
    /// (`year_count` beside `year`, `title_expr` beside `title`).
    ///
    /// A generated name is `<column>_<variant>` and no variant contains `_`, so each declared name is split
    /// at its last `_` and only the column it names is looked at.
    mutating func checkGeneratedFieldNames(_ table: Table) {
        for column in table.columns where column.origin == .declared {
            guard let underscore = column.name.lastIndex(of: "_"), underscore != column.name.startIndex else {
                continue
            }
            let variant = String(column.name[column.name.index(after: underscore)...])
            let originName = String(column.name[..<underscore])
            guard let origin = table.column(originName), let kind = Self.generatedVariants(of: origin)[variant] else {
                continue
            }
            error(
                "field \"\(table.name).\(column.name)\" collides with the generated \(kind) field \"\(column.name)\" of \"\(table.name).\(origin.name)\"; rename it",
                at: column.location)
        }
    }

    /// The suffixes of the fields the API generates for a column, with the kind of each.
    static func generatedVariants(of column: Column) -> [String: String] {
        var variants = ["count": "aggregate", "expr": "input", "update": "input", "date": "input", "time": "input"]
        if case .scalar(let scalar) = column.type, !column.isList {
            var aggregates: [String] = []
            if scalar.isNumeric { aggregates += ["sum", "avg"] }
            if scalar.isOrderedForAggregates { aggregates += ["min", "max"] }
            for function in aggregates { variants[function] = "aggregate" }
        }
        return variants
    }
}
