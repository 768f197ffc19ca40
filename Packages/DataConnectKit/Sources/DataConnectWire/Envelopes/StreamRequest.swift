/// One request on the realtime stream (`ConnectorStreamService.Connect`), as a WebSocket client sends it: one JSON
/// text frame per request.
///
/// ```json
/// {"requestId": "1", "name": "projects/p/locations/l/services/movies/connectors/movies",
///  "headers": {"X-Firebase-Auth-Token": "<jwt>"},
///  "subscribe": {"operationName": "ListMovies", "variables": {}}, "dataEtag": "9f3c0a1b2c3d4e5f"}
/// {"requestId": "2", "execute": {"operationName": "AddMovie", "variables": {"title": "Alien"}}}
/// {"requestId": "1", "resume": {}}
/// {"requestId": "1", "cancel": {}}
/// ```
///
/// Every member is optional on the wire. `name` comes on the first request of a stream; `headers` whenever the
/// client (re)authenticates. A request without a kind carries only `name` and `headers`: the Flutter SDK opens its
/// stream with one. `requestId` is read as a string, or a number's JSON text.
///
/// ```swift
/// let request = try StreamRequest(json: JSONValue(parsing: frame))
/// if case .subscribe(let operation)? = request.kind { print(operation.operationName) }
/// ```
public struct StreamRequest: Hashable, Sendable {
    /// The operation a `subscribe` or `execute` names.
    public struct Operation: Hashable, Sendable {
        /// The name of the deployed operation.
        public var operationName: String
        /// Its variables; `{}` when the member is absent.
        public var variables: JSONObject

        /// Creates an operation.
        public init(operationName: String, variables: JSONObject = [:]) {
            self.operationName = operationName
            self.variables = variables
        }
    }

    /// What the request asks for.
    public enum Kind: Hashable, Sendable {
        /// Results of a query now and whenever they change.
        case subscribe(Operation)
        /// One run of a query or mutation, answered once.
        case execute(Operation)
        /// The current result of the live subscription with this request id, again.
        case resume
        /// The end of the live subscription with this request id.
        case cancel
    }

    /// Identifies the request within the stream; echoed in every response to it.
    public var requestId: String?
    /// The connector's resource name, `projects/{p}/locations/{l}/services/{s}/connectors/{c}`.
    public var name: String?
    /// Header fields as sent (`X-Firebase-Auth-Token`, `X-Firebase-AppCheck`, `X-Client-Version`, …).
    public var headers: [String: String]?
    /// What the request asks for; `nil` for a request that carries only `name` and `headers`.
    public var kind: Kind?
    /// The etag of the result the client holds.
    public var dataEtag: String?

    /// Creates a request.
    public init(
        requestId: String?, kind: Kind?, name: String? = nil, headers: [String: String]? = nil,
        dataEtag: String? = nil
    ) {
        self.requestId = requestId
        self.kind = kind
        self.name = name
        self.headers = headers
        self.dataEtag = dataEtag
    }

    /// The value of a header, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers?.first { $0.key.caseInsensitiveEquals(name) }?.value
    }

    /// The caller's ID token: the `X-Firebase-Auth-Token` header, or `authToken` as some SDK versions name it.
    public var authToken: String? {
        header("X-Firebase-Auth-Token") ?? header("authToken")
    }

    /// Reads a request.
    ///
    /// - Throws: ``WireFormatError`` when the request is not an object, a member has the wrong type, an operation
    ///   has no `operationName`, or more than one of `subscribe`, `execute`, `resume` and `cancel` is present.
    public init(json: JSONValue) throws(WireFormatError) {
        let fields = try WireFields(json, what: "a stream request")
        switch fields.value("requestId") {
        case nil: requestId = nil
        case .string(let text)?: requestId = text
        case .number(let number)?: requestId = JSONValue.number(number).jsonString()
        case let other?: throw fields.mismatch("requestId", expected: "a string", found: other)
        }
        name = try fields.optionalString("name")
        dataEtag = try fields.optionalString("dataEtag")
        if let object = try fields.optionalObject("headers") {
            var headers: [String: String] = [:]
            for (key, value) in object {
                guard case .string(let text) = value else {
                    throw WireFields(object: object, path: "headers").mismatch(key, expected: "a string", found: value)
                }
                headers[key] = text
            }
            self.headers = headers
        } else {
            headers = nil
        }
        var kinds: [Kind] = []
        if let subscribe = try fields.optionalObject("subscribe") {
            kinds.append(.subscribe(try Operation(WireFields(object: subscribe, path: "subscribe"))))
        }
        if let execute = try fields.optionalObject("execute") {
            kinds.append(.execute(try Operation(WireFields(object: execute, path: "execute"))))
        }
        if fields.value("resume") != nil {
            _ = try fields.optionalObject("resume")
            kinds.append(.resume)
        }
        if let cancel = fields.value("cancel"), cancel != .bool(false) {
            if cancel != .bool(true) { _ = try fields.optionalObject("cancel") }
            kinds.append(.cancel)
        }
        guard kinds.count <= 1 else {
            throw WireFormatError(
                "a stream request has at most one of \"subscribe\", \"execute\", \"resume\" and \"cancel\"",
                problem: .invalidValue)
        }
        kind = kinds.first
    }

    /// The request as JSON, members left out when absent.
    public func toJSON() -> JSONValue {
        var object = JSONObject()
        if let requestId { object["requestId"] = .string(requestId) }
        if let name { object["name"] = .string(name) }
        if let headers {
            object["headers"] = .object(
                JSONObject(headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        switch kind {
        case .subscribe(let operation)?: object["subscribe"] = operation.toJSON()
        case .execute(let operation)?: object["execute"] = operation.toJSON()
        case .resume?: object["resume"] = .object([:])
        case .cancel?: object["cancel"] = .object([:])
        case nil: break
        }
        if let dataEtag { object["dataEtag"] = .string(dataEtag) }
        return .object(object)
    }
}

extension StreamRequest.Operation {
    fileprivate init(_ fields: WireFields) throws(WireFormatError) {
        operationName = try fields.nonEmptyString("operationName")
        variables = try fields.optionalObject("variables") ?? [:]
    }

    /// The operation as JSON: `operationName` and `variables`.
    public func toJSON() -> JSONValue {
        ["operationName": .string(operationName), "variables": .object(variables)]
    }
}

extension String {
    fileprivate func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}
