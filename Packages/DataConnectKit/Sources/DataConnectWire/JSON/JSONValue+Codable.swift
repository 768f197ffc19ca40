/// `Codable` bridging, so a ``JSONValue`` can sit inside `Codable` types (for example free-form variables).
///
/// Decoding tries, in order: null, boolean, `Int64`, `Double`, string, array, object. Encoding writes numbers
/// as `Int64` when they are integers in range and as `Double` otherwise, so numbers beyond `Double` precision
/// lose exactness through `Codable`; ``JSONReader`` and ``JSONWriter`` keep it. Non-finite doubles encode as
/// null. Object key order follows the decoder, which for `JSONDecoder` is not the document's order.
///
/// ```swift
/// struct Envelope: Codable { var variables: JSONValue }
/// let envelope = try JSONDecoder().decode(Envelope.self, from: Data(#"{"variables":{"id":1}}"#.utf8))
/// ```
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .number(JSONNumber(integer))
        } else if let double = try? container.decode(Double.self) {
            self = .number(JSONNumber(double))
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else if let object = try? container.decode(JSONObject.self) {
            self = .object(object)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null:
            try container.encodeNil()
        case .bool(let flag):
            try container.encode(flag)
        case .number(let number):
            if let integer = number.int64Value {
                try container.encode(integer)
            } else if number.doubleValue.isFinite {
                try container.encode(number.doubleValue)
            } else {
                try container.encodeNil()
            }
        case .string(let text):
            try container.encode(text)
        case .array(let elements):
            try container.encode(elements)
        case .object(let object):
            try container.encode(object)
        }
    }
}

extension JSONObject: Codable {
    /// A coding key for any member name.
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: MemberKey.self)
        self.init()
        for key in container.allKeys {
            self[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MemberKey.self)
        for entry in entries {
            try container.encode(entry.value, forKey: MemberKey(stringValue: entry.key))
        }
    }
}
