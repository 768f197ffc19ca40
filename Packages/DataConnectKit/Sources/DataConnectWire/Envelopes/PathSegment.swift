/// One step of a path into a GraphQL response: a field name or a list index.
///
/// Paths appear in errors (`"path": ["movies", 0, "title"]`) and in `extensions.dataConnect`.
///
/// ```swift
/// let path: [PathSegment] = ["movies", 0, "director"]
/// path.map(\.jsonValue)  // ["movies", 0, "director"] as JSON
/// ```
public enum PathSegment: Hashable, Sendable {
    /// A field name or alias.
    case field(String)
    /// An index into a list.
    case index(Int)

    /// The segment as JSON: a string or a number.
    public var jsonValue: JSONValue {
        switch self {
        case .field(let name): return .string(name)
        case .index(let index): return JSONValue(index)
        }
    }

    /// Reads a segment from a JSON string or integer.
    ///
    /// - Throws: ``WireFormatError`` for any other value.
    public init(json: JSONValue) throws(WireFormatError) {
        switch json {
        case .string(let name):
            self = .field(name)
        case .number(let number):
            guard let index = number.intValue else {
                throw WireFormatError("expected a path index, found the number \(number)")
            }
            self = .index(index)
        default:
            throw WireFormatError("expected a path segment (string or integer), found \(WireFields.kindName(json))")
        }
    }

    /// Reads a whole path from a JSON array.
    static func path(from values: [JSONValue], at fieldPath: String) throws(WireFormatError) -> [PathSegment] {
        var path: [PathSegment] = []
        path.reserveCapacity(values.count)
        for value in values {
            do {
                path.append(try PathSegment(json: value))
            } catch {
                throw WireFormatError("\(error.message) at \"\(fieldPath)\"")
            }
        }
        return path
    }

    /// Writes a path as a JSON array.
    static func write(_ path: [PathSegment], to writer: inout JSONWriter) {
        writer.beginArray()
        for segment in path {
            switch segment {
            case .field(let name): writer.string(name)
            case .index(let index): writer.int(index)
            }
        }
        writer.endArray()
    }
}

extension PathSegment: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .field(value)
    }
}

extension PathSegment: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self = .index(value)
    }
}

extension PathSegment: CustomStringConvertible {
    /// The field name, or the index in brackets: `movies`, `[0]`.
    public var description: String {
        switch self {
        case .field(let name): return name
        case .index(let index): return "[\(index)]"
        }
    }
}
