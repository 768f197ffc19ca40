/// The body of `:impersonateQuery` and `:impersonateMutation`: a connector operation run as the caller in
/// `extensions.impersonate`, as the admin SDK sends it.
///
/// ```json
/// {"operationName": "GetCurrentUser", "variables": {},
///  "extensions": {"impersonate": {"authClaims": {"sub": "user-1"}}}}
/// ```
///
/// Only `operationName` is required; `name` is not read (the path names the connector) and `variables` may be
/// left out.
///
/// ```swift
/// let request = try ImpersonateRequest(json: body)
/// request.impersonation   // .authClaims(["sub": "user-1"])
/// ```
public struct ImpersonateRequest: Hashable, Sendable {
    /// The name of the deployed operation.
    public var operationName: String
    /// The operation's variables.
    public var variables: JSONObject
    /// Whom to run it as; `nil` to keep the caller of the request's ID token.
    public var impersonation: Impersonation?

    /// Creates a request.
    public init(operationName: String, variables: JSONObject = [:], impersonation: Impersonation? = nil) {
        self.operationName = operationName
        self.variables = variables
        self.impersonation = impersonation
    }

    /// Reads a request body.
    ///
    /// The members are checked in this order: `variables` is an object (or `null`, or absent), `operationName`
    /// is a non-empty string.
    ///
    /// - Throws: ``WireFormatError`` when the body is not an object or a member is missing or of the wrong type.
    public init(json: JSONValue) throws(WireFormatError) {
        let fields = try WireFields(json, what: "a request")
        variables = try fields.optionalObject("variables") ?? [:]
        operationName = try fields.nonEmptyString("operationName")
        impersonation = Impersonation(extensions: fields.object["extensions"])
    }

    /// The request as JSON.
    public func toJSON() -> JSONValue {
        var object: JSONObject = ["operationName": .string(operationName), "variables": .object(variables)]
        if let impersonation { object["extensions"] = impersonation.toExtensionsJSON() }
        return .object(object)
    }
}
