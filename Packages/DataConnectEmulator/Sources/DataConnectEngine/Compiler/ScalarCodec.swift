import DataConnectSchema
import DataConnectWire

/// Converts between JSON wire values and storage values (``DatabaseValue``), per column type.
enum ScalarCodec {
    /// Why a value does not fit a type.
    struct Mismatch: Error, Sendable {
        let expected: String
        let found: JSONValue
        var message: String {
            "expected \(expected), found \(found.jsonString())"
        }
    }

    /// Coerces a JSON value to a scalar's canonical wire form (UUID dashless, timestamps in storage
    /// form, Int64 as a number); throws when it does not fit.
    static func coerce(_ value: JSONValue, to scalar: String, enumValues: [String]? = nil) throws(Mismatch) -> JSONValue
    {
        if case .null = value { return .null }
        if let enumValues {
            guard case .string(let s) = value, enumValues.contains(s) else {
                throw Mismatch(expected: "one of \(enumValues.joined(separator: ", "))", found: value)
            }
            return value
        }
        switch scalar {
        case "String", "ID":
            if case .string = value { return value }
            if scalar == "ID", case .number(let n) = value, n.isInteger { return .string(n.text) }
        case "Int":
            if case .number(let n) = value, let i = n.int64Value, n.isInteger, ScalarFormats.isInt32(i) { return value }
        case "Int64":
            if case .number(let n) = value, n.isInteger, let i = n.int64Value { return .number(JSONNumber(i)) }
            if case .string(let s) = value, let i = ScalarFormats.int64(s) { return .number(JSONNumber(i)) }
        case "Float":
            if case .number(let n) = value, ScalarFormats.isRepresentableFloat(n.text) { return value }
        case "Boolean":
            if case .bool = value { return value }
        case "UUID":
            if case .string(let s) = value, let u = ScalarFormats.canonicalUUID(s) { return .string(u) }
        case "Date":
            if case .string(let s) = value, let d = ScalarFormats.canonicalDate(s) { return .string(d) }
        case "Timestamp":
            if case .string(let s) = value, let t = Instant(rfc3339: s) { return .string(t.storageText) }
        case "Any":
            return value
        case "Vector":
            if case .array(let items) = value, items.allSatisfy({ if case .number = $0 { true } else { false } }) {
                return value
            }
        default:
            if case .string = value { return value }
        }
        throw Mismatch(expected: scalar, found: value)
    }

    /// The storage value of a coerced JSON value of a column.
    static func storage(_ value: JSONValue, for column: Column) -> DatabaseValue {
        if case .null = value { return .null }
        if column.isList { return .text(listStorage(value, column: column)) }
        switch column.type {
        case .enumeration: return value.stringValue.map(DatabaseValue.text) ?? .null
        case .scalar(let scalar): return storage(value, scalar: scalar)
        }
    }

    /// The storage value of a coerced JSON value of a scalar type.
    static func storage(_ value: JSONValue, scalar: ScalarType) -> DatabaseValue {
        switch (scalar, value) {
        case (_, .null): return .null
        case (.int, .number(let n)), (.int64, .number(let n)): return .integer(n.int64Value ?? 0)
        case (.int64, .string(let s)): return .integer(Int64(s) ?? 0)
        case (.float, .number(let n)): return .real(n.doubleValue)
        case (.boolean, .bool(let b)): return .integer(b ? 1 : 0)
        // `Any` is stored canonically (keys sorted), so equal values compare equal in SQL, as jsonb does.
        case (.any, _): return .text(value.jsonString(canonical: true))
        case (.vector, _): return .text(value.jsonString())
        case (.timestamp, .string(let s)): return .text(Instant(rfc3339: s)?.storageText ?? s)
        case (_, .string(let s)): return .text(s)
        case (_, .number(let n)): return n.isInteger ? .integer(n.int64Value ?? 0) : .real(n.doubleValue)
        case (_, .bool(let b)): return .integer(b ? 1 : 0)
        default: return .text(value.jsonString())
        }
    }

    /// A list column's stored JSON: the wire form of each element (Int64 as strings, timestamps trimmed).
    static func listStorage(_ value: JSONValue, column: Column) -> String {
        guard case .array(let items) = value else { return "[]" }
        return JSONValue.array(items.map { wire($0, column: column) }).jsonString()
    }

    /// The wire form of one coerced element of a column's type.
    static func wire(_ value: JSONValue, column: Column) -> JSONValue {
        guard case .scalar(let scalar) = column.type else { return value }
        switch (scalar, value) {
        case (.int64, .number(let n)): return .string(n.text)
        case (.timestamp, .string(let s)): return .string(Instant(rfc3339: s).map(wireTimestamp) ?? s)
        default: return value
        }
    }

    /// The wire form of a timestamp: UTC, fraction trimmed to 0, 3 or 6 digits.
    static func wireTimestamp(_ instant: Instant) -> String {
        instant.wireText
    }

    /// The JSON wire value of a column's stored value (for key outputs and CEL bindings).
    static func wireValue(_ stored: DatabaseValue, column: Column) -> JSONValue {
        switch stored {
        case .null: return .null
        case .integer(let i):
            if column.type == .scalar(.boolean) { return .bool(i != 0) }
            if column.type == .scalar(.int64) { return .string(String(i)) }
            return .number(JSONNumber(i))
        case .real(let d): return .number(JSONNumber(d))
        case .text(let s):
            if column.isList || column.type == .scalar(.any) || column.type == .scalar(.vector) {
                return (try? JSONValue(parsing: s)) ?? .string(s)
            }
            if column.type == .scalar(.timestamp), let instant = Instant(rfc3339: s) {
                return .string(wireTimestamp(instant))
            }
            return .string(s)
        case .blob: return .null
        }
    }
}
