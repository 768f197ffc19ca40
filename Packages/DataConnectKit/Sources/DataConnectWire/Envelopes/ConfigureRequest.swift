/// The body of the emulator's `POST /emulator/configure`: which service to serve, from which folder or database.
///
/// Two callers send it, each in its own spelling, and both are read:
/// - the Data Connect SDKs' integration suites, in snake case:
///   `{"service_id": "kitchen-sink", "config_directory": "/abs/path/dataconnect", "use_dummy": true}`;
/// - firebase-tools, in camel case, to point a service at PostgreSQL:
///   `{"serviceId": "movies", "connectionString": "postgresql://…", "database": "movies"}`.
///
/// Every member is optional; a member present with the wrong type is an error. Callers reading the body should use
/// ``JSONReader/parseFirstValue(_:)``: the integration suites send a stray byte after the object.
///
/// ```swift
/// let request = try ConfigureRequest(json: ["service_id": "kitchen-sink", "config_directory": "/tmp/dc"])
/// request.configDirectory   // "/tmp/dc"
/// ```
public struct ConfigureRequest: Hashable, Sendable {
    /// The service to serve; the `serviceId` of the folder's `dataconnect.yaml` when `nil`.
    public var serviceID: String?
    /// The folder holding `dataconnect.yaml`, to load (or reload) the service from.
    public var configDirectory: String?
    /// `use_dummy` as the integration suites send it; the emulator always serves from its own database.
    public var useDummy: Bool?
    /// A PostgreSQL connection string for the service's data.
    public var connectionString: String?
    /// The PostgreSQL database, overriding the one in ``connectionString``.
    public var database: String?

    /// Creates a request.
    public init(
        serviceID: String? = nil, configDirectory: String? = nil, useDummy: Bool? = nil,
        connectionString: String? = nil, database: String? = nil
    ) {
        self.serviceID = serviceID
        self.configDirectory = configDirectory
        self.useDummy = useDummy
        self.connectionString = connectionString
        self.database = database
    }

    /// Reads a request body: an object whose members may use snake case or camel case.
    ///
    /// - Throws: ``WireFormatError`` when the body is not an object or a member has the wrong type.
    public init(json: JSONValue) throws(WireFormatError) {
        let fields = try WireFields(json, what: "a configure request")
        func either(_ snake: String, _ camel: String) throws(WireFormatError) -> String? {
            if let value = try fields.optionalString(snake) { return value }
            return try fields.optionalString(camel)
        }
        serviceID = try either("service_id", "serviceId")
        configDirectory = try either("config_directory", "configDirectory")
        if let flag = try fields.optionalBool("use_dummy") {
            useDummy = flag
        } else {
            useDummy = try fields.optionalBool("useDummy")
        }
        connectionString = try either("connection_string", "connectionString")
        database = try fields.optionalString("database")
    }

    /// The request as JSON, in the integration suites' snake case.
    public func toJSON() -> JSONValue {
        var object: JSONObject = [:]
        if let serviceID { object["service_id"] = .string(serviceID) }
        if let configDirectory { object["config_directory"] = .string(configDirectory) }
        if let useDummy { object["use_dummy"] = .bool(useDummy) }
        if let connectionString { object["connection_string"] = .string(connectionString) }
        if let database { object["database"] = .string(database) }
        return .object(object)
    }
}
