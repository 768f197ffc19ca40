import DataConnectCEL
import DataConnectSchema
import DataConnectWire
import SQLiteKit

/// The result of one mutation root field.
struct MutationFieldResult {
    /// The field's JSON (a key object, a list of keys, a count, or null).
    var json: JSONValue
    /// The entity written, for `extensions.dataConnect`.
    var entityIDs: [String]
    /// What was done.
    var action: DataConnectProperties.Action?
}

/// Executes mutation root fields on the writer connection: inserts, upserts, updates and deletes with
/// defaults, server values, update transforms and references set by key.
struct MutationRunner {
    let api: GeneratedAPI
    let dialect: any SQLDialect
    let source: any StatementSource
    let binder: ParameterBinder
    let auth: AuthContext?
    /// The most filter terms a `where` may hold.
    var maximumFilterTerms = Int.max

    var model: SchemaModel { api.model }

    func run(_ node: FieldNode, role: APIFieldRole, arguments: Resolved) throws(ExecutionError) -> MutationFieldResult {
        switch role {
        case .insert(let name), .upsert(let name):
            let table = try self.table(name)
            let upsert = if case .upsert = role { true } else { false }
            guard let data = arguments["data"] else { throw .invalid("\"data\" is required") }
            let key = try insert(data, into: table, upsert: upsert)
            return MutationFieldResult(json: key.json, entityIDs: [key.entityID], action: upsert ? .upsert : .create)
        case .insertMany(let name), .upsertMany(let name):
            let table = try self.table(name)
            let upsert = if case .upsertMany = role { true } else { false }
            var keys: [JSONValue] = []
            var ids: [String] = []
            if case .list(let rows)? = arguments["data"] {
                for row in rows {
                    let key = try insert(row, into: table, upsert: upsert)
                    keys.append(key.json)
                    ids.append(key.entityID)
                }
            } else if let row = arguments["data"] {
                let key = try insert(row, into: table, upsert: upsert)
                keys.append(key.json)
                ids.append(key.entityID)
            }
            return MutationFieldResult(json: .array(keys), entityIDs: ids, action: upsert ? .upsert : .create)
        case .update(let name):
            let table = try self.table(name)
            guard let data = arguments["data"] else { throw .invalid("\"data\" is required") }
            let key = try update(data, table: table, selector: arguments)
            return MutationFieldResult(
                json: key?.json ?? .null, entityIDs: key.map { [$0.entityID] } ?? [], action: .update)
        case .delete(let name):
            let table = try self.table(name)
            let key = try delete(table: table, selector: arguments)
            return MutationFieldResult(
                json: key?.json ?? .null, entityIDs: key.map { [$0.entityID] } ?? [], action: .delete)
        case .updateMany(let name), .deleteMany(let name):
            let table = try self.table(name)
            let isUpdate = if case .updateMany = role { true } else { false }
            let count = try many(table: table, arguments: arguments, update: isUpdate)
            return MutationFieldResult(
                json: .number(JSONNumber(count)), entityIDs: [], action: isUpdate ? .update : .delete)
        default:
            throw .invalid("\"\(node.name)\" is not a mutation field")
        }
    }

    func table(_ name: String) throws(ExecutionError) -> Table {
        guard let table = model.table(name) else { throw .invalid("unknown table \"\(name)\"") }
        return table
    }

    // MARK: - Values

    /// Column assignments from an `X_Data` value: plain values, `_expr`, `_date`/`_time`, references by key.
    /// `_update` transforms are returned separately (they need the old value).
    func assignments(
        _ data: Resolved, table: Table
    ) throws(ExecutionError) -> (
        values: [(column: Column, value: SQLiteValue)], transforms: [(column: Column, ops: Resolved)]
    ) {
        guard case .object(let fields) = data else { throw .invalid("\"data\" must be an object") }
        var values: [(column: Column, value: SQLiteValue)] = []
        var transforms: [(column: Column, ops: Resolved)] = []
        func set(_ column: Column, _ value: SQLiteValue) {
            if let index = values.firstIndex(where: { $0.column.name == column.name }) {
                values[index].value = value
            } else {
                values.append((column, value))
            }
        }
        for (key, value) in fields {
            if let column = table.column(key) {
                set(column, try binder.value(.value(value, .column(column))))
            } else if key.hasSuffix("_expr"), let column = table.column(String(key.dropLast(5))) {
                guard case .constant(.string(let source)) = value else {
                    throw .invalid("\"\(key)\" must be a string literal")
                }
                set(column, try binder.value(.expression(try Self.cel(source), .column(column))))
            } else if key.hasSuffix("_date") || key.hasSuffix("_time"),
                let column = table.column(String(key.dropLast(5)))
            {
                set(column, try binder.value(.relative(value, isDate: key.hasSuffix("_date"))))
            } else if key.hasSuffix("_update"), let column = table.column(String(key.dropLast(7))) {
                transforms.append((column, value))
            } else if let reference = table.reference(key) {
                guard let target = model.table(reference.target) else { continue }
                for (fk, targetField) in zip(reference.foreignKeyFields, reference.targetFields) {
                    guard let fkColumn = table.column(fk), let targetColumn = target.column(targetField) else {
                        continue
                    }
                    if let v = value[targetField] {
                        set(fkColumn, try binder.value(.value(v, .column(targetColumn))))
                    } else if case .constant(.string(let source))? = value["\(targetField)_expr"] {
                        set(fkColumn, try binder.value(.expression(try Self.cel(source), .column(targetColumn))))
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

    static func cel(_ source: String) throws(ExecutionError) -> CELExpression {
        do {
            return try CELExpression(parsing: source)
        } catch {
            throw .invalid("invalid expression \"\(source)\": \(error)")
        }
    }

    /// The value of a `@default(expr:)` at insert time.
    func defaultValue(_ expression: String, column: Column) throws(ExecutionError) -> SQLiteValue {
        switch expression {
        case "uuidV4()": return .text(UUIDGenerator.v4())
        case "uuidV7()": return .text(UUIDGenerator.v7())
        case "auth.uid":
            guard let uid = auth?.uid else {
                throw ExecutionError(
                    code: .unauthenticated,
                    message: "\"\(column.name)\" defaults to auth.uid, which needs a signed-in user")
            }
            return .text(uid)
        case "request.time":
            return .text(column.type == .scalar(.date) ? binder.requestTime.dateText : binder.requestTime.storageText)
        default:
            throw .invalid("unsupported default expression \"\(expression)\"")
        }
    }

    // MARK: - Statements

    struct WrittenKey {
        var json: JSONValue
        var entityID: String
    }

    func returningKey(_ table: Table) -> String {
        "RETURNING " + table.keyColumns.map { dialect.quote($0.sqlName) }.joined(separator: ", ")
    }

    func readKey(_ statement: Statement, table: Table) -> WrittenKey {
        var object = JSONObject()
        var parts = [table.name]
        for (index, column) in table.keyColumns.enumerated() {
            let stored = statement.value(at: index)
            object[column.name] = ScalarCodec.wireValue(stored, column: column)
            var text: String
            switch stored {
            case .integer(let i): text = String(i)
            case .real(let d): text = String(d)
            case .text(let s): text = s
            default: text = ""
            }
            if column.type == .scalar(.string) {
                text = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
            }
            parts.append(text)
        }
        return WrittenKey(json: .object(object), entityID: parts.joined(separator: "/"))
    }

    func insert(_ data: Resolved, into table: Table, upsert: Bool) throws(ExecutionError) -> WrittenKey {
        var (values, transforms) = try assignments(data, table: table)
        if !transforms.isEmpty { throw .invalid("\"\(transforms[0].column.name)_update\" applies only to updates") }
        let provided = Set(values.map(\.column.name))
        for column in table.columns where !provided.contains(column.name) {
            if case .expression(let expression)? = column.defaultValue {
                values.append((column, try defaultValue(expression, column: column)))
            } else if column.isNonNull && column.defaultValue == nil {
                throw .invalid("\(table.name).\(column.name) is required (\(column.graphQLType)) but was not given")
            }
        }
        var sql = "INSERT INTO \(dialect.quote(table.sqlName)) "
        if values.isEmpty {
            sql += "DEFAULT VALUES"
        } else {
            sql +=
                "(" + values.map { dialect.quote($0.column.sqlName) }.joined(separator: ", ") + ") VALUES ("
                + values.map { _ in "?" }.joined(separator: ", ") + ")"
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
        let statement = try prepare(sql)
        defer { statement.reset() }
        do {
            try statement.bind(values.map(\.value))
            guard try statement.step() else {
                throw ExecutionError(code: .alreadyExists, message: "\(table.name) already exists")
            }
        } catch let error as SQLiteError {
            throw Self.map(error, table: table)
        } catch let error as ExecutionError {
            throw error
        } catch {
            throw .invalid("\(error)")
        }
        return readKey(statement, table: table)
    }

    func prepare(_ sql: String) throws(ExecutionError) -> Statement {
        do {
            return try source.statement(sql)
        } catch {
            throw .refusedByDatabase(error)
        }
    }

    /// The SET clause: plain assignments and `_update` transforms, with their parameters.
    func setClause(_ data: Resolved, table: Table) throws(ExecutionError) -> (sql: String, values: [SQLiteValue]) {
        let (values, transforms) = try assignments(data, table: table)
        var parts: [String] = []
        var bound: [SQLiteValue] = []
        // Placeholders are numbered: a transform may use the current value twice.
        for (column, value) in values {
            bound.append(value)
            parts.append("\(dialect.quote(column.sqlName)) = ?\(bound.count)")
        }
        for (column, ops) in transforms {
            var expression = dialect.quote(column.sqlName)
            let list: [Resolved] = if case .list(let items) = ops { items } else { [ops] }
            for op in list {
                guard case .object(let fields) = op, let (name, operand) = fields.first else { continue }
                (expression, bound) = try transform(
                    expression, op: name, operand: operand, column: column, bound: bound)
            }
            parts.append("\(dialect.quote(column.sqlName)) = \(expression)")
        }
        if parts.isEmpty { throw .invalid("\"data\" sets no field") }
        return (parts.joined(separator: ", "), bound)
    }

    /// One `_update` step applied to an SQL expression of the column's current value.
    func transform(
        _ expression: String, op: String, operand: Resolved, column: Column, bound: [SQLiteValue]
    ) throws(ExecutionError) -> (String, [SQLiteValue]) {
        var bound = bound
        if column.isList {
            let current = "json_each(coalesce(\(expression), '[]'))"
            var values = try binder.value(.value(operand, .wireArray(column)))
            if op == "add", case .text(let text) = values, case .array(let items)? = try? JSONValue(parsing: text) {
                // "add" appends each value once, even when the input repeats it.
                var unique: [JSONValue] = []
                for item in items where !unique.contains(item) { unique.append(item) }
                values = .text(JSONValue.array(unique).jsonString())
            }
            bound.append(values)
            let p = "?\(bound.count)"
            let merged: String
            switch op {
            case "append": merged = "SELECT value FROM \(current) UNION ALL SELECT value FROM json_each(\(p))"
            case "prepend": merged = "SELECT value FROM json_each(\(p)) UNION ALL SELECT value FROM \(current)"
            case "add":
                merged =
                    "SELECT value FROM \(current) UNION ALL SELECT value FROM json_each(\(p)) WHERE value NOT IN (SELECT value FROM \(current))"
            case "remove":
                merged = "SELECT value FROM \(current) WHERE value NOT IN (SELECT value FROM json_each(\(p)))"
            default: throw .invalid("unknown list update \"\(op)\"")
            }
            return ("(SELECT coalesce(json_group_array(value), '[]') FROM (\(merged)))", bound)
        }
        guard op == "inc" || op == "dec" else { throw .invalid("unknown update \"\(op)\" for \(column.name)") }
        let sign = op == "inc" ? "+" : "-"
        switch column.type {
        case .scalar(.int), .scalar(.int64), .scalar(.float):
            bound.append(try binder.value(.value(operand, .column(column))))
            return ("(\(expression) \(sign) ?\(bound.count))", bound)
        case .scalar(.date), .scalar(.timestamp):
            // Months and years move the calendar date (the day clamped to the month's end, as Postgres and
            // relative dates do); the other units are exact, down to the stored microseconds.
            let duration = binder.resolution.json(operand)
            func n(_ unit: String) -> Int64 { Int64(duration[unit]?.intValue ?? 0) }
            let sign: Int64 = op == "inc" ? 1 : -1
            let months = sign * (n("years") * 12 + n("months"))
            let days = sign * (n("weeks") * 7 + n("days"))
            if column.type == .scalar(.date) {
                return (Self.shiftedDate(expression, months: months, days: days), bound)
            }
            let microseconds =
                days * 86_400_000_000
                + sign
                * (n("hours") * 3_600_000_000 + n("minutes") * 60_000_000 + n("seconds") * 1_000_000
                    + n("milliseconds") * 1000)
            return (Self.shiftedTimestamp(expression, months: months, microseconds: microseconds), bound)
        default:
            throw .invalid("\(column.name) cannot be incremented")
        }
    }

    /// A `YYYY-MM-DD` expression moved by whole months (day clamped to the target month) and days.
    static func shiftedDate(_ date: String, months: Int64, days: Int64) -> String {
        func modifier(_ n: Int64, _ unit: String) -> String { "'\(n >= 0 ? "+" : "")\(n) \(unit)'" }
        var result = "date(\(date)"
        if months != 0 {
            let nextMonth = modifier(months + 1, "months")
            let lastDay = "CAST(strftime('%d', \(date), 'start of month', \(nextMonth), '-1 day') AS INTEGER)"
            result +=
                ", 'start of month', \(modifier(months, "months")), "
                + "'+' || (min(CAST(strftime('%d', \(date)) AS INTEGER), \(lastDay)) - 1) || ' days'"
        }
        if days != 0 { result += ", " + modifier(days, "days") }
        return result + ")"
    }

    /// A stored timestamp expression moved by whole months, then by an exact number of microseconds.
    static func shiftedTimestamp(_ stored: String, months: Int64, microseconds: Int64) -> String {
        let day = "substr(\(stored), 1, 10)"
        let date = months == 0 ? day : shiftedDate(day, months: months, days: 0)
        let seconds = "CAST(strftime('%s', \(date) || ' ' || substr(\(stored), 12, 8)) AS INTEGER)"
        let total = "\(seconds) * 1000000 + CAST(substr(\(stored), 21, 6) AS INTEGER) + \(microseconds)"
        return "(SELECT strftime('%Y-%m-%dT%H:%M:%S', (u - f) / 1000000, 'unixepoch') || '.' "
            + "|| substr('00000' || f, -6) || 'Z' "
            + "FROM (SELECT u, ((u % 1000000) + 1000000) % 1000000 AS f FROM (SELECT \(total) AS u)))"
    }

    /// The WHERE clause of `id`/`id_expr`/`key`/`first` selectors.
    func selector(
        _ arguments: Resolved, table: Table, offset: Int = 0
    ) throws(ExecutionError) -> (sql: String, values: [SQLiteValue]) {
        var builder = QueryBuilder(api: api, dialect: dialect, resolution: binder.resolution)
        builder.maximumFilterTerms = maximumFilterTerms
        builder.parameterOffset = offset
        let alias = "s"
        let selection: (conditions: [String], orderBy: [String])
        do {
            selection = try builder.selectorConditions(arguments, table: table, alias: alias)
        } catch {
            throw ExecutionError(code: .invalidArgument, message: error.message, isRequestLevel: true)
        }
        let values = try binder.values(for: SQLStatementPlan(sql: "", parameters: builder.parameters))
        var inner = "SELECT \(alias).rowid FROM \(dialect.quote(table.sqlName)) AS \(alias)"
        if !selection.conditions.isEmpty { inner += " WHERE " + selection.conditions.joined(separator: " AND ") }
        if !selection.orderBy.isEmpty { inner += " ORDER BY " + selection.orderBy.joined(separator: ", ") }
        return ("rowid = (\(inner) LIMIT 1)", values)
    }

    func update(_ data: Resolved, table: Table, selector arguments: Resolved) throws(ExecutionError) -> WrittenKey? {
        let set = try setClause(data, table: table)
        let condition = try selector(arguments, table: table, offset: set.values.count)
        let sql = "UPDATE \(dialect.quote(table.sqlName)) SET \(set.sql) WHERE \(condition.sql) \(returningKey(table))"
        return try runReturning(sql, values: set.values + condition.values, table: table)
    }

    func delete(table: Table, selector arguments: Resolved) throws(ExecutionError) -> WrittenKey? {
        let condition = try selector(arguments, table: table)
        let sql = "DELETE FROM \(dialect.quote(table.sqlName)) WHERE \(condition.sql) \(returningKey(table))"
        return try runReturning(sql, values: condition.values, table: table)
    }

    func runReturning(_ sql: String, values: [SQLiteValue], table: Table) throws(ExecutionError) -> WrittenKey? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        do {
            try statement.bind(values)
            guard try statement.step() else { return nil }
            let key = readKey(statement, table: table)
            while try statement.step() {}
            return key
        } catch {
            throw Self.map(error, table: table)
        }
    }

    func many(table: Table, arguments: Resolved, update: Bool) throws(ExecutionError) -> Int {
        var set: (sql: String, values: [SQLiteValue])?
        if update {
            guard let data = arguments["data"] else { throw .invalid("\"data\" is required") }
            set = try setClause(data, table: table)
        }
        var builder = QueryBuilder(api: api, dialect: dialect, resolution: binder.resolution)
        builder.maximumFilterTerms = maximumFilterTerms
        builder.parameterOffset = set?.values.count ?? 0
        var condition: String?
        if let filter = arguments["where"] {
            do {
                condition = try builder.filter(filter, table: table, alias: dialect.quote(table.sqlName)) ?? "1"
            } catch {
                throw ExecutionError(code: .invalidArgument, message: error.message, isRequestLevel: true)
            }
        } else if case .constant(.bool(true))? = arguments["all"] {
            condition = "1"
        }
        guard let condition else {
            throw .invalid("\(update ? "updateMany" : "deleteMany") needs `where`, or `all: true` to affect every row")
        }
        let whereValues = try binder.values(for: SQLStatementPlan(sql: "", parameters: builder.parameters))
        let sql: String
        if let set {
            sql = "UPDATE \(dialect.quote(table.sqlName)) SET \(set.sql) WHERE \(condition)"
        } else {
            sql = "DELETE FROM \(dialect.quote(table.sqlName)) WHERE \(condition)"
        }
        let statement = try prepare(sql)
        defer { statement.reset() }
        do {
            try statement.bind((set?.values ?? []) + whereValues)
            while try statement.step() {}
        } catch {
            throw Self.map(error, table: table)
        }
        return source.connection.changes
    }

    /// Maps constraint failures to Data Connect codes.
    static func map(_ error: SQLiteError, table: Table) -> ExecutionError {
        let message = error.message
        switch error.extendedCode {
        case .constraintUnique, .constraintPrimaryKey:
            return ExecutionError(
                code: .alreadyExists, message: "duplicate key value violates unique constraint: \(message)")
        case .constraintForeignKey:
            return ExecutionError(code: .failedPrecondition, message: "violates foreign key constraint: \(message)")
        case .constraintNotNull, .constraintCheck:
            return ExecutionError(code: .invalidArgument, message: "violates a constraint of \(table.name): \(message)")
        default:
            return .failedInDatabase(error)
        }
    }
}
