import DataConnectCEL
import DataConnectSchema
import DataConnectWire

/// Evaluates parameter sources against one request.
struct ParameterBinder {
    let resolution: Resolution
    let bindings: CELBindings
    let requestTime: Instant
    /// The caller, for `@default(expr: "auth.uid")`.
    var auth: AuthContext? = nil
    /// The parent keys of a split relation's statement (a JSON array), for ``ParameterSource/rowKeys``.
    var rowKeys = "[]"
    /// The vectors of the request's `Vector_Embed` values, computed before it held a connection.
    var embedded = EmbeddedTexts()
    /// The provider of a vector missing from `embedded`.
    var embeddings: (any EmbeddingProvider)? = nil
    /// When the request's time runs out.
    var deadline = ContinuousClock.now + .seconds(60)

    func values(for plan: SQLStatementPlan) throws(ExecutionError) -> [DatabaseValue] {
        var result: [DatabaseValue] = []
        result.reserveCapacity(plan.parameters.count)
        for source in plan.parameters { result.append(try value(source)) }
        return result
    }

    func value(_ source: ParameterSource) throws(ExecutionError) -> DatabaseValue {
        switch source {
        case .fixed(let value):
            return value
        case .value(let resolved, let conversion):
            return try convert(resolution.json(resolved), conversion)
        case .expression(let expression, let conversion):
            let result: JSONValue
            do {
                result = try expression.evaluate(in: bindings)
            } catch {
                throw Self.celError(error)
            }
            return try convert(result, conversion)
        case .relative(let resolved, let isDate):
            return .text(try relativeValue(resolution.json(resolved), isDate: isDate))
        case .rowKeys:
            return .text(rowKeys)
        case .columnDefault(let expression, let column):
            return try defaultValue(expression, column: column)
        case .durationMonths(let resolved, let sign):
            let duration = resolution.json(resolved)
            return .integer(sign * (Self.unit(duration, "years") * 12 + Self.unit(duration, "months")))
        case .durationDays(let resolved, let sign):
            let duration = resolution.json(resolved)
            return .integer(sign * (Self.unit(duration, "weeks") * 7 + Self.unit(duration, "days")))
        case .durationMicroseconds(let resolved, let sign):
            let d = resolution.json(resolved)
            let days = Self.unit(d, "weeks") * 7 + Self.unit(d, "days")
            let microseconds =
                days * 86_400_000_000 + Self.unit(d, "hours") * 3_600_000_000 + Self.unit(d, "minutes") * 60_000_000
                + Self.unit(d, "seconds") * 1_000_000 + Self.unit(d, "milliseconds") * 1000
            return .integer(sign * microseconds)
        }
    }

    /// One unit of a duration object (`{days: 2}`), 0 when absent.
    static func unit(_ duration: JSONValue, _ name: String) -> Int64 {
        Int64(duration[name]?.intValue ?? 0)
    }

    /// The value of a `@default(expr:)` for this request.
    func defaultValue(_ expression: String, column: Column) throws(ExecutionError) -> DatabaseValue {
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
            return .text(column.type == .scalar(.date) ? requestTime.dateText : requestTime.storageText)
        default:
            throw .invalid("unsupported default expression \"\(expression)\"")
        }
    }

    static func celError(_ error: CELError) -> ExecutionError {
        if case .unauthenticated = error {
            return ExecutionError(code: .unauthenticated, message: "this operation needs a signed-in user (auth.uid)")
        }
        return ExecutionError(code: .invalidArgument, message: "expression failed: \(error)")
    }

    func convert(_ json: JSONValue, _ conversion: Conversion) throws(ExecutionError) -> DatabaseValue {
        switch conversion {
        case .column(let column):
            if case .null = json { return .null }
            if column.isList {
                guard case .array(let items) = json else { throw .invalid("expected a list for \"\(column.name)\"") }
                return .text(
                    ScalarCodec.listStorage(
                        .array(try items.map { item throws(ExecutionError) in try coerce(item, column) }),
                        column: column))
            }
            return ScalarCodec.storage(try coerce(json, column), for: column)
        case .scalar(let scalar):
            do {
                return ScalarCodec.storage(try ScalarCodec.coerce(json, to: scalar.rawValue), scalar: scalar)
            } catch {
                throw .invalid(error.message)
            }
        case .storageArray(let column):
            let items = json.arrayValue ?? [json]
            var stored: [JSONValue] = []
            for item in items {
                switch ScalarCodec.storage(try coerce(item, column), for: Column.element(of: column)) {
                case .integer(let i): stored.append(.number(JSONNumber(i)))
                case .real(let d): stored.append(.number(JSONNumber(d)))
                case .text(let s): stored.append(.string(s))
                case .null, .blob: stored.append(.null)
                }
            }
            return .text(JSONValue.array(stored).jsonString())
        case .wireArray(let column):
            let items = json.arrayValue ?? [json]
            let element = Column.element(of: column)
            return .text(
                JSONValue.array(
                    try items.map { item throws(ExecutionError) in
                        ScalarCodec.wire(try coerce(item, element), column: element)
                    }
                ).jsonString())
        case .uniqueWireArray(let column):
            // "add" appends each value once, even when the input repeats it.
            guard case .text(let text) = try convert(json, .wireArray(column)),
                case .array(let items)? = try? JSONValue(parsing: text)
            else { return .text("[]") }
            var unique: [JSONValue] = []
            for item in items where !unique.contains(item) { unique.append(item) }
            return .text(JSONValue.array(unique).jsonString())
        case .wireElement(let column):
            let element = Column.element(of: column)
            switch ScalarCodec.wire(try coerce(json, element), column: element) {
            case .string(let s): return .text(s)
            case .number(let n): return n.isInteger ? .integer(n.int64Value ?? 0) : .real(n.doubleValue)
            case .bool(let b): return .integer(b ? 1 : 0)
            case .null: return .null
            case let other: return .text(other.jsonString())
            }
        case .count(let name):
            guard let n = json.int64Value, n >= 0 else {
                throw .invalid("\"\(name)\" must be a non-negative integer, got \(json.jsonString())")
            }
            return .integer(n)
        case .like(let kind):
            guard case .string(let text) = json else { throw .invalid("expected a string, got \(json.jsonString())") }
            var escaped = ""
            for c in text {
                if c == "%" || c == "_" || c == "\\" { escaped.append("\\") }
                escaped.append(c)
            }
            switch kind {
            case .contains: return .text("%" + escaped + "%")
            case .prefix: return .text(escaped + "%")
            case .suffix: return .text("%" + escaped)
            }
        case .regularExpression:
            if case .null = json { return .null }
            guard case .string(let pattern) = json else {
                throw .invalid("a regular expression must be a string, got \(json.jsonString())")
            }
            guard POSIXRegex.isValid(pattern) else {
                throw .invalid("invalid regular expression \"\(pattern)\" (POSIX extended syntax)")
            }
            return .text(pattern)
        case .vector(let column):
            return try vectorValue(json, column: column)
        case .embedding(let column, let purpose):
            return try embeddingValue(json, column: column, purpose: purpose)
        case .searchQuery(let format, let syntax):
            return try searchQueryValue(json, format: format, syntax: syntax)
        }
    }

    func coerce(_ json: JSONValue, _ column: Column) throws(ExecutionError) -> JSONValue {
        if column.type == .scalar(.vector) && !column.isList { return try vector(json, column: column) }
        do {
            switch column.type {
            case .scalar(let scalar): return try ScalarCodec.coerce(json, to: scalar.rawValue)
            case .enumeration: return json
            }
        } catch {
            throw .invalid("\"\(column.name)\": \(error.message)")
        }
    }

    /// Evaluates `Date_Relative` / `Timestamp_Relative` against the request time.
    func relativeValue(_ json: JSONValue, isDate: Bool) throws(ExecutionError) -> String {
        guard case .object(let object) = json else { throw .invalid("expected a relative date object") }
        var instant: Instant
        if object["today"]?.boolValue == true || object["now"]?.boolValue == true {
            instant = requestTime
        } else if let on = object["on"]?.stringValue, let date = Instant(date: on) {
            instant = date
        } else if let at = object["at"]?.stringValue, let time = Instant(rfc3339: at) {
            instant = time
        } else {
            throw .invalid(
                isDate
                    ? "a relative date needs today: true or on: <date>"
                    : "a relative time needs now: true or at: <timestamp>")
        }
        for (key, sign) in [("add", 1), ("sub", -1)] {
            guard case .object(let d)? = object[key] else { continue }
            func n(_ k: String) -> Int { d[k]?.intValue ?? 0 }
            instant = instant.adding(
                years: n("years"), months: n("months"), weeks: n("weeks"), days: n("days"), hours: n("hours"),
                minutes: n("minutes"), seconds: n("seconds"), milliseconds: n("milliseconds"), sign: sign)
        }
        if let unit = object["truncateTo"]?.stringValue { instant = instant.truncated(to: unit) }
        return isDate ? instant.dateText : instant.storageText
    }
}

extension Column {
    /// The column describing one element of a list column (the column itself otherwise).
    package static func element(of column: Column) -> Column {
        var element = column
        element.isList = false
        return element
    }
}

extension StatementSource {
    /// The prepared statement of a plan, with the request's values bound.
    ///
    /// - Throws: ``ExecutionError``: a request-level refusal when the database cannot prepare the SQL, the
    ///   binder's error for a value that does not fit, a database failure when binding fails.
    func prepared(
        _ plan: SQLStatementPlan, binder: ParameterBinder
    ) throws(ExecutionError) -> any DatabaseStatement {
        let values = try binder.values(for: plan)
        let statement: any DatabaseStatement
        do {
            statement = try self.statement(plan.sql)
        } catch {
            throw .refusedByDatabase(error)
        }
        do {
            try statement.bindParameters(values)
        } catch {
            statement.finish()
            throw .failedInDatabase(error)
        }
        return statement
    }
}
