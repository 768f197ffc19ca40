import DataConnectWire

/// A value during evaluation: CEL's types over JSON data.
///
/// Bindings arrive as ``JSONValue``s; their arrays and objects stay JSON until an element is read, so a large
/// `response` or `this` costs nothing until the expression looks inside it. A JSON number becomes an `int` when
/// it is an integer in `Int64` range and a `double` otherwise.
enum CELValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case list(CELList)
    case map(CELMap)
    case timestamp(CELTimestamp)
    case duration(CELDuration)

    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let number):
            if number.isInteger, let integer = number.int64Value {
                self = .int(integer)
            } else {
                self = .double(number.doubleValue)
            }
        case .string(let value): self = .string(value)
        case .array(let elements): self = .list(CELList(json: elements))
        case .object(let object): self = .map(CELMap(json: object))
        }
    }

    /// The value as JSON: timestamps as RFC 3339 strings, durations as `"1.5s"`, non-finite doubles as `null`.
    var json: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .number(JSONNumber(value))
        case .uint(let value):
            if let signed = Int64(exactly: value) { return .number(JSONNumber(signed)) }
            return JSONNumber(literal: String(value)).map(JSONValue.number) ?? .null
        case .double(let value): return value.isFinite ? .number(JSONNumber(value)) : .null
        case .string(let value): return .string(value)
        case .list(let list): return list.json
        case .map(let map): return map.json
        case .timestamp(let value): return .string(value.rfc3339)
        case .duration(let value): return .string(value.text)
        }
    }

    /// The CEL type name, for messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int: return "int"
        case .uint: return "uint"
        case .double: return "double"
        case .string: return "string"
        case .list: return "list"
        case .map: return "map"
        case .timestamp: return "timestamp"
        case .duration: return "duration"
        }
    }
}

/// A CEL list: JSON elements read lazily, or values built by the expression.
struct CELList: Sendable {
    enum Storage: Sendable {
        case json([JSONValue])
        case values([CELValue])
    }

    var storage: Storage

    init(json: [JSONValue]) {
        storage = .json(json)
    }

    init(_ values: [CELValue]) {
        storage = .values(values)
    }

    var count: Int {
        switch storage {
        case .json(let elements): return elements.count
        case .values(let values): return values.count
        }
    }

    subscript(position: Int) -> CELValue {
        switch storage {
        case .json(let elements): return CELValue(elements[position])
        case .values(let values): return values[position]
        }
    }

    var elements: [CELValue] {
        switch storage {
        case .json(let elements): return elements.map(CELValue.init)
        case .values(let values): return values
        }
    }

    var json: JSONValue {
        switch storage {
        case .json(let elements): return .array(elements)
        case .values(let values): return .array(values.map(\.json))
        }
    }
}

/// A CEL map with string keys: a JSON object read lazily, or entries built by the expression.
struct CELMap: Sendable {
    enum Storage: Sendable {
        case json(JSONObject)
        case values([(key: String, value: CELValue)])
    }

    var storage: Storage

    init(json: JSONObject) {
        storage = .json(json)
    }

    init(_ entries: [(key: String, value: CELValue)]) {
        storage = .values(entries)
    }

    var count: Int {
        switch storage {
        case .json(let object): return object.count
        case .values(let entries): return entries.count
        }
    }

    var keys: [String] {
        switch storage {
        case .json(let object): return object.keys
        case .values(let entries): return entries.map(\.key)
        }
    }

    subscript(key: String) -> CELValue? {
        switch storage {
        case .json(let object): return object[key].map(CELValue.init)
        case .values(let entries): return entries.first { $0.key == key }?.value
        }
    }

    var json: JSONValue {
        switch storage {
        case .json(let object): return .object(object)
        case .values(let entries): return .object(JSONObject(entries.map { ($0.key, $0.value.json) }))
        }
    }
}

// MARK: - Equality and ordering

extension CELValue {
    /// CEL equality: numbers compare by value across `int`, `uint` and `double`; lists and maps compare member by
    /// member; values of different types are unequal. A timestamp equals a string holding the same RFC 3339 instant.
    func celEquals(_ other: CELValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.timestamp(let a), .timestamp(let b)): return a == b
        case (.timestamp(let a), .string(let b)), (.string(let b), .timestamp(let a)):
            return CELTimestamp(rfc3339: b) == a
        case (.duration(let a), .duration(let b)): return a == b
        case (.list(let a), .list(let b)):
            guard a.count == b.count else { return false }
            for position in 0..<a.count where !a[position].celEquals(b[position]) { return false }
            return true
        case (.map(let a), .map(let b)):
            guard a.count == b.count else { return false }
            for key in a.keys {
                guard let left = a[key], let right = b[key], left.celEquals(right) else { return false }
            }
            return true
        default:
            if let order = CELValue.compareNumbers(self, other) { return order == 0 }
            return false
        }
    }

    /// CEL ordering: -1, 0 or 1; `nil` when the values are unordered (a NaN).
    ///
    /// - Throws: when the types cannot be ordered (`string < int`, lists, maps, null).
    func celCompare(_ other: CELValue, operator op: String) throws(CELError) -> Int? {
        switch (self, other) {
        case (.string(let a), .string(let b)):
            if a.unicodeScalars.elementsEqual(b.unicodeScalars) { return 0 }
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1
        case (.bool(let a), .bool(let b)):
            return a == b ? 0 : (!a ? -1 : 1)
        case (.timestamp(let a), .timestamp(let b)):
            return a == b ? 0 : (a < b ? -1 : 1)
        case (.timestamp, .string(let text)):
            guard let b = CELTimestamp(rfc3339: text) else { break }
            return try celCompare(.timestamp(b), operator: op)
        case (.string(let text), .timestamp):
            guard let a = CELTimestamp(rfc3339: text) else { break }
            return try CELValue.timestamp(a).celCompare(other, operator: op)
        case (.duration(let a), .duration(let b)):
            return a == b ? 0 : (a < b ? -1 : 1)
        default:
            if isNumber && other.isNumber { return CELValue.compareNumbers(self, other) }
        }
        throw .evaluation(message: "no such overload: \(typeName) \(op) \(other.typeName)")
    }

    var isNumber: Bool {
        switch self {
        case .int, .uint, .double: return true
        default: return false
        }
    }

    /// Compares two numbers exactly, whatever their types; `nil` when either is not a number or is NaN.
    static func compareNumbers(_ a: CELValue, _ b: CELValue) -> Int? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.uint(let x), .uint(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.int(let x), .uint(let y)): return x < 0 ? -1 : compare(UInt64(x), y)
        case (.uint(let x), .int(let y)): return y < 0 ? 1 : compare(x, UInt64(y))
        case (.double(let x), .double(let y)): return x.isNaN || y.isNaN ? nil : (x == y ? 0 : (x < y ? -1 : 1))
        case (.int(let x), .double(let y)): return compare(x, y)
        case (.uint(let x), .double(let y)): return compare(x, y)
        case (.double, .int), (.double, .uint):
            return compareNumbers(b, a).map { -$0 }
        default: return nil
        }
    }

    private static func compare(_ x: UInt64, _ y: UInt64) -> Int {
        x == y ? 0 : (x < y ? -1 : 1)
    }

    /// Compares an integer with a double exactly, even beyond 2^53.
    private static func compare(_ x: Int64, _ y: Double) -> Int? {
        guard !y.isNaN else { return nil }
        if y >= 9_223_372_036_854_775_808.0 { return -1 }
        if y < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = y.rounded(.towardZero)
        let integer = Int64(whole)
        if x != integer { return x < integer ? -1 : 1 }
        return y == whole ? 0 : (y > whole ? -1 : 1)
    }

    /// Compares an unsigned integer with a double exactly, even beyond 2^53.
    private static func compare(_ x: UInt64, _ y: Double) -> Int? {
        guard !y.isNaN else { return nil }
        if y >= 18_446_744_073_709_551_616.0 { return -1 }
        if y < 0 { return 1 }
        let whole = y.rounded(.towardZero)
        let integer = UInt64(whole)
        if x != integer { return x < integer ? -1 : 1 }
        return y == whole ? 0 : -1
    }
}
