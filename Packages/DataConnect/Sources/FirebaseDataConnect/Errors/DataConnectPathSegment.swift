import DataConnectWire

/// One step of the path of an error into the response: a field name or a list index.
///
/// In JSON a path is an array of strings and integers: `["movies", 0, "title"]`.
public enum DataConnectPathSegment: Codable, Equatable, Sendable, Hashable {
    /// A field name or alias.
    case field(String)
    /// An index into a list.
    case listIndex(Int)

    /// Converts a wire path segment.
    public init(_ segment: PathSegment) {
        switch segment {
        case .field(let name): self = .field(name)
        case .index(let index): self = .listIndex(index)
        }
    }

    /// Decodes a JSON string or integer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let index = try? container.decode(Int.self) {
            self = .listIndex(index)
        } else {
            self = .field(try container.decode(String.self))
        }
    }

    /// Encodes a JSON string or integer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .field(let name): try container.encode(name)
        case .listIndex(let index): try container.encode(index)
        }
    }
}

extension DataConnectPathSegment: CustomStringConvertible {
    /// The field name, or the index in brackets.
    public var description: String {
        switch self {
        case .field(let name): name
        case .listIndex(let index): "[\(index)]"
        }
    }
}

extension Array where Element == DataConnectPathSegment {
    /// The path in dotted form, e.g. `movies.[0].title`.
    var dottedDescription: String {
        map(\.description).joined(separator: ".")
    }
}
