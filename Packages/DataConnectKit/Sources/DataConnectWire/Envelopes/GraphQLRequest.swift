/// The body of `:executeQuery` and `:executeMutation`: which deployed operation to run, with which variables.
///
/// ```json
/// {"name": "projects/demo/locations/us-central1/services/movies/connectors/default",
///  "operationName": "ListMovies", "variables": {"limit": 10}}
/// ```
///
/// `variables` is always written, as `{}` when empty; reading requires the member, as the server does, and reads
/// `null` as `{}`. `operationName` must not be empty.
///
/// ```swift
/// let request = GraphQLRequest(name: connectorName, operationName: "ListMovies", variables: ["limit": 10])
/// let body = request.toJSON().serialized()
/// ```
public struct GraphQLRequest: Hashable, Sendable {
    /// The connector's resource name, `projects/{p}/locations/{l}/services/{s}/connectors/{c}`.
    public var name: String
    /// The name of the deployed operation.
    public var operationName: String
    /// The operation's variables; unset optional variables are absent, explicit nulls are `null`.
    public var variables: JSONObject

    /// Creates a request.
    public init(name: String, operationName: String, variables: JSONObject = [:]) {
        self.name = name
        self.operationName = operationName
        self.variables = variables
    }

    /// Reads a request body.
    ///
    /// The members are checked in this order, and the first fault is thrown: `variables` is an object (or
    /// `null`), `operationName` is a non-empty string, `name` is a string, `variables` is present.
    ///
    /// - Throws: ``WireFormatError`` when the body is not an object, or `name`, `operationName` or `variables` is
    ///   missing or of the wrong type.
    public init(json: JSONValue) throws(WireFormatError) {
        let fields = try WireFields(json, what: "a request")
        let variables = try fields.optionalObject("variables")
        operationName = try fields.nonEmptyString("operationName")
        name = try fields.string("name")
        guard fields.object["variables"] != nil else { throw fields.missing("variables") }
        self.variables = variables ?? [:]
    }

    /// Reads a request body straight from its bytes, without building a ``JSONValue`` tree of the whole: how a
    /// server reads the body of every `:executeQuery` and `:executeMutation`.
    ///
    /// Only a body that ``init(json:)`` accepts is read, into the same request (a repeated member counts with its
    /// last value, as the parsed tree keeps it). Any other body, not JSON or not a request, gives `nil`: the caller
    /// then parses it and reads it with ``init(json:)`` to learn what is wrong.
    ///
    /// ```swift
    /// let request = GraphQLRequest(wellFormed: body) ?? GraphQLRequest(json: try JSONValue(parsing: body))
    /// ```
    ///
    /// - Parameter bytes: The UTF-8 body, read with the default ``JSONReader/Options``.
    public init?(wellFormed bytes: [UInt8]) {
        let read = bytes.withUnsafeBufferPointer { buffer -> GraphQLRequest? in
            do throws(JSONError) {
                return try Self.read(buffer)
            } catch {
                return nil
            }
        }
        guard let read else { return nil }
        self = read
    }

    /// The members ``init(wellFormed:)`` reads.
    private enum Member {
        case name, operationName, variables, other
    }

    /// ``init(wellFormed:)``'s reading: `nil` at the first member missing or of the wrong type.
    private static func read(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONError) -> GraphQLRequest? {
        var reader = try JSONPullReader(buffer)
        try reader.beginObject()
        var name: String?
        var operationName: String?
        var variables: JSONObject?
        while let member = try reader.withNextKey(Self.member) {
            switch member {
            case .name:
                guard try reader.peek() == .string else { return nil }
                name = try reader.readString()
            case .operationName:
                guard try reader.peek() == .string else { return nil }
                let text = try reader.readString()
                guard !text.isEmpty else { return nil }
                operationName = text
            case .variables:
                switch try reader.peek() {
                case .null:
                    try reader.readNull()
                    variables = [:]
                case .object:
                    guard case .object(let object) = try reader.readValue() else { return nil }
                    variables = object
                default:
                    return nil
                }
            case .other:
                try reader.skipValue()
            }
        }
        try reader.finish()
        guard let name, let operationName, let variables else { return nil }
        return GraphQLRequest(name: name, operationName: operationName, variables: variables)
    }

    /// Which member a key names, from its decoded UTF-8 bytes.
    private static func member(_ key: UnsafeBufferPointer<UInt8>) -> Member {
        func names(_ literal: StaticString) -> Bool {
            key.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        switch key.count {
        case 4 where names("name"): return .name
        case 13 where names("operationName"): return .operationName
        case 9 where names("variables"): return .variables
        default: return .other
        }
    }

    /// The request as JSON.
    public func toJSON() -> JSONValue {
        [
            "name": .string(name),
            "operationName": .string(operationName),
            "variables": .object(variables),
        ]
    }

    /// Writes the request as one JSON object.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("name")
        writer.string(name)
        writer.key("operationName")
        writer.string(operationName)
        writer.key("variables")
        writer.write(.object(variables))
        writer.endObject()
    }
}
