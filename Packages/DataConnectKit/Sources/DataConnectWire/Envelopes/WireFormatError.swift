/// A JSON document that is valid JSON but not the wire message it should be.
///
/// The message names the field, as a path from the message's root:
/// `expected a string at "errors[0].message", found a number`.
public struct WireFormatError: Error, Hashable, Sendable {
    /// What is wrong, with the field's path.
    public var message: String

    /// Creates an error with a message.
    public init(_ message: String) {
        self.message = message
    }
}

extension WireFormatError: CustomStringConvertible {
    /// The message.
    public var description: String { message }
}

/// Typed access to the members of a wire message, with errors that name the field.
struct WireFields {
    let object: JSONObject
    /// The message's path, e.g. `errors[0]`; empty at the root.
    let path: String

    init(object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    init(_ value: JSONValue, path: String = "", what: String) throws(WireFormatError) {
        guard case .object(let object) = value else {
            let place = path.isEmpty ? "" : " at \"\(path)\""
            throw WireFormatError("expected \(what) object\(place), found \(WireFields.kindName(value))")
        }
        self.object = object
        self.path = path
    }

    func fieldPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// The member, treating `null` like an absent member.
    func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func mismatch(_ key: String, expected: String, found: JSONValue) -> WireFormatError {
        WireFormatError("expected \(expected) at \"\(fieldPath(key))\", found \(WireFields.kindName(found))")
    }

    func missing(_ key: String) -> WireFormatError {
        WireFormatError("missing required field \"\(fieldPath(key))\"")
    }

    func string(_ key: String) throws(WireFormatError) -> String {
        guard let value = value(key) else { throw missing(key) }
        guard case .string(let text) = value else { throw mismatch(key, expected: "a string", found: value) }
        return text
    }

    func optionalString(_ key: String) throws(WireFormatError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, expected: "a string", found: value) }
        return text
    }

    func optionalInt(_ key: String) throws(WireFormatError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let integer = value.intValue else { throw mismatch(key, expected: "an integer", found: value) }
        return integer
    }

    func optionalArray(_ key: String) throws(WireFormatError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw mismatch(key, expected: "an array", found: value) }
        return elements
    }

    func optionalObject(_ key: String) throws(WireFormatError) -> JSONObject? {
        guard let value = value(key) else { return nil }
        guard case .object(let object) = value else { throw mismatch(key, expected: "an object", found: value) }
        return object
    }

    static func kindName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
