import Foundation

/// Encodes and decodes the scalars whose JSON form is not their `Codable` form.
///
/// Generated code creates one per `Codable` conformance. `Int64` travels as a decimal string
/// (`"9007199254740993"`), `UUID` as 32 lowercase hex digits without dashes. Decoding also accepts JSON
/// integers for `Int64`, and dashed, braced or uppercase UUIDs. Every other type uses its own `Codable`.
///
/// ```swift
/// let helper = CodecHelper<CodingKeys>()
/// try helper.encode(id, forKey: .id, container: &container)
/// id = try helper.decode(UUID.self, forKey: .id, container: &container)
/// ```
public final class CodecHelper<K: CodingKey>: Sendable {
    /// Creates a helper.
    public init() {}

    /// Encodes `value` for `forKey`, writing `Int64` as a string and `UUID` without dashes.
    ///
    /// Optionals and arrays of these types are handled the same way; `nil` is written as `null`. An unset
    /// ``OptionalVariable`` is left out.
    public func encode(_ value: any Encodable, forKey: K, container: inout KeyedEncodingContainer<K>) throws {
        switch value {
        case let variable as any SettableVariable:
            guard variable.isSet else { return }
            if let wrapped = variable.encodableValue {
                try encode(wrapped, forKey: forKey, container: &container)
            } else {
                try container.encodeNil(forKey: forKey)
            }
        case let number as Int64:
            try container.encode(Self.string(from: number), forKey: forKey)
        case let uuid as UUID:
            try container.encode(Self.string(from: uuid), forKey: forKey)
        case let numbers as [Int64]:
            try container.encode(numbers.map(Self.string(from:)), forKey: forKey)
        case let uuids as [UUID]:
            try container.encode(uuids.map(Self.string(from:)), forKey: forKey)
        case let numbers as [Int64?]:
            try container.encode(numbers.map { $0.map(Self.string(from:)) }, forKey: forKey)
        case let uuids as [UUID?]:
            try container.encode(uuids.map { $0.map(Self.string(from:)) }, forKey: forKey)
        default:
            try container.encode(value, forKey: forKey)
        }
    }

    /// Decodes `type` from `forKey`, reading `Int64` and `UUID` (optional or in arrays) from their wire forms.
    ///
    /// An optional type reads a missing key or `null` as `nil`.
    ///
    /// - Throws: ``DataConnectCodecError`` with code `decodingFailed` for a bad `Int64` and `invalidUUID` for a
    ///   bad UUID; `DecodingError` for other types.
    public func decode<T: Decodable>(
        _ type: T.Type, forKey: K, container: inout KeyedDecodingContainer<K>
    ) throws -> T {
        if T.self == Int64.self {
            return try decodeInt64(forKey: forKey, container: container) as! T
        }
        if T.self == Int64?.self {
            return try decodeOptional(forKey: forKey, container: container, decodeInt64) as! T
        }
        if T.self == UUID.self {
            return try decodeUUID(forKey: forKey, container: container) as! T
        }
        if T.self == UUID?.self {
            return try decodeOptional(forKey: forKey, container: container, decodeUUID) as! T
        }
        if T.self == [Int64].self {
            return try decodeWireStrings(forKey: forKey, container: container).map(Self.int64(from:)) as! T
        }
        if T.self == [UUID].self {
            return try decodeWireStrings(forKey: forKey, container: container).map(Self.uuid(from:)) as! T
        }
        return try container.decode(T.self, forKey: forKey)
    }

    /// Encodes a set variable for `forKey` and leaves an unset one out, with the scalar forms of
    /// ``encode(_:forKey:container:)``.
    @_spi(Generated)
    public func encode<Value>(
        _ variable: OptionalVariable<Value>, forKey: K, container: inout KeyedEncodingContainer<K>
    ) throws {
        guard variable.isSet else { return }
        if let value = variable.wrappedValue {
            try encode(value, forKey: forKey, container: &container)
        } else {
            try container.encodeNil(forKey: forKey)
        }
    }

    // MARK: Scalar forms

    /// The wire form of an `Int64`: its decimal digits.
    @_spi(Generated)
    public static func string(from number: Int64) -> String {
        String(number)
    }

    /// The wire form of a `UUID`: 32 lowercase hex digits.
    @_spi(Generated)
    public static func string(from uuid: UUID) -> String {
        uuid.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Reads an `Int64` from its decimal digits, with an optional sign.
    ///
    /// - Throws: ``DataConnectCodecError`` with code `decodingFailed`.
    @_spi(Generated)
    public static func int64(from text: String) throws -> Int64 {
        guard let number = Int64(text) else {
            throw DataConnectCodecError(code: .decodingFailed, message: "\"\(text)\" is not an Int64")
        }
        return number
    }

    /// Reads a UUID: 32 hex digits, with or without dashes at 8-4-4-4-12, optionally in braces, in any case.
    ///
    /// - Throws: ``DataConnectCodecError`` with code `invalidUUID`; it never traps.
    @_spi(Generated)
    public static func uuid(from text: String) throws -> UUID {
        var body = Substring(text)
        if body.first == "{" && body.last == "}" && body.count >= 2 {
            body = body.dropFirst().dropLast()
        }
        let characters = Array(body.utf8)
        let hex: [UInt8]
        if characters.count == 36 {
            let dashes = [8, 13, 18, 23]
            guard dashes.allSatisfy({ characters[$0] == UInt8(ascii: "-") }) else {
                throw invalidUUID(text)
            }
            hex = characters.enumerated().filter { !dashes.contains($0.offset) }.map(\.element)
        } else {
            hex = characters
        }
        guard hex.count == 32, hex.allSatisfy({ Self.isHexDigit($0) }) else {
            throw invalidUUID(text)
        }
        let digits = String(decoding: hex, as: UTF8.self)
        var dashed = ""
        for (position, character) in digits.enumerated() {
            if [8, 12, 16, 20].contains(position) {
                dashed.append("-")
            }
            dashed.append(character)
        }
        guard let uuid = UUID(uuidString: dashed) else {
            throw invalidUUID(text)
        }
        return uuid
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func invalidUUID(_ text: String) -> DataConnectCodecError {
        DataConnectCodecError(
            code: .invalidUUID, message: "\"\(text)\" is not a UUID; expected 32 hex digits, with or without dashes"
        )
    }

    // MARK: Decoding

    private func decodeInt64(forKey key: K, container: KeyedDecodingContainer<K>) throws -> Int64 {
        if let number = try? container.decode(Int64.self, forKey: key) {
            return number
        }
        let text: String
        do {
            text = try container.decode(String.self, forKey: key)
        } catch {
            throw DataConnectCodecError(
                code: .decodingFailed, message: "expected an Int64 string or integer at \"\(key.stringValue)\"",
                underlyingError: error
            )
        }
        return try Self.int64(from: text)
    }

    private func decodeUUID(forKey key: K, container: KeyedDecodingContainer<K>) throws -> UUID {
        do {
            return try Self.uuid(from: try container.decode(String.self, forKey: key))
        } catch let error as DataConnectCodecError {
            throw error
        } catch {
            throw DataConnectCodecError(
                code: .invalidUUID, message: "expected a UUID string at \"\(key.stringValue)\"", underlyingError: error
            )
        }
    }

    private func decodeOptional<Value>(
        forKey key: K, container: KeyedDecodingContainer<K>,
        _ decodeValue: (K, KeyedDecodingContainer<K>) throws -> Value
    ) throws -> Value? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        return try decodeValue(key, container)
    }

    private func decodeWireStrings(forKey key: K, container: KeyedDecodingContainer<K>) throws -> [String] {
        do {
            if let numbers = try? container.decode([Int64].self, forKey: key) {
                return numbers.map(String.init)
            }
            return try container.decode([String].self, forKey: key)
        } catch {
            throw DataConnectCodecError(
                code: .decodingFailed, message: "expected a list of strings at \"\(key.stringValue)\"",
                underlyingError: error
            )
        }
    }
}
