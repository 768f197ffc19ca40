import GraphQLLanguage

// Stage 5: `@col` and `@default` on a column.
extension SchemaCompilation {
    mutating func applyCol(_ field: FieldDefinition, to column: inout Column) {
        guard let col = field.directives.first(named: "col") else {
            if column.type == .scalar(.vector) {
                error("a Vector field needs @col(size:)", at: field.name.location)
            }
            return
        }
        if let name = col.string("name") {
            if name.isEmpty { error("@col(name:) may not be empty", at: col.location(of: "name")) }
            column.sqlName = name
        }
        if let size = col.int("size") {
            if column.type != .scalar(.vector) {
                error("@col(size:) applies only to Vector fields", at: col.location(of: "size"))
            } else if size <= 0 {
                error("@col(size:) must be positive", at: col.location(of: "size"))
            }
            column.size = size
        } else if column.type == .scalar(.vector) {
            error("a Vector field needs @col(size:)", at: col.location)
        }
        if let dataType = col.string("dataType") {
            column.dataType = dataType
            if column.isSerial && column.isList {
                error(
                    "@col(dataType: \"\(dataType)\") applies to a single number, not a list",
                    at: col.location(of: "dataType"))
            }
            switch SQLDataType.check(dataType, for: column.type, isList: column.isList) {
            case .ok(let maxLength): column.maxLength = maxLength
            case .problem(let message): error(message, at: col.location(of: "dataType"))
            }
        }
    }

    mutating func applyDefault(_ field: FieldDefinition, to column: inout Column, table: String) {
        guard let directive = field.directives.first(named: "default") else { return }
        if column.isSerial {
            error(
                "\"\(table).\(column.name)\" is \(column.dataType ?? "serial"): the database numbers it, so it takes no @default",
                at: directive.location)
            return
        }
        if let value = directive.argument("value")?.value {
            var checker = ValueChecker(system: prelude, allowVariables: false)
            let element: TypeReference = .named(Name(column.type.graphQLName))
            let type: TypeReference = column.isList ? .list(.nonNull(element, .synthesized), .synthesized) : element
            if case .enum(let n) = value, case .enumeration(let e) = column.type,
                let values = model.enumType(e)?.values, !values.contains(n.value)
            {
                error("@default(value:) \"\(n.value)\" is not a value of enum \"\(e)\"", at: value.location)
            } else if case .enumeration = column.type {
                if case .enum = value {
                } else if case .null = value {
                } else {
                    error("@default(value:) for an enum field must be one of its values, unquoted", at: value.location)
                }
            } else {
                checker.check(value, against: column.isNonNull ? .nonNull(type, .synthesized) : type)
                for d in checker.diagnostics {
                    error("invalid @default(value:) for \"\(table).\(column.name)\": \(d.message)", at: value.location)
                }
            }
            column.defaultValue = .value(value)
        } else if let expr = directive.string("expr") {
            let allowed: [String: Set<ScalarType>] = [
                "uuidV4()": [.uuid, .string], "uuidV7()": [.uuid, .string], "auth.uid": [.string],
                "request.time": [.timestamp, .date],
            ]
            guard let types = allowed[expr] else {
                error(
                    "unsupported @default(expr:) \"\(expr)\"; supported: \"uuidV4()\", \"uuidV7()\", \"auth.uid\", \"request.time\"",
                    at: directive.location(of: "expr"))
                return
            }
            guard case .scalar(let scalar) = column.type, types.contains(scalar), !column.isList else {
                error(
                    "@default(expr: \"\(expr)\") does not fit field \"\(table).\(column.name)\" of type \(column.graphQLType)",
                    at: directive.location(of: "expr"))
                return
            }
            column.defaultValue = .expression(expr)
        } else if let sql = directive.string("sql") {
            guard sql.contains(where: { !$0.isWhitespace }) else {
                error("@default(sql:) may not be empty", at: directive.location(of: "sql"))
                return
            }
            column.defaultValue = .sql(sql)
        }
    }
}
