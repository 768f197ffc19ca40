import GraphQLLanguage

// Stage 5: `@unique` and `@index`.
extension SchemaCompilation {
    mutating func applyUniqueAndIndexes(_ definition: ObjectTypeDefinition, to table: inout Table) {
        let name = table.name
        /// Resolves field names (columns or references) to column field names.
        func columnsFor(
            _ fields: [String], at location: NodeLocation, in table: Table, errors: inout [Diagnostic]
        ) -> [String]? {
            var result: [String] = []
            for field in fields {
                if let reference = table.reference(field) {
                    result += reference.foreignKeyFields
                } else if table.column(field) != nil {
                    result.append(field)
                } else {
                    errors.append(
                        Diagnostic(
                            file: location.file, location: location.start,
                            message:
                                "\"\(field)\" is not a field of \"\(name)\"\(Suggestions.didYouMean(field, among: table.columns.map(\.name) + table.references.map(\.name)))"
                        ))
                    return nil
                }
            }
            return result
        }
        var errors: [Diagnostic] = []
        func sqlNames(_ fields: [String]) -> String {
            fields.map { field in table.column(field)?.sqlName ?? Naming.snakeCase(field) }.joined(separator: "_")
        }
        for field in definition.fields {
            for unique in field.directives.all(named: "unique") {
                if unique.argument("fields") != nil {
                    errors.append(
                        Diagnostic(
                            file: unique.location.file, location: unique.location.start,
                            message: "@unique(fields:) is for types; on a field, omit it"))
                    continue
                }
                guard let columns = columnsFor([field.name.value], at: unique.location, in: table, errors: &errors)
                else { continue }
                table.uniqueConstraints.append(
                    UniqueConstraint(
                        name: unique.string("indexName") ?? "\(table.sqlName)_\(sqlNames(columns))_uidx",
                        fields: columns))
            }
            for index in field.directives.all(named: "index") {
                if index.argument("fields") != nil {
                    errors.append(
                        Diagnostic(
                            file: index.location.file, location: index.location.start,
                            message: "@index(fields:) is for types; on a field, omit it"))
                    continue
                }
                guard let columns = columnsFor([field.name.value], at: index.location, in: table, errors: &errors)
                else { continue }
                let type = index.enumValues("type")?.first ?? "BTREE"
                checkIndexType(type, columns: columns, table: table, at: index.location)
                let descending = index.enumValues("order")?.map { $0 == "DESC" } ?? []
                table.indexes.append(
                    Index(
                        name: index.string("name") ?? "\(table.sqlName)_\(sqlNames(columns))_idx", fields: columns,
                        descending: columns.indices.map { $0 < descending.count ? descending[$0] : false }, type: type))
            }
        }
        for unique in definition.directives.all(named: "unique") {
            guard let fields = unique.strings("fields"), !fields.isEmpty else {
                errors.append(
                    Diagnostic(
                        file: unique.location.file, location: unique.location.start,
                        message: "@unique on a type needs fields: [...]"))
                continue
            }
            guard let columns = columnsFor(fields, at: unique.location(of: "fields"), in: table, errors: &errors) else {
                continue
            }
            table.uniqueConstraints.append(
                UniqueConstraint(
                    name: unique.string("indexName") ?? "\(table.sqlName)_\(sqlNames(columns))_uidx", fields: columns))
            if fields.count == 1, let ref = table.references.firstIndex(where: { $0.name == fields[0] }) {
                table.references[ref].isOneToOne = true
            }
        }
        for index in definition.directives.all(named: "index") {
            guard let fields = index.strings("fields"), !fields.isEmpty else {
                errors.append(
                    Diagnostic(
                        file: index.location.file, location: index.location.start,
                        message: "@index on a type needs fields: [...]"))
                continue
            }
            guard let columns = columnsFor(fields, at: index.location(of: "fields"), in: table, errors: &errors) else {
                continue
            }
            let orders = index.enumValues("order") ?? []
            if !orders.isEmpty && orders.count != fields.count {
                errors.append(
                    Diagnostic(
                        file: index.location.file, location: index.location(of: "order").start,
                        message: "@index(order:) needs one entry per field (\(fields.count))"))
                continue
            }
            let descending = orders.map { $0 == "DESC" }
            let type = index.enumValues("type")?.first ?? "BTREE"
            checkIndexType(type, columns: columns, table: table, at: index.location)
            let suffix =
                (orders.isEmpty ? Array(repeating: "a", count: columns.count) : descending.map { $0 ? "d" : "a" })
                .joined()
            table.indexes.append(
                Index(
                    name: index.string("name") ?? "\(table.sqlName)_\(sqlNames(columns))_\(suffix)_idx",
                    fields: columns,
                    descending: columns.indices.map { $0 < descending.count ? descending[$0] : false }, type: type))
        }
        var names: Set<String> = []
        for constraint in table.uniqueConstraints where !names.insert(constraint.name).inserted {
            errors.append(
                Diagnostic(
                    file: table.location.file, location: table.location.start,
                    message: "two constraints of \"\(name)\" are both named \"\(constraint.name)\""))
        }
        for index in table.indexes where !names.insert(index.name).inserted {
            errors.append(
                Diagnostic(
                    file: table.location.file, location: table.location.start,
                    message: "two indexes of \"\(name)\" are both named \"\(index.name)\""))
        }
        diagnostics += errors
    }

    mutating func checkIndexType(_ type: String, columns: [String], table: Table, at location: NodeLocation) {
        let isList = columns.contains { table.column($0)?.isList ?? false }
        let isVector = columns.contains { table.column($0)?.type == .scalar(.vector) }
        if isList && type != "GIN" {
            error("an index on a list field must have type: GIN", at: location)
        } else if isVector || type == "HNSW" || type == "IVFFLAT" {
            warning(
                "@index(type: \(isVector && type == "BTREE" ? "HNSW" : type)) needs PostgreSQL's pgvector extension; "
                    + "the emulator creates no index and vector similarity scans every row",
                at: location)
        } else if type == "GIN" && !isList {
            warning(
                "@index(type: GIN) applies to list fields; the emulator creates a B-tree index instead", at: location)
        } else if type == "GIN" {
            warning(
                "@index(type: GIN) is a PostgreSQL index type; the SQLite backend creates a plain index", at: location)
        }
    }
}
