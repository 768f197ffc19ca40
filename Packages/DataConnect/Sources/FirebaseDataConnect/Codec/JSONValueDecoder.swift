import DataConnectWire
import Foundation

/// Decodes `Decodable` values straight from a parsed ``JSONValue``, without serializing it back to bytes for
/// `JSONDecoder`: the SDK parses each response once.
///
/// It follows `JSONDecoder`'s rules for the standard types, plus Data Connect's wire forms: a `UUID` may be
/// written as 32 hex digits (as the server sends it) or dashed, and an integer may arrive as a decimal string
/// (`Int64` travels as one).
struct JSONValueDecoder {
    /// Decodes a value of `type` from `value`.
    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).decodeValue(type)
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(codingPath: codingPath, debugDescription: "expected an object, found \(value.kind)"))
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else {
            throw DecodingError.typeMismatch(
                [Any].self, .init(codingPath: codingPath, debugDescription: "expected an array, found \(value.kind)"))
        }
        return UnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(value: value, codingPath: codingPath)
    }

    /// Decodes `type`, with the Data Connect forms of `UUID`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == UUID.self {
            guard case .string(let text) = value, let uuid = Self.uuid(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "expected a UUID, found \(value.jsonString())"))
            }
            return uuid as! T
        }
        return try T(from: self)
    }

    /// A UUID from 32 hex digits or the dashed form.
    static func uuid(_ text: String) -> UUID? {
        if let uuid = UUID(uuidString: text) { return uuid }
        let hex = Array(text.utf8)
        guard hex.count == 32 else { return nil }
        var dashed = ""
        dashed.reserveCapacity(36)
        for (index, byte) in hex.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { dashed.append("-") }
            dashed.unicodeScalars.append(UnicodeScalar(byte))
        }
        return UUID(uuidString: dashed)
    }
}

extension JSONValue {
    /// A short name of the value's kind, for messages.
    fileprivate var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Reads scalars out of a JSON value for the three container kinds.
private enum Scalars {
    static func mismatch<T>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value.kind)"))
    }

    static func bool(_ value: JSONValue, _ path: [any CodingKey]) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch(Bool.self, value, path) }
        return b
    }

    static func string(_ value: JSONValue, _ path: [any CodingKey]) throws -> String {
        guard case .string(let s) = value else { throw mismatch(String.self, value, path) }
        return s
    }

    static func double(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
        switch value {
        case .number(let n): return n.doubleValue
        case .string(let s): if let d = Double(s) { return d }
        default: break
        }
        throw mismatch(Double.self, value, path)
    }

    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        switch value {
        case .number(let n):
            if n.isInteger, let i = n.int64Value, let result = T(exactly: i) { return result }
        case .string(let s):
            if let result = T(s) { return result }
        default: break
        }
        throw mismatch(T.self, value, path)
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { "Index \(intValue ?? 0)" }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func value(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no value for the key \"\(key.stringValue)\""))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Scalars.bool(value(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try Scalars.string(value(key), codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try Scalars.double(value(key), codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(try Scalars.double(value(key), codingPath + [key]))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try Scalars.integer(type, value(key), codingPath + [key])
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder(value: value(key), codingPath: codingPath + [key]).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(object), codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if items[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (v, p) = try next(); return try Scalars.bool(v, p) }
    mutating func decode(_ type: String.Type) throws -> String {
        let (v, p) = try next(); return try Scalars.string(v, p)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (v, p) = try next(); return try Scalars.double(v, p)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let (v, p) = try next()
        return Float(try Scalars.double(v, p))
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let (v, p) = try next(); return try Scalars.integer(type, v, p)
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let (v, p) = try next(); return try Scalars.integer(type, v, p)
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let (v, p) = try next(); return try Scalars.integer(type, v, p)
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let (v, p) = try next(); return try Scalars.integer(type, v, p)
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let (v, p) = try next(); return try Scalars.integer(type, v, p)
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let (v, p) = try next(); return try Scalars.integer(type, v, p)
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let (v, p) = try next(); return try Scalars.integer(type, v, p)
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let (v, p) = try next()
        return try Scalars.integer(type, v, p)
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let (v, p) = try next()
        return try Scalars.integer(type, v, p)
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let (v, p) = try next()
        return try Scalars.integer(type, v, p)
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (v, p) = try next()
        return try ValueDecoder(value: v, codingPath: p).decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (v, p) = try next()
        return try ValueDecoder(value: v, codingPath: p).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (v, p) = try next()
        return try ValueDecoder(value: v, codingPath: p).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (v, p) = try next()
        return ValueDecoder(value: v, codingPath: p)
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try Scalars.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try Scalars.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try Scalars.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try Scalars.double(value, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalars.integer(type, value, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ValueDecoder(value: value, codingPath: codingPath).decodeValue(type)
    }
}
