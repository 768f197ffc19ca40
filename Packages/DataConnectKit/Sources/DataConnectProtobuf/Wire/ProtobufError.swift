import DataConnectWire

/// Why protobuf bytes could not be read as the expected message, or a value could not be written as one, and where.
///
/// ``path`` names the field from the outermost message's fields in, so the description reads like
/// `string field is not valid UTF-8 at variables.fields["title"].string_value`.
///
/// ```swift
/// do {
///     _ = try GraphQLRequest(protobuf: bytes)
/// } catch {
///     print(error)  // length 40 runs past the end of the message (12 bytes left) at name
/// }
/// ```
public struct ProtobufError: Error, Hashable, Sendable {
    /// The kind of failure, for code that reacts to it.
    public enum Kind: Hashable, Sendable {
        /// The input ended inside a tag, a value or a length.
        case truncated
        /// A varint longer than ten bytes.
        case malformedVarint
        /// Field number 0 or above 2^29 - 1.
        case invalidFieldNumber
        /// Wire type 6 or 7, or an end-group without its start.
        case invalidWireType
        /// A length running past the end of its message.
        case lengthOutOfBounds
        /// A start-group without its end-group, or an end-group of another field.
        case unterminatedGroup
        /// Messages (or groups) nested deeper than ``ProtobufReader/maxDepth``.
        case nestingTooDeep
        /// A string field that is not well-formed UTF-8.
        case invalidUTF8
        /// A well-formed value the target cannot hold: a NaN in a `Struct`, an empty operation name, a malformed
        /// duration.
        case invalidValue
        /// JSON that is malformed, or not the shape of the message it is transcoded into.
        case invalidJSON
    }

    /// The kind of failure.
    public var kind: Kind
    /// What went wrong, without the position, e.g. `varint runs past the end of the input`.
    public var reason: String
    /// The field at fault, outermost first: field names (as in the .proto), map keys and list indices; empty when
    /// the fault is the message itself.
    public var path: [String]

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The kind of failure.
    ///   - reason: What went wrong.
    ///   - path: The field at fault, outermost first.
    public init(_ kind: Kind, _ reason: String, path: [String] = []) {
        self.kind = kind
        self.reason = reason
        self.path = path
    }

    /// The same error one level further out: `component` goes in front of the path.
    ///
    /// Field names join with `.`, while map keys and list indices (`["title"]`, `[3]`) attach to what precedes
    /// them.
    public func within(_ component: String) -> ProtobufError {
        var copy = self
        copy.path.insert(component, at: 0)
        return copy
    }

    /// The path as one string: `variables.fields["title"]`.
    public var fieldPath: String {
        var text = ""
        for component in path {
            if !text.isEmpty && !component.hasPrefix("[") { text += "." }
            text += component
        }
        return text
    }

    /// The full message: the reason, then ` at ` and the path when there is one.
    public var message: String {
        path.isEmpty ? reason : "\(reason) at \(fieldPath)"
    }
}

extension ProtobufError: CustomStringConvertible {
    /// The full message; see ``message``.
    public var description: String { message }
}

extension ProtobufError {
    /// A JSON document that could not be read, as a transcoding failure.
    init(json error: JSONError) {
        self.init(.invalidJSON, "invalid JSON: \(error.message)")
    }
}
