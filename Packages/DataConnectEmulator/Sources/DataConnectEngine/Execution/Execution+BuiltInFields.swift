import DataConnectCEL
import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

extension Execution {
    /// The output of a root field that no compiled read plan answers: `__typename`, the introspection meta
    /// fields `__schema` and `__type`, `_service`, and the native SQL query fields; `nil` for the others.
    func builtInOutput(_ root: FieldNode, on source: any StatementSource) throws(ExecutionError) -> FieldOutput? {
        switch root.role {
        case nil:
            switch root.name {
            case "__schema", "__type":
                let resolver = IntrospectionResolver(schema: engine.answers.introspection, resolution: resolution)
                return .value(resolver.value(of: root))
            default:
                return .raw(JSONValue.string(root.parentType).serialized())
            }
        case .service?:
            return .value(serviceValue(root))
        case .nativeSQL(let field)?:
            return .value(try runNativeSQL(root, field: field, on: source))
        default:
            return nil
        }
    }

    // MARK: - _service

    /// `_service { sdl schema schemas docs }`.
    func serviceValue(_ root: FieldNode) -> JSONValue {
        let answers = engine.answers
        var result = JSONObject()
        for child in root.children where !resolution.skipped.contains(child.id) {
            switch child.name {
            case "__typename":
                result[child.responseKey] = .string("_Service")
            case "sdl":
                let arguments = resolution.arguments[child.id]
                let omitBuiltin = arguments?["omitBuiltin"].map(resolution.json)?.boolValue ?? false
                let omitDescription = arguments?["omitDescription"].map(resolution.json)?.boolValue ?? false
                result[child.responseKey] = .string(
                    answers.sdl(omitBuiltin: omitBuiltin, omitDescription: omitDescription))
            case "schema":
                result[child.responseKey] = .string(answers.schemaSource)
            case "schemas":
                let main: JSONObject = ["id": .string("main"), "source": .string(answers.schemaSource)]
                result[child.responseKey] = .array([Self.select(main, node: child, typename: "_Schema")])
            case "docs":
                result[child.responseKey] = .array([])
            default:
                result[child.responseKey] = .null
            }
        }
        return .object(result)
    }

    /// The node's selection of a plain object (aliases, `__typename`).
    static func select(_ object: JSONObject, node: FieldNode, typename: String) -> JSONValue {
        var result = JSONObject()
        for child in node.children {
            result[child.responseKey] = child.name == "__typename" ? .string(typename) : object[child.name] ?? .null
        }
        return .object(result)
    }

    // MARK: - Native SQL

    /// Runs a native SQL field: its statement with its parameters bound (literals, variables, `_expr`
    /// server values), read-only for a query field.
    func runNativeSQL(
        _ root: FieldNode, field: NativeSQLField, on source: any StatementSource
    ) throws(ExecutionError) -> JSONValue {
        guard let support = engine.dialect as? any NativeSQLSupport else {
            throw ExecutionError(
                code: .unimplemented, message: "this database does not run native SQL", isRequestLevel: true)
        }
        guard case .string(let text)? = root.arguments.first(where: { $0.name.value == "sql" })?.value else {
            throw ExecutionError(
                code: .invalidArgument, message: "\"\(root.name)\" takes its SQL as a string literal",
                isRequestLevel: true)
        }
        let statement: NativeSQLStatement
        do {
            statement = try NativeSQLStatement(parsing: text.value)
        } catch {
            throw ExecutionError(code: .invalidArgument, message: error.message, isRequestLevel: true)
        }
        var parameters: [DatabaseValue] = []
        if let params = root.arguments.first(where: { $0.name.value == "params" })?.value {
            let items: [Value]
            switch params {
            case .list(let values, _): items = values
            case .null: items = []
            default: items = [params]
            }
            for item in items { parameters.append(NativeSQLRunner.parameter(try nativeParameter(item))) }
        }
        if parameters.count != statement.highestParameter {
            throw ExecutionError(
                code: .invalidArgument,
                message:
                    "\"\(root.name)\" has \(parameters.count) parameters but its SQL uses $1...$\(statement.highestParameter)",
                isRequestLevel: true)
        }
        return try NativeSQLRunner(source: source, dialect: support).run(
            field, statement: statement, parameters: parameters, insideTransaction: operation.kind == .mutation)
    }

    /// One element of `params`: a variable's value, an `{_expr: "..."}` server value, or a literal.
    func nativeParameter(_ value: Value) throws(ExecutionError) -> JSONValue {
        switch value {
        case .variable(let name):
            return variables[name.value] ?? .null
        case .object(let fields, _):
            if fields.count == 1, fields[0].name.value == "_expr", case .string(let source) = fields[0].value {
                guard let expression = operation.expressions[source.value] else {
                    throw ExecutionError(
                        code: .invalidArgument, message: "invalid expression \"\(source.value)\"",
                        isRequestLevel: true)
                }
                do {
                    return try expression.evaluate(in: bindings)
                } catch {
                    throw ParameterBinder.celError(error)
                }
            }
            return ArgumentResolver.literal(value)
        default:
            return ArgumentResolver.literal(value)
        }
    }
}
