import DataConnectEngine
import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

/// The schema and operations of the served service as the console shows them (`GET /emulator/console/model`).
///
/// Built from the compiled service: tables with their columns, keys, references, uniques and indexes, the names
/// of their generated API fields, the enums, and each connector's operations with their `@auth`, variables and
/// text. Input object types are left to introspection.
enum ConsoleModel {
    /// The model of what `engine` serves.
    static func json(of engine: Engine) -> JSONValue {
        let service = engine.service
        let model = service.api.model
        var operationsByTable: [String: [JSONValue]] = [:]
        var connectors: [JSONValue] = []
        for connector in service.connectors {
            let id = connector.sources.manifest.connectorId
            var operations: [JSONValue] = []
            for operation in connector.validated.operations {
                guard let name = operation.name?.value,
                    !connector.validated.invalidOperations.contains(name)
                else { continue }
                let tables = engine.touchedTables(connector: id, operationName: name).sorted()
                let auth = AuthSummary(operation.directives.first(named: "auth"))
                operations.append(
                    json(
                        operation, name: name, auth: auth, tables: tables,
                        fragments: connector.validated.fragments))
                for table in tables {
                    operationsByTable[table, default: []].append([
                        "connector": .string(id), "name": .string(name),
                        "kind": .string(operation.operation == .mutation ? "mutation" : "query"),
                        "auth": auth.level.map(JSONValue.string) ?? .null,
                    ])
                }
            }
            connectors.append(["name": .string(id), "operations": .array(operations)])
        }
        let dialect = engine.sqlDialect
        return [
            "serviceId": .string(service.project.config.serviceId),
            "project": "local",
            "location": .string(service.project.config.location.isEmpty ? "local" : service.project.config.location),
            "tables": .array(
                model.tables.map { table in
                    json(table, dialect: dialect, operations: operationsByTable[table.name] ?? [])
                }),
            "enums": .array(
                model.enums.map { ["name": .string($0.name), "values": .array($0.values.map(JSONValue.string))] }),
            "connectors": .array(connectors),
        ]
    }

    /// What an operation's `@auth` says.
    struct AuthSummary {
        /// The access level (`PUBLIC`, `USER`, …), when the directive gives one.
        var level: String?
        /// The CEL expression, when the directive gives one.
        var expression: String?
        /// The stated reason for a public or weakly protected operation.
        var insecureReason: String?

        init(_ directive: Directive?) {
            if case .enum(let level)? = directive?.argument("level")?.value { self.level = level.value }
            if case .string(let expression)? = directive?.argument("expr")?.value { self.expression = expression.value }
            if case .string(let reason)? = directive?.argument("insecureReason")?.value {
                insecureReason = reason.value
            }
        }
    }

    private static func json(
        _ operation: OperationDefinition, name: String, auth: AuthSummary, tables: [String],
        fragments: [String: FragmentDefinition]
    ) -> JSONValue {
        // The operation's text with the fragments it spreads, directly or through others, so it runs on its own.
        var used: [String] = []
        var pending = Array(operation.selectionSet.fragmentSpreadNames).sorted()
        while let next = pending.popLast() {
            guard !used.contains(next), let fragment = fragments[next] else { continue }
            used.append(next)
            pending += fragment.selectionSet.fragmentSpreadNames.sorted()
        }
        let definitions =
            [Definition.operation(operation)] + used.sorted().compactMap { fragments[$0].map(Definition.fragment) }
        return [
            "name": .string(name),
            "kind": .string(operation.operation == .mutation ? "mutation" : "query"),
            "auth": auth.level.map(JSONValue.string) ?? .null,
            "authExpression": auth.expression.map(JSONValue.string) ?? .null,
            "insecureReason": auth.insecureReason.map(JSONValue.string) ?? .null,
            "variables": .array(
                operation.variables.map { variable in
                    [
                        "name": .string(variable.name.value), "type": .string(GraphQLPrinter.print(variable.type)),
                        "default": variable.defaultValue.map { .string(GraphQLPrinter.print($0)) } ?? .null,
                    ]
                }),
            "source": .string(definitions.map(GraphQLPrinter.print).joined(separator: "\n\n")),
            "tables": .array(tables.map(JSONValue.string)),
        ]
    }

    private static func json(_ table: Table, dialect: any SQLDialect, operations: [JSONValue]) -> JSONValue {
        let type = table.name
        var api: JSONObject = [
            "list": .string(table.plural), "filter": .string("\(type)_Filter"), "orderBy": .string("\(type)_Order"),
        ]
        if !table.isView {
            api["get"] = .string(table.singular)
            api["insert"] = .string("\(table.singular)_insert")
            api["update"] = .string("\(table.singular)_update")
            api["delete"] = .string("\(table.singular)_delete")
            api["keyInput"] = .string("\(type)_Key")
            api["dataInput"] = .string("\(type)_Data")
        }
        let unique = Set(table.uniqueConstraints.filter { $0.fields.count == 1 }.flatMap(\.fields))
        let columns: [JSONValue] = table.columns.map { column in
            var references: JSONValue = .null
            if case .implicitForeignKey(let name) = column.origin, let reference = table.reference(name) {
                references = ["type": .string(reference.target), "field": .string(reference.name)]
            }
            return [
                "field": .string(column.name), "column": .string(column.sqlName),
                "type": .string(column.graphQLType), "sqlType": .string(dialect.columnType(column)),
                "key": .bool(table.primaryKey.contains(column.name)), "unique": .bool(unique.contains(column.name)),
                "nullable": .bool(!column.isNonNull), "list": .bool(column.isList),
                "enum": column.type.isEnumeration ? .string(column.type.graphQLName) : .null,
                "default": column.defaultValue.map { .string(Self.describe($0)) } ?? .null,
                "generated": .bool(column.defaultValue != nil || column.isSerial),
                "references": references,
                "description": column.documentation.map(JSONValue.string) ?? .null,
            ]
        }
        return [
            "type": .string(type), "table": .string(table.sqlName), "isView": .bool(table.isView),
            "description": table.documentation.map(JSONValue.string) ?? .null,
            "key": .array(table.primaryKey.map(JSONValue.string)),
            "api": .object(api),
            "columns": .array(columns),
            "relations": .array(
                table.references.map { reference in
                    [
                        "field": .string(reference.name), "type": .string(reference.target),
                        "columns": .array(reference.foreignKeyFields.map(JSONValue.string)),
                        "nullable": .bool(!reference.isNonNull), "oneToOne": .bool(reference.isOneToOne),
                        "onDelete": .string(reference.onDelete.rawValue),
                    ]
                }),
            "uniques": .array(table.uniqueConstraints.map { .array($0.fields.map(JSONValue.string)) }),
            "indexes": .array(
                table.indexes.map { index in
                    [
                        "name": .string(index.name), "columns": .array(index.fields.map(JSONValue.string)),
                        "type": .string(index.type),
                    ]
                }),
            "operations": .array(operations),
        ]
    }

    /// A column default as the schema writes it.
    private static func describe(_ value: ColumnDefault) -> String {
        switch value {
        case .value(let value): GraphQLPrinter.print(value)
        case .expression(let expression): "expr: \(expression)"
        case .sql(let sql): "sql: \(sql)"
        }
    }
}

extension ColumnType {
    /// Whether the column holds an enum value.
    fileprivate var isEnumeration: Bool {
        if case .enumeration = self { return true }
        return false
    }
}
