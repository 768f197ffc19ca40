import DataConnectCEL
import DataConnectSchema
import DataConnectWire
import SQLiteKit

/// How a bound value turns into the SQLite value a statement compares or stores.
enum Conversion: Sendable {
    /// The storage form of a column's type (UUID canonical, Boolean 0/1, JSON text for lists).
    case column(Column)
    /// The storage form of a scalar.
    case scalar(ScalarType)
    /// A JSON array of storage values, for `IN (SELECT value FROM json_each(?))`.
    case storageArray(Column)
    /// A JSON array of wire values, for list-column filters (lists are stored in wire form).
    case wireArray(Column)
    /// One wire value of a list column's element.
    case wireElement(Column)
    /// A non-negative integer (limit, offset).
    case count(String)
    /// The text, escaped for `LIKE ... ESCAPE '\'`, with `%` around it as the kind says.
    case like(LikeKind)
    /// A POSIX extended regular expression (`pattern.regex`), checked to compile before the statement runs.
    case regularExpression
}

/// Where `contains`, `startsWith` and `endsWith` put the wildcards.
enum LikeKind: Sendable {
    case contains, prefix, suffix
}

/// Where a statement parameter's value comes from at bind time.
enum ParameterSource: Sendable {
    /// A resolved argument value (leaves substituted from the request).
    case value(Resolved, Conversion)
    /// A CEL server value (`eq_expr: "auth.uid"`).
    case expression(CELExpression, Conversion)
    /// A relative date or timestamp (`{today: true, add: {days: 7}}`).
    case relative(Resolved, isDate: Bool)
    /// A fixed value.
    case fixed(SQLiteValue)
}

/// A compiled statement and the recipe for its parameters.
struct SQLStatementPlan: Sendable {
    /// The SQL text, with `?` placeholders.
    let sql: String
    /// One source per placeholder, in order.
    let parameters: [ParameterSource]
}

/// Why a request cannot run: a value that does not fit, an expression that fails.
struct ExecutionError: Error, Sendable {
    let code: StatusCode
    let message: String
    /// Whether the whole request fails with the error's status (a limit, a shape the database refuses, the
    /// time limit) instead of a GraphQL error beside partial data.
    var isRequestLevel = false

    init(code: StatusCode, message: String, isRequestLevel: Bool = false) {
        self.code = code
        self.message = message
        self.isRequestLevel = isRequestLevel
    }

    static func invalid(_ message: String) -> ExecutionError {
        ExecutionError(code: .invalidArgument, message: message)
    }
}

/// Evaluates parameter sources against one request.
struct ParameterBinder {
    let resolution: Resolution
    let bindings: CELBindings
    let requestTime: Instant

    func values(for plan: SQLStatementPlan) throws(ExecutionError) -> [SQLiteValue] {
        var result: [SQLiteValue] = []
        result.reserveCapacity(plan.parameters.count)
        for source in plan.parameters { result.append(try value(source)) }
        return result
    }

    func value(_ source: ParameterSource) throws(ExecutionError) -> SQLiteValue {
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
        }
    }

    static func celError(_ error: CELError) -> ExecutionError {
        if case .unauthenticated = error {
            return ExecutionError(code: .unauthenticated, message: "this operation needs a signed-in user (auth.uid)")
        }
        return ExecutionError(code: .invalidArgument, message: "expression failed: \(error)")
    }

    func convert(_ json: JSONValue, _ conversion: Conversion) throws(ExecutionError) -> SQLiteValue {
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
        }
    }

    func coerce(_ json: JSONValue, _ column: Column) throws(ExecutionError) -> JSONValue {
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
    static func element(of column: Column) -> Column {
        var element = column
        element.isList = false
        return element
    }
}
