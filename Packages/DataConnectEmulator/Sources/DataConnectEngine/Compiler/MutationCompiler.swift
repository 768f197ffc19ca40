import DataConnectCEL
import DataConnectSchema
import DataConnectWire

/// Compiles mutation root fields into ``MutationPlan``s: inserts, upserts, updates and deletes with
/// defaults, server values (`_expr`, `_date`, `_time`), update transforms (`_update`) and references set
/// by key.
///
/// Everything that depends on the request's values is a parameter source, so a plan serves every request
/// with the same argument shape; only the shape (which fields are present) changes the SQL.
struct MutationCompiler {
    let api: GeneratedAPI
    let dialect: any SQLDialect
    let resolution: Resolution
    /// The most filter terms a `where` may hold.
    var maximumFilterTerms = Int.max
    /// The operation's `_expr` server values, parsed once, by source text.
    var expressions: [String: CELExpression] = [:]

    var model: SchemaModel { api.model }

    /// The plan of a mutation root field.
    ///
    /// - Throws: ``ExecutionError`` (`INVALID_ARGUMENT`) when the arguments cannot be written, e.g. a
    ///   required column without a value; request-level when a filter is beyond the limits.
    func compile(_ node: FieldNode, role: APIFieldRole) throws(ExecutionError) -> MutationPlan {
        let arguments = resolution.arguments[node.id] ?? .object([])
        switch role {
        case .insert(let name), .upsert(let name):
            let table = try self.table(name)
            let upsert = if case .upsert = role { true } else { false }
            guard let data = arguments["data"] else { throw .invalid("\"data\" is required") }
            return MutationPlan(
                kind: .insertOne(upsert: upsert), table: table,
                statements: [try insert(data, into: table, upsert: upsert)])
        case .insertMany(let name), .upsertMany(let name):
            let table = try self.table(name)
            let upsert = if case .upsertMany = role { true } else { false }
            var rows: [Resolved] = []
            if case .list(let items)? = arguments["data"] {
                rows = items
            } else if let row = arguments["data"] {
                rows = [row]
            }
            var statements: [SQLStatementPlan] = []
            for row in rows { statements.append(try insert(row, into: table, upsert: upsert)) }
            return MutationPlan(kind: .insertMany(upsert: upsert), table: table, statements: statements)
        case .update(let name):
            let table = try self.table(name)
            guard let data = arguments["data"] else { throw .invalid("\"data\" is required") }
            return MutationPlan(
                kind: .updateOne, table: table, statements: [try update(data, table: table, selector: arguments)])
        case .delete(let name):
            let table = try self.table(name)
            return MutationPlan(
                kind: .deleteOne, table: table, statements: [try delete(table: table, selector: arguments)])
        case .updateMany(let name), .deleteMany(let name):
            let table = try self.table(name)
            let isUpdate = if case .updateMany = role { true } else { false }
            return MutationPlan(
                kind: isUpdate ? .updateMany : .deleteMany, table: table,
                statements: [try many(table: table, arguments: arguments, update: isUpdate)])
        default:
            throw .invalid("\"\(node.name)\" is not a mutation field")
        }
    }

    func table(_ name: String) throws(ExecutionError) -> Table {
        guard let table = model.table(name) else { throw .invalid("unknown table \"\(name)\"") }
        return table
    }

    // MARK: - Values

    /// Column assignments from an `X_Data` value: plain values, `_expr`, `_date`/`_time`, `_embed`, references
    /// by key.
    /// `_update` transforms are returned separately (they need the old value).
    func assignments(
        _ data: Resolved, table: Table
    ) throws(ExecutionError) -> (
        values: [(column: Column, source: ParameterSource)], transforms: [(column: Column, ops: Resolved)]
    ) {
        guard case .object(let fields) = data else { throw .invalid("\"data\" must be an object") }
        var values: [(column: Column, source: ParameterSource)] = []
        var transforms: [(column: Column, ops: Resolved)] = []
        func set(_ column: Column, _ source: ParameterSource) {
            if let index = values.firstIndex(where: { $0.column.name == column.name }) {
                values[index].source = source
            } else {
                values.append((column, source))
            }
        }
        for (key, value) in fields {
            if let column = table.column(key) {
                set(column, .value(value, .column(column)))
            } else if key.hasSuffix("_expr"), let column = table.column(String(key.dropLast(5))) {
                guard case .constant(.string(let source)) = value else {
                    throw .invalid("\"\(key)\" must be a string literal")
                }
                set(column, .expression(try cel(source), .column(column)))
            } else if key.hasSuffix("_date") || key.hasSuffix("_time"),
                let column = table.column(String(key.dropLast(5)))
            {
                set(column, .relative(value, isDate: key.hasSuffix("_date")))
            } else if key.hasSuffix("_update"), let column = table.column(String(key.dropLast(7))) {
                transforms.append((column, value))
            } else if let column = table.embeddedColumn(key) {
                set(column, .value(value, .embedding(column, .document)))
            } else if let reference = table.reference(key) {
                guard let target = model.table(reference.target) else { continue }
                for (fk, targetField) in zip(reference.foreignKeyFields, reference.targetFields) {
                    guard let fkColumn = table.column(fk), let targetColumn = target.column(targetField) else {
                        continue
                    }
                    if let v = value[targetField] {
                        set(fkColumn, .value(v, .column(targetColumn)))
                    } else if case .constant(.string(let source))? = value["\(targetField)_expr"] {
                        set(fkColumn, .expression(try cel(source), .column(targetColumn)))
                    } else {
                        throw .invalid("\"\(key)\" needs \"\(targetField)\" to set \"\(fk)\"")
                    }
                }
            } else {
                throw .invalid("\"\(key)\" is not a field of \(table.name)_Data")
            }
        }
        return (values, transforms)
    }

    /// The `_expr` server value with this source: parsed when the operation was compiled.
    func cel(_ source: String) throws(ExecutionError) -> CELExpression {
        if let parsed = expressions[source] { return parsed }
        do {
            return try CELExpression(parsing: source)
        } catch {
            throw .invalid("invalid expression \"\(source)\": \(error)")
        }
    }

    // MARK: - Statements

    func returningKey(_ table: Table) -> String {
        dialect.returning(table.keyColumns)
    }

    func insert(_ data: Resolved, into table: Table, upsert: Bool) throws(ExecutionError) -> SQLStatementPlan {
        var (values, transforms) = try assignments(data, table: table)
        if !transforms.isEmpty { throw .invalid("\"\(transforms[0].column.name)_update\" applies only to updates") }
        let provided = Set(values.map(\.column.name))
        var numbered: [(column: Column, value: String)] = []
        for column in table.columns where !provided.contains(column.name) {
            if column.isSerial {
                if let value = dialect.serialValue(column, of: table) { numbered.append((column, value)) }
            } else if case .expression(let expression)? = column.defaultValue {
                values.append((column, .columnDefault(expression, column)))
            } else if column.isNonNull && column.defaultValue == nil {
                throw .invalid("\(table.name).\(column.name) is required (\(column.graphQLType)) but was not given")
            }
        }
        var sql = "INSERT INTO \(dialect.quote(table.sqlName)) "
        if values.isEmpty && numbered.isEmpty {
            sql += "DEFAULT VALUES"
        } else {
            let columns = values.map(\.column.sqlName) + numbered.map(\.column.sqlName)
            let placeholders = values.enumerated().map {
                dialect.placeholder($0.offset + 1, type: $0.element.source.parameterType)
            }
            sql +=
                "(" + columns.map(dialect.quote).joined(separator: ", ") + ") VALUES ("
                + (placeholders + numbered.map(\.value)).joined(separator: ", ") + ")"
        }
        if upsert {
            let keys = Set(table.primaryKey)
            var updates = values.map(\.column).filter { !keys.contains($0.name) && provided.contains($0.name) }.map(
                \.sqlName)
            // Only the key given: a no-op update still returns the existing row (DO NOTHING would return none).
            if updates.isEmpty { updates = table.keyColumns.map(\.sqlName) }
            sql += " " + dialect.upsertClause(conflictColumns: table.keyColumns.map(\.sqlName), updateColumns: updates)
        }
        sql += " " + returningKey(table)
        return SQLStatementPlan(sql: sql, parameters: values.map(\.source), tables: [table.name])
    }

    /// The SET clause: plain assignments and `_update` transforms, with their parameter sources.
    func setClause(
        _ data: Resolved, table: Table
    ) throws(ExecutionError) -> (sql: String, parameters: [ParameterSource]) {
        let (values, transforms) = try assignments(data, table: table)
        var parts: [String] = []
        var parameters: [ParameterSource] = []
        // Placeholders are numbered: a transform may use one parameter twice.
        for (column, source) in values {
            parameters.append(source)
            parts.append(
                "\(dialect.quote(column.sqlName)) = \(dialect.placeholder(parameters.count, type: source.parameterType))"
            )
        }
        for (column, ops) in transforms {
            var expression = dialect.quote(column.sqlName)
            let list: [Resolved] = if case .list(let items) = ops { items } else { [ops] }
            for op in list {
                guard case .object(let fields) = op, let (name, operand) = fields.first else { continue }
                expression = try transform(
                    expression, op: name, operand: operand, column: column, parameters: &parameters)
            }
            parts.append("\(dialect.quote(column.sqlName)) = \(expression)")
        }
        if parts.isEmpty { throw .invalid("\"data\" sets no field") }
        return (parts.joined(separator: ", "), parameters)
    }

    /// One `_update` step applied to an SQL expression of the column's current value.
    func transform(
        _ expression: String, op: String, operand: Resolved, column: Column, parameters: inout [ParameterSource]
    ) throws(ExecutionError) -> String {
        func parameter(_ source: ParameterSource) -> String {
            parameters.append(source)
            return dialect.placeholder(parameters.count, type: source.parameterType)
        }
        if column.isList {
            let current = dialect.listElements(
                "coalesce(\(expression), \(dialect.emptyList(of: column)))", of: column, alias: nil)
            let p = parameter(.value(operand, op == "add" ? .uniqueWireArray(column) : .wireArray(column)))
            let given = dialect.listElements(p, of: column, alias: nil)
            let merged: String
            switch op {
            case "append": merged = "SELECT value FROM \(current) UNION ALL SELECT value FROM \(given)"
            case "prepend": merged = "SELECT value FROM \(given) UNION ALL SELECT value FROM \(current)"
            case "add":
                merged =
                    "SELECT value FROM \(current) UNION ALL SELECT value FROM \(given) WHERE value NOT IN (SELECT value FROM \(current))"
            case "remove":
                merged = "SELECT value FROM \(current) WHERE value NOT IN (SELECT value FROM \(given))"
            default: throw .invalid("unknown list update \"\(op)\"")
            }
            return dialect.listFromElements(merged, of: column)
        }
        guard op == "inc" || op == "dec" else { throw .invalid("unknown update \"\(op)\" for \(column.name)") }
        let sign = op == "inc" ? "+" : "-"
        switch column.type {
        case .scalar(.int), .scalar(.int64), .scalar(.float):
            return "(\(expression) \(sign) \(parameter(.value(operand, .column(column)))))"
        case .scalar(.date), .scalar(.timestamp):
            // Months and years move the calendar date (the day clamped to the month's end, as Postgres and
            // relative dates do); the other units are exact, down to the stored microseconds.
            let factor: Int64 = op == "inc" ? 1 : -1
            let months = parameter(.durationMonths(operand, sign: factor))
            if column.type == .scalar(.date) {
                let days = parameter(.durationDays(operand, sign: factor))
                return dialect.shiftedDate(expression, months: months, days: days)
            }
            let microseconds = parameter(.durationMicroseconds(operand, sign: factor))
            return dialect.shiftedTimestamp(expression, months: months, microseconds: microseconds)
        default:
            throw .invalid("\(column.name) cannot be incremented")
        }
    }

    /// The WHERE clause of `id`/`id_expr`/`key`/`first` selectors: the first matching row.
    func selector(
        _ arguments: Resolved, table: Table, offset: Int
    ) throws(ExecutionError) -> (sql: String, parameters: [ParameterSource]) {
        var builder = filterBuilder(offset: offset)
        let alias = "s"
        let selection: (conditions: [String], orderBy: [String])
        do {
            selection = try builder.selectorConditions(arguments, table: table, alias: alias)
        } catch {
            throw ExecutionError(code: .invalidArgument, message: error.message, isRequestLevel: true)
        }
        let row = dialect.rowIdentifier
        var inner = "SELECT \(alias).\(row) FROM \(dialect.quote(table.sqlName)) AS \(alias)"
        if !selection.conditions.isEmpty { inner += " WHERE " + selection.conditions.joined(separator: " AND ") }
        if !selection.orderBy.isEmpty { inner += " ORDER BY " + selection.orderBy.joined(separator: ", ") }
        return ("\(row) = (\(inner) LIMIT 1)", builder.parameters)
    }

    func filterBuilder(offset: Int) -> QueryBuilder {
        var builder = QueryBuilder(api: api, dialect: dialect, resolution: resolution)
        builder.expressions = expressions
        builder.maximumFilterTerms = maximumFilterTerms
        builder.parameterOffset = offset
        return builder
    }

    func update(
        _ data: Resolved, table: Table, selector arguments: Resolved
    ) throws(ExecutionError) -> SQLStatementPlan {
        let set = try setClause(data, table: table)
        let condition = try selector(arguments, table: table, offset: set.parameters.count)
        let sql = "UPDATE \(dialect.quote(table.sqlName)) SET \(set.sql) WHERE \(condition.sql) \(returningKey(table))"
        return SQLStatementPlan(sql: sql, parameters: set.parameters + condition.parameters, tables: [table.name])
    }

    func delete(table: Table, selector arguments: Resolved) throws(ExecutionError) -> SQLStatementPlan {
        let condition = try selector(arguments, table: table, offset: 0)
        let sql = "DELETE FROM \(dialect.quote(table.sqlName)) WHERE \(condition.sql) \(returningKey(table))"
        return SQLStatementPlan(sql: sql, parameters: condition.parameters, tables: [table.name])
    }

    func many(table: Table, arguments: Resolved, update: Bool) throws(ExecutionError) -> SQLStatementPlan {
        var set: (sql: String, parameters: [ParameterSource])?
        if update {
            guard let data = arguments["data"] else { throw .invalid("\"data\" is required") }
            set = try setClause(data, table: table)
        }
        var builder = filterBuilder(offset: set?.parameters.count ?? 0)
        var condition: String?
        if let filter = arguments["where"] {
            do {
                condition =
                    try builder.filter(filter, table: table, alias: dialect.quote(table.sqlName))
                    ?? dialect.conditionLiteral(true)
            } catch {
                throw ExecutionError(code: .invalidArgument, message: error.message, isRequestLevel: true)
            }
        } else if case .constant(.bool(true))? = arguments["all"] {
            condition = dialect.conditionLiteral(true)
        }
        guard let condition else {
            throw .invalid("\(update ? "updateMany" : "deleteMany") needs `where`, or `all: true` to affect every row")
        }
        let sql: String
        if let set {
            sql = "UPDATE \(dialect.quote(table.sqlName)) SET \(set.sql) WHERE \(condition)"
        } else {
            sql = "DELETE FROM \(dialect.quote(table.sqlName)) WHERE \(condition)"
        }
        return SQLStatementPlan(
            sql: sql, parameters: (set?.parameters ?? []) + builder.parameters,
            tables: builder.tables.union([table.name]))
    }
}
