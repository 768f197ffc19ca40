/// Data Connect metadata about one place in a response, from `extensions.dataConnect`.
///
/// The client cache uses these to normalize results: `entityId` names the entity at ``path``, `entityIds` the
/// entities of the list at ``path``, one per element.
///
/// ```json
/// {"path": ["movies"], "entityIds": ["m1", "m2"], "action": "LIST"}
/// ```
public struct DataConnectProperties: Hashable, Sendable {
    /// What a mutation or query did at a path.
    public enum Action: String, CaseIterable, Hashable, Sendable {
        /// Not specified.
        case unspecified = "ACTION_UNSPECIFIED"
        /// A single entity was read.
        case get = "GET"
        /// A list of entities was read.
        case list = "LIST"
        /// An entity was inserted.
        case create = "CREATE"
        /// An entity was updated.
        case update = "UPDATE"
        /// An entity was inserted or updated.
        case upsert = "UPSERT"
        /// An entity was deleted.
        case delete = "DELETE"
    }

    /// Field names and indices under `data`; empty means the root.
    public var path: [PathSegment]
    /// The id of the single entity at the path.
    public var entityId: String?
    /// The ids of the entities of the list at the path, one per element.
    public var entityIds: [String]?
    /// How long the result may be cached, as a protobuf duration such as `30s`.
    public var maxAge: String?
    /// What happened at the path; an action this library does not know reads as ``Action/unspecified``.
    public var action: Action?

    /// Creates properties for a path.
    public init(
        path: [PathSegment], entityId: String? = nil, entityIds: [String]? = nil, maxAge: String? = nil,
        action: Action? = nil
    ) {
        self.path = path
        self.entityId = entityId
        self.entityIds = entityIds
        self.maxAge = maxAge
        self.action = action
    }

    /// Reads properties from JSON; a missing `path` reads as the root.
    ///
    /// - Throws: ``WireFormatError`` when a member has the wrong type.
    public init(json: JSONValue) throws(WireFormatError) {
        try self.init(json: json, path: "")
    }

    init(json: JSONValue, path fieldPath: String) throws(WireFormatError) {
        let fields = try WireFields(json, path: fieldPath, what: "a dataConnect properties")
        path = try PathSegment.path(from: fields.optionalArray("path") ?? [], at: fields.fieldPath("path"))
        entityId = try fields.optionalString("entityId")
        if let ids = try fields.optionalArray("entityIds") {
            var strings: [String] = []
            strings.reserveCapacity(ids.count)
            for id in ids {
                guard case .string(let text) = id else {
                    throw fields.mismatch("entityIds", expected: "an array of strings", found: id)
                }
                strings.append(text)
            }
            entityIds = strings
        } else {
            entityIds = nil
        }
        maxAge = try fields.optionalString("maxAge")
        action = try fields.optionalString("action").map { Action(rawValue: $0) ?? .unspecified }
    }

    /// The properties as JSON: `path` always, the other members when set.
    public func toJSON() -> JSONValue {
        var object: JSONObject = ["path": .array(path.map(\.jsonValue))]
        if let entityId {
            object["entityId"] = .string(entityId)
        }
        if let entityIds {
            object["entityIds"] = .array(entityIds.map(JSONValue.string))
        }
        if let maxAge {
            object["maxAge"] = .string(maxAge)
        }
        if let action {
            object["action"] = .string(action.rawValue)
        }
        return .object(object)
    }

    /// Writes the properties as one JSON object, without building a ``JSONValue``.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("path")
        PathSegment.write(path, to: &writer)
        if let entityId {
            writer.key("entityId")
            writer.string(entityId)
        }
        if let entityIds {
            writer.key("entityIds")
            writer.beginArray()
            for id in entityIds {
                writer.string(id)
            }
            writer.endArray()
        }
        if let maxAge {
            writer.key("maxAge")
            writer.string(maxAge)
        }
        if let action {
            writer.key("action")
            writer.string(action.rawValue)
        }
        writer.endObject()
    }
}
