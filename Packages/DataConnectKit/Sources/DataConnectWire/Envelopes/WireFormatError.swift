/// A JSON document that is valid JSON but not the wire message it should be.
///
/// The message names the field, as a path from the message's root:
/// `expected a string at "errors[0].message", found a number`. ``field`` and ``problem`` say the same for code,
/// so a server can answer each problem in its own words:
///
/// ```swift
/// do {
///     request = try GraphQLRequest(json: body)
/// } catch where error.field == "variables" && error.problem == .missing {
///     // "variables" is required
/// }
/// ```
public struct WireFormatError: Error, Hashable, Sendable {
    /// What is wrong with a message or one of its members.
    public enum Problem: Hashable, Sendable {
        /// A required member is absent or `null`.
        case missing
        /// The message or a member has another JSON type than the one expected.
        case wrongType
        /// A member has the expected type but a value the message does not allow (an empty operation name).
        case invalidValue
        /// Anything else.
        case other
    }

    /// What is wrong, with the field's path.
    public var message: String
    /// The member at fault, as a path from the message's root (`operationName`, `errors[0].message`); `nil` when
    /// the fault is the message itself (not an object) or not tied to one member.
    public var field: String?
    /// What kind of fault it is.
    public var problem: Problem

    /// Creates an error with a message.
    ///
    /// - Parameters:
    ///   - message: What is wrong, naming the field.
    ///   - field: The member at fault, as a path from the message's root.
    ///   - problem: What kind of fault it is.
    public init(_ message: String, field: String? = nil, problem: Problem = .other) {
        self.message = message
        self.field = field
        self.problem = problem
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
            throw WireFormatError(
                "expected \(what) object\(place), found \(WireFields.kindName(value))",
                field: path.isEmpty ? nil : path, problem: .wrongType)
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
        WireFormatError(
            "expected \(expected) at \"\(fieldPath(key))\", found \(WireFields.kindName(found))", field: fieldPath(key),
            problem: .wrongType)
    }

    func missing(_ key: String) -> WireFormatError {
        WireFormatError("missing required field \"\(fieldPath(key))\"", field: fieldPath(key), problem: .missing)
    }

    func string(_ key: String) throws(WireFormatError) -> String {
        guard let value = value(key) else { throw missing(key) }
        guard case .string(let text) = value else { throw mismatch(key, expected: "a string", found: value) }
        return text
    }

    func nonEmptyString(_ key: String) throws(WireFormatError) -> String {
        let text = try string(key)
        guard !text.isEmpty else {
            throw WireFormatError(
                "expected a non-empty string at \"\(fieldPath(key))\"", field: fieldPath(key), problem: .invalidValue)
        }
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

    func optionalBool(_ key: String) throws(WireFormatError) -> Bool? {
        guard let value = value(key) else { return nil }
        if case .bool(let flag) = value { return flag }
        throw mismatch(key, expected: "a Boolean", found: value)
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
