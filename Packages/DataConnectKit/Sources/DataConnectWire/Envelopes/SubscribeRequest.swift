/// The body of `:subscribe`: a connector query whose fresh results the server pushes, with what the client
/// already holds.
///
/// ```json
/// {"name": "projects/p/locations/l/services/movies/connectors/movies", "operationName": "ListMovies",
///  "variables": {}, "requestId": "7", "dataEtag": "9f3c0a1b2c3d4e5f"}
/// ```
///
/// `name`, `operationName` and `variables` are read as in ``GraphQLRequest``. `requestId` is echoed in every
/// event: a string as it is, a number as its JSON text, anything else (or nothing) as `"1"`.
///
/// ```swift
/// let request = try SubscribeRequest(json: body)
/// request.operation.operationName   // "ListMovies"
/// ```
public struct SubscribeRequest: Hashable, Sendable {
    /// The query to subscribe to.
    public var operation: GraphQLRequest
    /// Echoed in every event of the stream.
    public var requestId: String
    /// The etag of the result the client already holds; the first event is left out when it is current.
    public var dataEtag: String?

    /// Creates a request.
    public init(operation: GraphQLRequest, requestId: String = "1", dataEtag: String? = nil) {
        self.operation = operation
        self.requestId = requestId
        self.dataEtag = dataEtag
    }

    /// Reads a request body.
    ///
    /// The members are checked as by ``GraphQLRequest/init(json:)``, then `dataEtag` is a string (or `null`, or
    /// absent).
    ///
    /// - Throws: ``WireFormatError`` when the body is not an object or a member is missing or of the wrong type.
    public init(json: JSONValue) throws(WireFormatError) {
        operation = try GraphQLRequest(json: json)
        let fields = try WireFields(json, what: "a request")
        dataEtag = try fields.optionalString("dataEtag")
        switch fields.object["requestId"] {
        case .string(let text)?: requestId = text
        case .number(let number)?: requestId = JSONValue.number(number).jsonString()
        default: requestId = "1"
        }
    }

    /// The request as JSON.
    public func toJSON() -> JSONValue {
        guard case .object(var object) = operation.toJSON() else { return operation.toJSON() }
        object["requestId"] = .string(requestId)
        if let dataEtag { object["dataEtag"] = .string(dataEtag) }
        return .object(object)
    }
}
