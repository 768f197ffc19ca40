/// The body of the admin endpoints `:executeGraphql` and `:executeGraphqlRead`: any GraphQL document against the
/// service's generated API.
///
/// ```json
/// {"query": "query Top($n: Int) { movies(limit: $n) { title } }", "operationName": "Top", "variables": {"n": 2},
///  "extensions": {"impersonate": {"unauthenticated": true}}}
/// ```
///
/// Only `query` is required. An `operationName` that is not a string is ignored, as the server does, so a
/// document with one operation still runs.
///
/// ```swift
/// let request = try ExecuteGraphqlRequest(json: body)
/// let body = ExecuteGraphqlRequest(query: "query { movies { title } }").toJSON().serialized()
/// ```
public struct ExecuteGraphqlRequest: Hashable, Sendable {
    /// The GraphQL document.
    public var query: String
    /// Which operation of the document to run; required when it holds several.
    public var operationName: String?
    /// The operation's variables.
    public var variables: JSONObject
    /// Whom to run it as, with `@auth` checked; `nil` runs it as the admin, skipping `@auth`.
    public var impersonation: Impersonation?

    /// Creates a request.
    public init(
        query: String, operationName: String? = nil, variables: JSONObject = [:], impersonation: Impersonation? = nil
    ) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.impersonation = impersonation
    }

    /// Reads a request body.
    ///
    /// The members are checked in this order: `variables` is an object (or `null`, or absent), `query` is a string.
    ///
    /// - Throws: ``WireFormatError`` when the body is not an object, `query` is missing or not a string, or
    ///   `variables` is not an object.
    public init(json: JSONValue) throws(WireFormatError) {
        let fields = try WireFields(json, what: "a request")
        variables = try fields.optionalObject("variables") ?? [:]
        query = try fields.string("query")
        operationName = fields.object["operationName"]?.stringValue
        impersonation = Impersonation(extensions: fields.object["extensions"])
    }

    /// The request as JSON.
    public func toJSON() -> JSONValue {
        var object: JSONObject = ["query": .string(query)]
        if let operationName { object["operationName"] = .string(operationName) }
        object["variables"] = .object(variables)
        if let impersonation { object["extensions"] = impersonation.toExtensionsJSON() }
        return .object(object)
    }
}
