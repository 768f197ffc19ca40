import DataConnectWire

/// Rebuilds a response from a ``ResultTree`` and entity records: the exact JSON the server sent.
struct Hydrator {
    /// A tree refers to an entity or a field that storage no longer has.
    struct MissingData: Error {}

    /// The entities' field values, by id.
    let entities: [String: JSONObject]

    /// The ids of every entity a tree shows, without duplicates, in the order first met.
    static func entityIDs(in tree: JSONValue) -> [String] {
        var ids: [String] = []
        var seen: Set<String> = []
        collect(tree, into: &ids, seen: &seen)
        return ids
    }

    private static func collect(_ tree: JSONValue, into ids: inout [String], seen: inout Set<String>) {
        switch ResultTree.node(tree) {
        case .entity(let id, _, let children):
            if seen.insert(id).inserted { ids.append(id) }
            for (_, child) in children { collect(child, into: &ids, seen: &seen) }
        case .entityList(let elements, _), .array(let elements):
            for element in elements { collect(element, into: &ids, seen: &seen) }
        case .object(let members):
            for (_, child) in members { collect(child, into: &ids, seen: &seen) }
        case .value:
            break
        }
    }

    /// The JSON a tree stands for.
    ///
    /// - Throws: ``MissingData`` when an entity or one of its selected fields is missing.
    func hydrate(_ tree: JSONValue) throws(MissingData) -> JSONValue {
        switch ResultTree.node(tree) {
        case .entity(let id, let keys, let children):
            guard let fields = entities[id] else { throw MissingData() }
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(keys.count)
            for key in keys {
                guard let key = key.stringValue else { throw MissingData() }
                if let child = children[key] {
                    members.append((key, try hydrate(child)))
                } else if let value = fields[key] {
                    members.append((key, value))
                } else {
                    throw MissingData()
                }
            }
            return .object(JSONObject(members))
        case .entityList(let elements, _), .array(let elements):
            var hydrated: [JSONValue] = []
            hydrated.reserveCapacity(elements.count)
            for element in elements { hydrated.append(try hydrate(element)) }
            return .array(hydrated)
        case .object(let members):
            var hydrated: [(String, JSONValue)] = []
            hydrated.reserveCapacity(members.count)
            for (key, child) in members { hydrated.append((key, try hydrate(child))) }
            return .object(JSONObject(hydrated))
        case .value(let value):
            return value
        }
    }
}
