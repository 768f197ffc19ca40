/// A JSON document: null, a boolean, a number, a string, an array or an object.
///
/// Numbers keep their exact value (see ``JSONNumber``) and objects keep their key order (see ``JSONObject``),
/// so reading and writing a document gives back the same text, apart from whitespace.
///
/// ```swift
/// let value: JSONValue = ["movies": [["id": "m1", "rating": 8.5, "tags": ["sci-fi"]]]]
/// value["movies"]?[0]?["rating"]?.doubleValue  // 8.5
/// value.description  // {"movies":[{"id":"m1","rating":8.5,"tags":["sci-fi"]}]}
/// ```
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept exact.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, in key order.
    case object(JSONObject)
}

// MARK: - Building values

extension JSONValue {
    /// Creates a number value from an integer.
    @inlinable
    public init(_ value: Int) {
        self = .number(JSONNumber(value))
    }

    /// Creates a number value from a 64-bit integer.
    @inlinable
    public init(_ value: Int64) {
        self = .number(JSONNumber(value))
    }

    /// Creates a number value from a double; non-finite values are written as `null`.
    @inlinable
    public init(_ value: Double) {
        self = .number(JSONNumber(value))
    }

    /// Creates a string value.
    @inlinable
    public init(_ value: String) {
        self = .string(value)
    }

    /// Creates a boolean value.
    @inlinable
    public init(_ value: Bool) {
        self = .bool(value)
    }

    /// Parses a JSON document with the default ``JSONReader/Options``.
    ///
    /// - Throws: ``JSONError`` when the text is not one valid JSON value.
    public init(parsing text: String) throws(JSONError) {
        self = try JSONReader().parse(text)
    }

    /// Parses a JSON document from UTF-8 bytes with the default ``JSONReader/Options``.
    ///
    /// - Throws: ``JSONError`` when the bytes are not one valid JSON value.
    public init(parsing bytes: [UInt8]) throws(JSONError) {
        self = try JSONReader().parse(bytes)
    }
}

// MARK: - Reading values

extension JSONValue {
    /// Whether the value is `null`.
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, when the value is one.
    @inlinable
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The string, when the value is one.
    @inlinable
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when the value is one.
    @inlinable
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int64`, when the value is an integer in range (see ``JSONNumber/int64Value``).
    public var int64Value: Int64? {
        numberValue?.int64Value
    }

    /// The number as an `Int`, when the value is an integer in range.
    public var intValue: Int? {
        numberValue?.intValue
    }

    /// The number as the nearest `Double`, when the value is a number.
    public var doubleValue: Double? {
        numberValue?.doubleValue
    }

    /// The elements, when the value is an array.
    @inlinable
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when the value is an object.
    @inlinable
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member named `key`, when the value is an object that has it.
    ///
    /// Chains read naturally: `response["data"]?["movies"]?[0]?["title"]`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index`, when the value is an array and the index is in bounds.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

// MARK: - Writing values

extension JSONValue {
    /// The value as compact JSON bytes; with `canonical`, keys sorted and numbers normalized.
    ///
    /// See ``JSONWriter/write(_:canonical:)`` for what canonical means.
    public func serialized(canonical: Bool = false) -> [UInt8] {
        JSONWriter.serialize(self, canonical: canonical)
    }

    /// The value as compact JSON text; with `canonical`, keys sorted and numbers normalized.
    public func jsonString(canonical: Bool = false) -> String {
        String(decoding: serialized(canonical: canonical), as: UTF8.self)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text.
    public var description: String {
        jsonString()
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object from a literal, keeping the literal's key order; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}
