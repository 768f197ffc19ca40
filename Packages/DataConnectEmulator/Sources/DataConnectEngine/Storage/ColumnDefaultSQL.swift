import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

/// Renders a column's `@default` as the SQL of a `DEFAULT` clause, in the column's storage form.
///
/// - `@default(value:)`: a literal. Strings are quoted; `Int`, `Int64` and `Float` are numbers; `Boolean` is
///   the dialect's boolean; enums are their value name; UUIDs are 32 lowercase hex digits; dates are
///   `YYYY-MM-DD`; timestamps are fixed-width UTC `YYYY-MM-DDTHH:MM:SS.ffffffZ`; `Any` is JSON text; lists are
///   the dialect's ``SQLDialect/listLiteral(_:of:)`` of their elements' wire form (UUIDs canonical, `Int64` as
///   strings, timestamps in UTC with 0, 3 or 6 fractional digits), as SQLite's list columns store them. A
///   database with its own types reads each text literal as the column's type.
/// - `@default(sql:)`: the portable functions (`now()`, `CURRENT_TIMESTAMP`, `CURRENT_DATE`, `gen_random_uuid()`,
///   `uuid_generate_v4()`) become the dialect's ``SQLDefaultFunction`` expressions and constants become literals
///   like `@default(value:)`; any other expression is the author's PostgreSQL SQL and is written as is, in
///   parentheses (``isNative(_:for:)``).
/// - `@default(expr:)`: nothing; the engine evaluates CEL defaults when it inserts.
package enum ColumnDefaultSQL {
    /// The SQL of the `DEFAULT` clause for `column`, or `nil` when the column has none in the DDL.
    package static func render(_ column: Column, dialect: any SQLDialect) -> String? {
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
            return dialect.listLiteral(elements, of: column)
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
        case .timestamp: Instant(rfc3339: text)?.storageText
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
        case (.timestamp, .string(let text)):
            return Instant(rfc3339: text.value).map { .string(ScalarCodec.wireTimestamp($0)) }
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
        return isNumericLiteral(trimmed) ? trimmed : "(\(trimmed))"
    }

    /// Whether a `@default(sql:)` is written to the database as is: not one of the portable functions or
    /// constants this type translates.
    ///
    /// The same cases as ``sqlDefault(_:for:dialect:)``, decided without a dialect: a portable function or
    /// `true`/`false`, a quoted string, or a numeric literal is translated; anything else is native.
    package static func isNative(_ sql: String, for column: Column) -> Bool {
        let trimmed = sql.trimmingWhitespace
        let normalized = String(trimmed.lowercased().filter { !$0.isWhitespace })
        switch normalized {
        case "now()", "current_timestamp", "current_date", "gen_random_uuid()", "uuid_generate_v4()", "true", "false":
            return false
        default:
            break
        }
        if trimmed.count >= 2, trimmed.hasPrefix("'"), trimmed.hasSuffix("'") { return false }
        return !isNumericLiteral(trimmed)
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
