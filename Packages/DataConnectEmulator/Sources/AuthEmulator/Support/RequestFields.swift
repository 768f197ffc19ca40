import DataConnectWire

/// Typed reads of request members, lenient as firebase-tools is: numbers are accepted where the API wants
/// strings (the Node.js Admin SDK sends `validSince` as a number).
extension JSONObject {
    /// A string member, or a number or boolean written as text; `nil` when absent or null.
    func string(_ key: String) -> String? {
        switch self[key] {
        case .string(let text): return text
        case .number(let number): return number.text
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }

    /// A non-empty string member.
    func nonEmpty(_ key: String) -> String? {
        guard let text = string(key), !text.isEmpty else { return nil }
        return text
    }

    /// A boolean member (`"true"` accepted).
    func bool(_ key: String) -> Bool? {
        switch self[key] {
        case .bool(let flag): return flag
        case .string(let text): return text == "true" ? true : text == "false" ? false : nil
        default: return nil
        }
    }

    /// An array of strings (a lone string counts as one).
    func strings(_ key: String) -> [String] {
        switch self[key] {
        case .array(let values): return values.compactMap { $0.stringValue }
        case .string(let text): return [text]
        default: return []
        }
    }

    /// Whether the member is present and not null.
    func has(_ key: String) -> Bool {
        guard let value = self[key] else { return false }
        return !value.isNull
    }
}

/// Google REST mappings accept `snake_case` and `camelCase` member names; firebase-tools normalizes to camelCase.
enum MemberNames {
    /// `grant_type` → `grantType`; names without `_` or `-` are kept.
    static func camelCased(_ name: String) -> String {
        guard name.contains("_") || name.contains("-") else { return name }
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" || character == "-" {
                upperNext = !result.isEmpty
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The value with every object member name camelCased, recursively.
    static func camelCased(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { (camelCased($0.key), camelCased($0.value)) }))
        case .array(let values):
            return .array(values.map(camelCased))
        default:
            return value
        }
    }
}
