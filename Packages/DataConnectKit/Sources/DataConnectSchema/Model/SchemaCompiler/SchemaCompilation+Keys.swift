import GraphQLLanguage

// Stage 4: field types, primary keys and the foreign-key fields of references.
extension SchemaCompilation {
    /// A declared field, classified.
    enum FieldKind {
        case column(ColumnType, isList: Bool)
        case reference(target: String)
    }

    /// Classifies a field's type; reports unknown types and lists of tables.
    mutating func classify(_ field: FieldDefinition, in table: String) -> FieldKind? {
        let type = field.type.nullable
        var isList = false
        var element = type
        if case .list(let inner, _) = type {
            isList = true
            element = inner.nullable
            if case .list = element {
                error(
                    "nested lists are not supported (\"\(table).\(field.name.value): \(field.type)\")",
                    at: field.type.location)
                return nil
            }
        }
        let name = element.namedType.value
        if tableNames.contains(name) {
            if isList {
                error(
                    "field \"\(table).\(field.name.value)\" cannot be a list of table \"\(name)\": declare the reference on \"\(name)\" instead (e.g. \(Naming.lowerCamel(table)): \(table)!) and the reverse field is generated",
                    at: field.type.location)
                return nil
            }
            return .reference(target: name)
        }
        if enumNames.contains(name) { return .column(.enumeration(name), isList: isList) }
        if let scalar = ScalarType(rawValue: name) { return .column(.scalar(scalar), isList: isList) }
        let known = Array(tableNames) + Array(enumNames) + ScalarType.allCases.map(\.rawValue)
        if name == "ID" {
            error("type \"ID\" is not allowed in a table; use UUID or String", at: element.location)
        } else {
            error("unknown type \"\(name)\"\(Suggestions.didYouMean(name, among: known))", at: element.location)
        }
        return nil
    }

    func definition(of table: String) -> ObjectTypeDefinition? {
        tableDefinitionsByName[table]
    }

    /// The declared key of a table: `@table(key:)`, else `["id"]`.
    func declaredKey(of table: ObjectTypeDefinition) -> [String] {
        if viewNames.contains(table.name.value) { return [] }
        return table.directives.first(named: "table")?.strings("key") ?? ["id"]
    }

    /// The tables a table's key refers to through references (its key's dependencies).
    func keyDependencies(of table: ObjectTypeDefinition) -> [String] {
        declaredKey(of: table).compactMap { entry in
            guard let field = table.fields.first(where: { $0.name.value == entry }) else { return nil }
            let name = field.type.nullable.namedType.value
            return tableNames.contains(name) ? name : nil
        }
    }

    /// Resolves every table's key columns so that each table's key dependencies come first, without
    /// recursion (a chain of thousands of tables keyed by references must not exhaust the stack), and
    /// reports each key cycle once.
    mutating func resolveKeysInDependencyOrder() {
        var state: [String: Int] = [:]  // 1: on the current path, 2: done
        for root in tableDefinitions {
            guard state[root.name.value] == nil else { continue }
            var stack: [(name: String, next: Int)] = [(root.name.value, 0)]
            state[root.name.value] = 1
            while let top = stack.last {
                let dependencies = definition(of: top.name).map(keyDependencies) ?? []
                if top.next < dependencies.count {
                    stack[stack.count - 1].next += 1
                    let dependency = dependencies[top.next]
                    switch state[dependency] {
                    case nil:
                        state[dependency] = 1
                        stack.append((dependency, 0))
                    case 1:
                        let cycle = stack.map(\.name).drop { $0 != dependency }
                        for member in cycle { failedKeys.insert(member) }
                        if let table = definition(of: dependency) {
                            let via = cycle.dropFirst().map { "\"\($0)\"" }.joined(separator: ", ")
                            error(
                                "the key of \"\(dependency)\" refers to itself through references\(via.isEmpty ? "" : " (via \(via))")",
                                at: table.name.location)
                        }
                    default:
                        break
                    }
                } else {
                    stack.removeLast()
                    state[top.name] = 2
                    if !failedKeys.contains(top.name) { _ = keyColumns(of: top.name) }
                }
            }
        }
    }

    /// The primary-key columns of a table as (field name, type), following references in the key.
    ///
    /// Call after ``resolveKeysInDependencyOrder()``, which fills the cache bottom-up.
    mutating func keyColumns(of tableName: String) -> [(String, ColumnType)]? {
        if let cached = keyColumnCache[tableName] { return cached }
        guard let table = definition(of: tableName), !failedKeys.contains(tableName) else { return nil }
        guard resolvingKeys.insert(tableName).inserted else { return nil }
        defer { resolvingKeys.remove(tableName) }
        var result: [(String, ColumnType)] = []
        if viewNames.contains(tableName) {
            keyColumnCache[tableName] = []
            return []
        }
        let key = declaredKey(of: table)
        let hasExplicitKey = table.directives.first(named: "table")?.argument("key") != nil
        if key.isEmpty {
            failedKeys.insert(tableName)
            error(
                "@table(key:) must name at least one field",
                at: table.directives.first(named: "table")!.location(of: "key"))
            return nil
        }
        for entry in key {
            guard let field = table.fields.first(where: { $0.name.value == entry }) else {
                if entry == "id" && !hasExplicitKey {
                    result.append(("id", .scalar(.uuid)))  // the implicit key
                    continue
                }
                let location = table.directives.first(named: "table")?.location(of: "key") ?? table.name.location
                error(
                    "key field \"\(entry)\" is not a field of \"\(tableName)\"\(Suggestions.didYouMean(entry, among: table.fields.map(\.name.value)))",
                    at: location)
                return nil
            }
            guard let kind = classify(field, in: tableName) else { return nil }
            switch kind {
            case .column(let type, let isList):
                if isList {
                    error("key field \"\(tableName).\(entry)\" may not be a list", at: field.location)
                    return nil
                }
                result.append((entry, type))
            case .reference(let target):
                guard let fk = foreignKeyFields(of: field, in: tableName, target: target) else { return nil }
                result += fk.map { ($0.name, $0.type) }
            }
        }
        keyColumnCache[tableName] = result
        return result
    }

    /// The implicit (or `@ref(fields:)`-named) foreign-key fields of a reference and the target fields they reference.
    mutating func foreignKeyFields(
        of field: FieldDefinition, in table: String, target: String
    ) -> [(name: String, type: ColumnType, targetField: String)]? {
        let ref = field.directives.first(named: "ref")
        if viewNames.contains(target) {
            error(
                "\"\(table).\(field.name.value)\" refers to view \"\(target)\": a view has no key, so nothing can reference it",
                at: field.type.location)
            return nil
        }
        var targetColumns: [(String, ColumnType)]
        if let references = ref?.strings("references") {
            guard let targetTable = definition(of: target) else { return nil }
            targetColumns = []
            for name in references {
                guard let targetField = targetTable.fields.first(where: { $0.name.value == name }),
                    case .column(let type, false)? = classify(targetField, in: target)
                else {
                    error(
                        "@ref(references:) names \"\(name)\", which is not a scalar field of \"\(target)\"",
                        at: ref!.location(of: "references"))
                    return nil
                }
                targetColumns.append((name, type))
            }
            let keyNames = keyColumns(of: target)?.map(\.0) ?? []
            if references != keyNames && !isUnique(fields: references, in: targetTable) {
                error(
                    "@ref(references:) must name the key of \"\(target)\" or fields with @unique, got \(references)",
                    at: ref!.location(of: "references"))
                return nil
            }
        } else {
            guard let key = keyColumns(of: target) else { return nil }
            targetColumns = key
        }
        let names: [String]
        if let fields = ref?.strings("fields") {
            guard fields.count == targetColumns.count else {
                error(
                    "@ref(fields:) names \(fields.count) field(s) but \"\(target)\" is referenced by \(targetColumns.count)",
                    at: ref!.location(of: "fields"))
                return nil
            }
            names = fields
        } else {
            names = targetColumns.map { field.name.value + Naming.upperFirst($0.0) }
        }
        return zip(names, targetColumns).map { ($0, $1.1, $1.0) }
    }

    /// Whether a field set of a table carries a unique constraint (field-level `@unique` for one field,
    /// type-level `@unique(fields:)` otherwise).
    func isUnique(fields: [String], in table: ObjectTypeDefinition) -> Bool {
        if fields.count == 1, let field = table.fields.first(where: { $0.name.value == fields[0] }),
            field.directives.first(named: "unique") != nil
        {
            return true
        }
        return table.directives.all(named: "unique").contains { Set($0.strings("fields") ?? []) == Set(fields) }
    }
}
