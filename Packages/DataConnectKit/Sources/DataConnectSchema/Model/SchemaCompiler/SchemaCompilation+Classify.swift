import GraphQLLanguage

// Stage 2: classify definitions into tables and enums; check type names.
extension SchemaCompilation {
    /// Sorts the definitions into tables and enums, reporting every other kind of definition and every name
    /// declared twice or reserved.
    ///
    /// - Returns: the enum definitions, in order; the tables are in ``tableDefinitions``.
    mutating func classifyDefinitions(_ definitions: [Definition]) -> [EnumTypeDefinition] {
        var enumDefinitions: [EnumTypeDefinition] = []
        var seenNames: [String: NodeLocation] = [:]
        for definition in definitions {
            switch definition {
            case .type(.object(let object)):
                guard claim(object.name, &seenNames) else { continue }
                if object.name.value == "Query" || object.name.value == "Mutation" {
                    error(
                        "the schema may not declare type \"\(object.name.value)\"; its fields are generated from the tables",
                        at: object.name.location)
                } else if let view = object.directives.first(named: "view") {
                    if let table = object.directives.first(named: "table") {
                        error("a type is either a @table or a @view, not both", at: table.location)
                    } else if (view.argument("sql") == nil) == (view.argument("name") == nil) {
                        error("@view needs exactly one of sql: and name:", at: view.location)
                    } else {
                        tableDefinitions.append(object)
                        tableDefinitionsByName[object.name.value] = object
                        tableNames.insert(object.name.value)
                        viewNames.insert(object.name.value)
                    }
                } else if object.directives.first(named: "table") == nil {
                    error(
                        "type \"\(object.name.value)\" must be a table: add @table (plain object types are not supported)",
                        at: object.name.location)
                } else {
                    tableDefinitions.append(object)
                    tableDefinitionsByName[object.name.value] = object
                    tableNames.insert(object.name.value)
                }
            case .type(.enum(let e)):
                guard claim(e.name, &seenNames) else { continue }
                enumDefinitions.append(e)
                enumNames.insert(e.name.value)
            case .type(let other):
                error(
                    "only @table types and enums may be declared in a schema, found \(kind(of: other)) \"\(other.name.value)\"",
                    at: other.name.location)
            case .typeExtension(let other):
                error(
                    "type extensions are not supported in a schema (extend \(kind(of: other)) \"\(other.name.value)\")",
                    at: other.location
                )
            case .directive(let d):
                error("a schema may not declare directives (\"@\(d.name.value)\")", at: d.location)
            case .schema(let s), .schemaExtension(let s):
                error("a schema may not contain a schema definition", at: s.location)
            case .operation(let op):
                error(
                    "operations belong in a connector, not in the schema (operation \"\(op.name?.value ?? "<anonymous>")\")",
                    at: op.location)
            case .fragment(let f):
                error("fragments belong in a connector, not in the schema (\"\(f.name.value)\")", at: f.location)
            }
        }
        return enumDefinitions
    }

    private func kind(of type: TypeDefinition) -> String {
        switch type {
        case .scalar: "scalar"
        case .object: "type"
        case .interface: "interface"
        case .union: "union"
        case .enum: "enum"
        case .inputObject: "input"
        }
    }

    /// Records a type name; reports duplicates and clashes with built-in names.
    private mutating func claim(_ name: Name, _ seen: inout [String: NodeLocation]) -> Bool {
        if let previous = seen[name.value] {
            error(
                "there can be only one type named \"\(name.value)\" (also declared at \(previous.file):\(previous.start))",
                at: name.location)
            return false
        }
        if prelude.type(named: name.value) != nil {
            error("type name \"\(name.value)\" is reserved by the built-in prelude", at: name.location)
            return false
        }
        if name.value.hasPrefix("_") {
            error("type names may not start with \"_\" (\"\(name.value)\")", at: name.location)
            return false
        }
        seen[name.value] = name.location
        return true
    }

    /// Rule: a declared type name is not one the API generates for a table or enum (`Movie_Data`).
    mutating func checkTypeNamesAgainstGeneratedNames(_ enums: [EnumTypeDefinition]) {
        var reserved: [String: String] = [:]
        for table in tableDefinitions {
            for suffix in ["_KeyOutput", "_Key", "_Data", "_Filter", "_ListFilter", "_Order", "_Having", "_FirstRow"] {
                reserved[table.name.value + suffix] = "table \"\(table.name.value)\""
            }
        }
        for e in enums {
            for suffix in ["_Filter", "_ListFilter"] { reserved[e.name.value + suffix] = "enum \"\(e.name.value)\"" }
        }
        let declared: [Name] = tableDefinitions.map(\.name) + enums.map(\.name)
        for name in declared {
            if let owner = reserved[name.value] {
                error("type name \"\(name.value)\" is reserved for a type generated for \(owner)", at: name.location)
            }
        }
    }
}
