/// One response on the realtime stream: a result of a subscription or an execute, named by its request id.
///
/// ```json
/// {"requestId": "1", "data": {"movies": []}, "errors": [], "extensions": {"dataConnect": []},
///  "dataEtag": "9f3c0a1b2c3d4e5f", "cancelled": false}
/// ```
///
/// Over a WebSocket the emulator wraps each response as `{"result": {…}}` in a text frame (the JS SDK refuses a text
/// frame without `result`); production sends the bare object in binary frames. ``init(json:)`` reads both.
///
/// `data` is absent from a response that only confirms the client's result is current (its `dataEtag` is
/// unchanged); `cancelled: true` is the last response to a request the server no longer serves.
///
/// ```swift
/// let response = try StreamResponse(json: JSONValue(parsing: frame))
/// if response.cancelled { … }
/// ```
public struct StreamResponse: Hashable, Sendable {
    /// The request this answers.
    public var requestId: String
    /// The result; `nil` when the member is absent.
    public var data: JSONValue?
    /// Execution errors, or the one error of a refused request.
    public var errors: [GraphQLError]
    /// Data Connect metadata (entity ids).
    public var extensions: GraphQLResponse.Extensions
    /// An opaque hash of the result, sent back to skip unchanged results.
    public var dataEtag: String?
    /// Whether the server stopped serving the request; nothing follows.
    public var cancelled: Bool

    /// Creates a response.
    public init(
        requestId: String, data: JSONValue? = nil, errors: [GraphQLError] = [],
        extensions: GraphQLResponse.Extensions = GraphQLResponse.Extensions(), dataEtag: String? = nil,
        cancelled: Bool = false
    ) {
        self.requestId = requestId
        self.data = data
        self.errors = errors
        self.extensions = extensions
        self.dataEtag = dataEtag
        self.cancelled = cancelled
    }

    /// Reads a response, bare or wrapped in `{"result": …}`.
    ///
    /// - Throws: ``WireFormatError`` when it is not an object, `requestId` is missing, or a member has the wrong type.
    public init(json: JSONValue) throws(WireFormatError) {
        var body = json
        if case .object(let object) = json, let result = object["result"] { body = result }
        let fields = try WireFields(body, what: "a stream response")
        requestId = try fields.string("requestId")
        dataEtag = try fields.optionalString("dataEtag")
        switch fields.value("cancelled") {
        case nil: cancelled = false
        case .bool(let flag)?: cancelled = flag
        case let other?: throw fields.mismatch("cancelled", expected: "a boolean", found: other)
        }
        let graphQL = try GraphQLResponse(json: body)
        data = graphQL.data
        errors = graphQL.errors
        extensions = graphQL.extensions
    }

    /// The bare response as JSON: `requestId`, `data` when present, `errors`, `extensions`, `dataEtag` when present,
    /// `cancelled`.
    public func toJSON() -> JSONValue {
        var object: JSONObject = ["requestId": .string(requestId)]
        if let data { object["data"] = data }
        object["errors"] = .array(errors.map { $0.toJSON() })
        object["extensions"] = ["dataConnect": .array(extensions.dataConnect.map { $0.toJSON() })]
        if let dataEtag { object["dataEtag"] = .string(dataEtag) }
        object["cancelled"] = .bool(cancelled)
        return .object(object)
    }

    /// The response as the emulator frames it on a WebSocket: `{"result": {…}}`.
    public func toWebSocketJSON() -> JSONValue {
        ["result": toJSON()]
    }
}
