/// A change one emulator process committed, as it tells the other processes serving from the same PostgreSQL
/// database (the payload of a `NOTIFY` on the database's change channel), so that their realtime subscribers see
/// it.
///
/// ```json
/// {"origin": "9f3c2a", "tables": ["Movie"], "connector": "movies", "operationName": "CreateMovie",
///  "variables": {"title": "Alien"}, "auth": {"uid": "u1", "claims": {"sub": "u1"}}}
/// ```
///
/// A change written outside a mutation (a clear, an import), or a mutation too large to send whole, names only
/// its origin and tables.
///
/// ```swift
/// let notice = ChangeNotification(origin: token, tables: ["Movie"])
/// let payload = notice.toJSON().jsonString()
/// let received = try ChangeNotification(json: JSONValue(parsing: Array(payload.utf8)))
/// ```
public struct ChangeNotification: Hashable, Sendable {
    /// The mutation behind a change, for `@refresh(onMutationExecuted:)` conditions in the other processes.
    public struct Mutation: Hashable, Sendable {
        /// The connector's id; `nil` for admin GraphQL.
        public var connector: String?
        /// The operation's name.
        public var operationName: String
        /// The operation's variables.
        public var variables: JSONObject
        /// The caller, when signed in.
        public var caller: Caller?

        /// Creates a mutation.
        public init(connector: String?, operationName: String, variables: JSONObject, caller: Caller?) {
            self.connector = connector
            self.operationName = operationName
            self.variables = variables
            self.caller = caller
        }
    }

    /// The caller of a mutation: its user id and token claims.
    public struct Caller: Hashable, Sendable {
        /// The user id, if the token has one.
        public var uid: String?
        /// The token's claims.
        public var claims: JSONObject

        /// Creates a caller.
        public init(uid: String?, claims: JSONObject) {
            self.uid = uid
            self.claims = claims
        }
    }

    /// The sending process's token, so that a process skips its own notifications.
    public var origin: String
    /// The tables (GraphQL type names) written.
    public var tables: [String]
    /// The mutation that wrote them; `nil` for a change outside a mutation, or one sent without it.
    public var mutation: Mutation?

    /// Creates a notification.
    public init(origin: String, tables: [String], mutation: Mutation? = nil) {
        self.origin = origin
        self.tables = tables
        self.mutation = mutation
    }

    /// Reads a payload: the mutation's members are read when `operationName` is present.
    ///
    /// - Throws: ``WireFormatError`` when the payload is not an object, `origin` or `tables` is missing, or a
    ///   member has the wrong type.
    public init(json: JSONValue) throws(WireFormatError) {
        let fields = try WireFields(json, what: "a change notification")
        origin = try fields.string("origin")
        guard let names = try fields.optionalArray("tables") else { throw fields.missing("tables") }
        var tables: [String] = []
        tables.reserveCapacity(names.count)
        for name in names {
            guard case .string(let table) = name else {
                throw fields.mismatch("tables", expected: "an array of strings", found: name)
            }
            tables.append(table)
        }
        self.tables = tables
        guard let operationName = try fields.optionalString("operationName") else {
            mutation = nil
            return
        }
        var caller: Caller?
        if let auth = fields.value("auth") {
            let callerFields = try WireFields(auth, path: fields.fieldPath("auth"), what: "a caller")
            guard let claims = try callerFields.optionalObject("claims") else { throw callerFields.missing("claims") }
            caller = Caller(uid: try callerFields.optionalString("uid"), claims: claims)
        }
        mutation = Mutation(
            connector: try fields.optionalString("connector"), operationName: operationName,
            variables: try fields.optionalObject("variables") ?? [:], caller: caller)
    }

    /// The payload as JSON: `origin`, `tables`, then the mutation's `connector` (`null` for admin GraphQL),
    /// `operationName`, `variables` and, for a signed-in caller, `auth`.
    public func toJSON() -> JSONValue {
        var object: JSONObject = ["origin": .string(origin), "tables": .array(tables.map(JSONValue.string))]
        if let mutation {
            object["connector"] = mutation.connector.map(JSONValue.string) ?? .null
            object["operationName"] = .string(mutation.operationName)
            object["variables"] = .object(mutation.variables)
            if let caller = mutation.caller {
                object["auth"] = ["uid": caller.uid.map(JSONValue.string) ?? .null, "claims": .object(caller.claims)]
            }
        }
        return .object(object)
    }
}
