/// The body of the emulator console's `POST /emulator/console/explain`: which connector query to show the SQL of,
/// with which variables.
///
/// ```json
/// {"connector": "movies", "operationName": "ListMoviesByGenre", "variables": {"genre": "Drama"}}
/// ```
///
/// `variables` may be absent or `null`, read as `{}`.
///
/// ```swift
/// let request = try ExplainRequest(json: JSONReader().parse(body))
/// engine.explain(connector: request.connector, operationName: request.operationName, variables: request.variables)
/// ```
public struct ExplainRequest: Hashable, Sendable {
    /// The connector's id (`movies`), not its resource name.
    public var connector: String
    /// The name of the connector's operation.
    public var operationName: String
    /// The operation's variables.
    public var variables: JSONObject

    /// Creates a request.
    public init(connector: String, operationName: String, variables: JSONObject = [:]) {
        self.connector = connector
        self.operationName = operationName
        self.variables = variables
    }

    /// Reads a request body.
    ///
    /// - Throws: ``WireFormatError`` when the body is not an object, `connector` or `operationName` is missing
    ///   or not a string, or `variables` is not an object.
    public init(json: JSONValue) throws(WireFormatError) {
        let fields = try WireFields(json, what: "an explain request")
        connector = try fields.string("connector")
        operationName = try fields.string("operationName")
        variables = try fields.optionalObject("variables") ?? [:]
    }

    /// The request as JSON.
    public func toJSON() -> JSONValue {
        ["connector": .string(connector), "operationName": .string(operationName), "variables": .object(variables)]
    }
}
