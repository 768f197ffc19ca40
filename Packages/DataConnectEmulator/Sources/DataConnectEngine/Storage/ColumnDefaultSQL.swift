import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

/// Renders a column's `@default` as the SQL of a `DEFAULT` clause, in the column's storage form.
///
/// - `@default(value:)`: a literal. Strings are quoted; `Int`, `Int64` and `Float` are numbers; `Boolean` is
///   the dialect's boolean; enums are their value name; UUIDs are 32 lowercase hex digits; dates are
///   `YYYY-MM-DD`; timestamps are fixed-width UTC `YYYY-MM-DDTHH:MM:SS.ffffffZ`; `Any` and lists are JSON text.
///   List elements take their wire form (UUIDs canonical, `Int64` as strings, timestamps in UTC with 0, 3 or 6
///   fractional digits), as list columns store them.
/// - `@default(sql:)`: the whitelisted functions become the dialect's ``SQLDefaultFunction`` expressions;
///   constants become literals like `@default(value:)`.
/// - `@default(expr:)`: nothing; the engine evaluates CEL defaults when it inserts.
enum ColumnDefaultSQL {
    /// The SQL of the `DEFAULT` clause for `column`, or `nil` when the column has none in the DDL.
    static func render(_ column: Column, dialect: any SQLDialect) -> String? {
        switch column.defaultValue {
        case nil, .expression: return nil
        case .value(let value): return literal(value, for: column, dialect: dialect)
        case .sql(let sql): return sqlDefault(sql, for: column, dialect: dialect)
        }
    }

    // MARK: @default(value:)

    static func literal(_ value: Value, for column: Column, dialect: any SQLDialect) -> String? {
        if case .null = value { return nil }
        if column.isList {
            let items: [Value]
            if case .list(let values, _) = value { items = values } else { items = [value] }
            var elements: [JSONValue] = []
            for item in items {
                guard let element = listElement(item, of: column.type) else { return nil }
                elements.append(element)
            }
            return dialect.stringLiteral(JSONValue.array(elements).jsonString())
        }
        switch column.type {
        case .enumeration:
            switch value {
            case .enum(let name): return dialect.stringLiteral(name.value)
            case .string(let text): return dialect.stringLiteral(text.value)
            default: return nil
            }
        case .scalar(let scalar):
            return scalarLiteral(value, scalar: scalar, dialect: dialect)
        }
    }

    private static func scalarLiteral(_ value: Value, scalar: ScalarType, dialect: any SQLDialect) -> String? {
        switch (scalar, value) {
        case (.any, _), (.vector, _):
            return json(value).map { dialect.stringLiteral($0.jsonString()) }
        case (.int, .int(let text, _)), (.int64, .int(let text, _)):
            return Int64(text).map(String.init)
        case (.int64, .string(let text)):
            return ScalarFormats.int64(text.value).map(String.init)
        case (.float, .int(let text, _)), (.float, .float(let text, _)):
            guard let number = Double(text), number.isFinite else { return nil }
            return text
        case (.boolean, .boolean(let flag, _)):
            return dialect.booleanLiteral(flag)
        case (_, .string(let text)):
            return storedText(text.value, scalar: scalar).map(dialect.stringLiteral)
        default:
            return nil
        }
    }

    /// The storage text of a string-typed scalar, or `nil` when `text` is not a value of the type.
    static func storedText(_ text: String, scalar: ScalarType) -> String? {
        switch scalar {
        case .string: text
        case .uuid: ScalarFormats.canonicalUUID(text)
        case .date: ScalarFormats.canonicalDate(text)
        case .timestamp: StoredTimestamp(rfc3339: text)?.storageText
        default: nil
        }
    }

    /// One element of a list default, in the wire form list columns store.
    private static func listElement(_ value: Value, of type: DataConnectSchema.ColumnType) -> JSONValue? {
        guard case .scalar(let scalar) = type else {
            switch value {
            case .enum(let name): return .string(name.value)
            case .string(let text): return .string(text.value)
            default: return nil
            }
        }
        switch (scalar, value) {
        case (.any, _), (.vector, _): return json(value)
        case (.int, .int(let text, _)): return Int64(text).map { JSONValue($0) }
        case (.int64, .int(let text, _)): return ScalarFormats.int64(text).map { .string(String($0)) }
        case (.int64, .string(let text)): return ScalarFormats.int64(text.value).map { .string(String($0)) }
        case (.float, .int(let text, _)), (.float, .float(let text, _)):
            return JSONNumber(literal: text).map(JSONValue.number)
        case (.boolean, .boolean(let flag, _)): return .bool(flag)
        case (.timestamp, .string(let text)): return StoredTimestamp(rfc3339: text.value).map { .string($0.wireText) }
        case (_, .string(let text)): return storedText(text.value, scalar: scalar).map(JSONValue.string)
        default: return nil
        }
    }

    /// A constant GraphQL value as JSON (enum values become strings).
    static func json(_ value: Value) -> JSONValue? {
        switch value {
        case .variable: return nil
        case .int(let text, _), .float(let text, _): return JSONNumber(literal: text).map(JSONValue.number)
        case .string(let text): return .string(text.value)
        case .boolean(let flag, _): return .bool(flag)
        case .null: return .null
        case .enum(let name): return .string(name.value)
        case .list(let items, _):
            var elements: [JSONValue] = []
            for item in items {
                guard let element = json(item) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        case .object(let fields, _):
            var object = JSONObject()
            for field in fields {
                guard let element = json(field.value) else { return nil }
                object[field.name.value] = element
            }
            return .object(object)
        }
    }

    // MARK: @default(sql:)

    static func sqlDefault(_ sql: String, for column: Column, dialect: any SQLDialect) -> String? {
        let trimmed = sql.trimmingWhitespace
        let normalized = String(trimmed.lowercased().filter { !$0.isWhitespace })
        switch normalized {
        case "now()", "current_timestamp":
            let isDate = column.type == .scalar(.date) && !column.isList
            return dialect.defaultExpression(isDate ? .currentDate : .currentTimestamp)
        case "current_date":
            return dialect.defaultExpression(.currentDate)
        case "gen_random_uuid()", "uuid_generate_v4()":
            return dialect.defaultExpression(.randomUUID)
        case "true", "false":
            return column.type == .scalar(.boolean) ? dialect.booleanLiteral(normalized == "true") : nil
        default:
            break
        }
        if trimmed.count >= 2, trimmed.hasPrefix("'"), trimmed.hasSuffix("'") {
            let body = String(trimmed.dropFirst().dropLast()).replacing("''", with: "'")
            if case .enumeration = column.type { return dialect.stringLiteral(body) }
            guard case .scalar(let scalar) = column.type, !column.isList else { return dialect.stringLiteral(body) }
            if scalar == .any || scalar == .vector { return dialect.stringLiteral(body) }
            return storedText(body, scalar: scalar).map(dialect.stringLiteral) ?? dialect.stringLiteral(body)
        }
        return isNumericLiteral(trimmed) ? trimmed : nil
    }

    /// Whether `text` is a plain SQL numeric literal: an optional sign, digits with an optional fraction, and
    /// an optional exponent.
    static func isNumericLiteral(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

/// A `Timestamp` in UTC with microsecond precision, parsed from RFC 3339 and written in its storage form.
struct StoredTimestamp: Hashable, Sendable {
    /// Microseconds since 1970-01-01T00:00:00Z.
    var microseconds: Int64

    /// Parses RFC 3339 with any offset and 0 to 9 fractional digits (digits past the sixth are dropped).
    init?(rfc3339 text: String) {
        guard ScalarFormats.isValidTimestamp(text) else { return nil }
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64 {
            range.reduce(0) { $0 * 10 + Int64(b[$1] - UInt8(ascii: "0")) }
        }
        let days = Self.days(year: number(0..<4), month: number(5..<7), day: number(8..<10))
        var seconds = days * 86_400 + number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19)
        var fraction: Int64 = 0
        var i = 19
        if b[i] == UInt8(ascii: ".") {
            i += 1
            var count = 0
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                if count < 6 { fraction = fraction * 10 + Int64(b[i] - UInt8(ascii: "0")) }
                count += 1
                i += 1
            }
            for _ in min(count, 6)..<6 { fraction *= 10 }
        }
        if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let offset = number((i + 1)..<(i + 3)) * 3600 + number((i + 4)..<(i + 6)) * 60
            seconds += b[i] == UInt8(ascii: "+") ? -offset : offset
        }
        microseconds = seconds * 1_000_000 + fraction
    }

    /// The storage form: fixed-width `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
    var storageText: String {
        var days = microseconds / 86_400_000_000
        var rest = microseconds % 86_400_000_000
        if rest < 0 {
            rest += 86_400_000_000
            days -= 1
        }
        let (year, month, day) = Self.civil(days: days)
        let second = rest / 1_000_000
        return "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T\(Self.pad(second / 3600, 2)):"
            + "\(Self.pad(second / 60 % 60, 2)):\(Self.pad(second % 60, 2)).\(Self.pad(rest % 1_000_000, 6))Z"
    }

    /// The wire form: UTC with the fraction trimmed to 0, 3 or 6 digits.
    var wireText: String {
        let text = storageText
        if text.hasSuffix(".000000Z") { return String(text.prefix(19)) + "Z" }
        if text.hasSuffix("000Z") { return String(text.prefix(23)) + "Z" }
        return text
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day number.
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension String {
    /// The string without leading and trailing whitespace.
    fileprivate var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
