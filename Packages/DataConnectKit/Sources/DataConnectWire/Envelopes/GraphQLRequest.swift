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
