import DataConnectWire
import Foundation

/// Any JSON value, the GraphQL `Any` scalar.
///
/// It is sent and received as plain JSON. Two values are equal when their JSON is, whatever the key order.
///
/// ```swift
/// struct Settings: Codable { var theme: String; var sizes: [Int] }
/// let value = try AnyValue(codableValue: Settings(theme: "dark", sizes: [1, 2]))
/// let settings = try value.decodeValue(Settings.self)
/// ```
public struct AnyValue: Codable, Equatable, Hashable, Sendable {
    /// The value as a JSON document.
    public let jsonValue: JSONValue

    /// Wraps a JSON value.
    public init(jsonValue: JSONValue) {
        self.jsonValue = jsonValue
    }

    /// Encodes `codableValue` as JSON and keeps the result.
    ///
    /// - Parameter codableValue: Any value, including numbers, strings, arrays and `nil`.
    /// - Throws: ``DataConnectCodecError`` with code `encodingFailed` when the value cannot be encoded.
    public init(codableValue: any Codable) throws {
        do {
            let data = try JSONEncoder().encode(codableValue)
            jsonValue = try JSONValue(parsing: Array(data))
        } catch {
            throw DataConnectCodecError(
                code: .encodingFailed, message: "cannot encode \(type(of: codableValue)) as JSON",
                underlyingError: error
            )
        }
    }

    /// The value as compact JSON bytes.
    public var value: Data {
        Data(jsonValue.serialized())
    }

    /// Decodes the JSON as `type`.
    ///
    /// - Parameter type: The type to decode.
    /// - Returns: The decoded value, or `nil` when the JSON is `null`.
    /// - Throws: ``DataConnectCodecError`` with code `decodingFailed` when the JSON does not fit `type`.
    public func decodeValue<T: Decodable>(_ type: T.Type) throws -> T? {
        if jsonValue.isNull {
            return nil
        }
        do {
            return try JSONDecoder().decode(T.self, from: value)
        } catch {
            throw DataConnectCodecError(
                code: .decodingFailed, message: "cannot decode \(T.self) from \(jsonValue.jsonString())",
                underlyingError: error
            )
        }
    }

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        jsonValue = try JSONValue(from: decoder)
    }

    /// Encodes the JSON value as it is.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    /// Whether both hold the same JSON, whatever the key order.
    public static func == (lhs: AnyValue, rhs: AnyValue) -> Bool {
        lhs.jsonValue.serialized(canonical: true) == rhs.jsonValue.serialized(canonical: true)
    }

    /// Hashes the canonical JSON.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(jsonValue.serialized(canonical: true))
    }
}

extension AnyValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String {
        jsonValue.jsonString()
    }
}
