import GraphQLLanguage

extension OperationValidator {
    /// Rule: a native SQL field's `sql` is a string literal holding one statement of the allowed kind
    /// (a query starts with SELECT, TABLE or WITH), without comments; its `params` are literals, variables
    /// or `{_expr: "..."}` server values, as many as the highest `$n` of the statement.
    mutating func checkNativeSQL(_ field: Field, parentType: String) {
        guard case .nativeSQL(let kind)? = api.role(of: field.name.value, on: parentType) else { return }
        guard let sqlArgument = field.arguments.first(where: { $0.name.value == "sql" }) else { return }
        guard case .string(let text) = sqlArgument.value else {
            if case .variable = sqlArgument.value {
                error(
                    "\"\(field.name.value)\" takes its SQL as a string literal in the operation, never from a variable",
                    at: sqlArgument.value.location)
            }
            return
        }
        let statement: NativeSQLStatement
        do {
            statement = try NativeSQLStatement(parsing: text.value)
        } catch let problem {
            error("invalid native SQL in \"\(field.name.value)\": \(problem.message)", at: sqlArgument.value.location)
            return
        }
        if kind.isQuery && !NativeSQLStatement.queryKeywords.contains(statement.firstKeyword) {
            error(
                "\"\(field.name.value)\" runs read-only queries: the SQL must start with SELECT, TABLE or WITH, not \(statement.firstKeyword)",
                at: sqlArgument.value.location)
        } else if !kind.isQuery && !NativeSQLStatement.mutationKeywords.contains(statement.firstKeyword) {
            error(
                "\"\(field.name.value)\" runs INSERT, UPDATE, DELETE, MERGE, WITH or SELECT statements, not \(statement.firstKeyword) (schema changes belong in the schema)",
                at: sqlArgument.value.location)
        }
        var count = 0
        if let params = field.arguments.first(where: { $0.name.value == "params" }) {
            let items: [Value]
            switch params.value {
            case .list(let values, _): items = values
            case .null: items = []
            default: items = [params.value]
            }
            count = items.count
            for item in items { checkNativeSQLParameter(item, field: field.name.value) }
        }
        if count != statement.highestParameter {
            error(
                "\"\(field.name.value)\" has \(count) parameter\(count == 1 ? "" : "s") in params but its SQL uses $1...$\(statement.highestParameter); give exactly one value per parameter",
                at: field.location)
        }
    }

    /// Rule: one native SQL parameter is a scalar literal, a variable or `{_expr: "..."}`.
    private mutating func checkNativeSQLParameter(_ value: Value, field: String) {
        switch value {
        case .object(let fields, let location):
            guard fields.count == 1, fields[0].name.value == "_expr", case .string = fields[0].value else {
                error(
                    "a parameter of \"\(field)\" is a literal, a variable or {_expr: \"...\"} (a CEL server value such as \"auth.uid\")",
                    at: location)
                return
            }
        case .list(_, let location):
            error("a parameter of \"\(field)\" cannot be a list", at: location)
        default:
            break
        }
    }
}
