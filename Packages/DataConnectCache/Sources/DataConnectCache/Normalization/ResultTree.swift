import DataConnectWire

/// The dehydrated form of a query result, and the operations on it that need no entity records.
///
/// A tree is a JSON value. Parts of the result that contain no entity are stored verbatim; the rest is made of
/// marker objects whose first key starts with `$`, which no GraphQL response key can:
///
/// - entity: `{"$e": id, "$k": [response keys in order], "$c": {key: child}}`; keys without a child read from
///   the entity record, `$c` is left out when empty;
/// - entity list (a path with `entityIds`): `{"$l": [elements], "$t": table}`, with ``QueryDependencies/unknownTable``
///   when the list was empty;
/// - object or array holding entities below: `{"$o": {key: child}}` and `{"$a": [child]}`;
/// - a verbatim object whose first key starts with `$` (a JSON scalar): `{"$v": value}`.
enum ResultTree {
    static let entity = "$e"
    static let keys = "$k"
    static let children = "$c"
    static let entityList = "$l"
    static let table = "$t"
    static let object = "$o"
    static let array = "$a"
    static let verbatim = "$v"

    /// What a tree node is.
    enum Node {
        case entity(id: String, keys: [JSONValue], children: JSONObject)
        case entityList(elements: [JSONValue], table: String)
        case object(JSONObject)
        case array([JSONValue])
        case value(JSONValue)

        /// Whether this is a verbatim JSON null.
        var isNull: Bool {
            if case .value(.null) = self { return true }
            return false
        }
    }

    /// Classifies a node by its first key.
    static func node(_ value: JSONValue) -> Node {
        guard case .object(let members) = value, !members.isEmpty else { return .value(value) }
        let first = members[0]
        guard first.key.hasPrefix("$") else { return .value(value) }
        switch first.key {
        case entity:
            return .entity(
                id: first.value.stringValue ?? "", keys: members[keys]?.arrayValue ?? [],
                children: members[children]?.objectValue ?? [:]
            )
        case entityList:
            return .entityList(
                elements: first.value.arrayValue ?? [],
                table: members[table]?.stringValue ?? QueryDependencies.unknownTable
            )
        case object:
            return .object(first.value.objectValue ?? [:])
        case array:
            return .array(first.value.arrayValue ?? [])
        case verbatim:
            return .value(first.value)
        default:
            return .value(value)
        }
    }

    /// Wraps a verbatim value when it could be mistaken for a marker.
    static func verbatimNode(_ value: JSONValue) -> JSONValue {
        if case .object(let members) = value, !members.isEmpty, members[0].key.hasPrefix("$") {
            return .object(JSONObject([(verbatim, value)]))
        }
        return value
    }

    static func entityNode(id: String, keys: [String], children: JSONObject) -> JSONValue {
        var members: [(String, JSONValue)] = [(entity, .string(id)), (self.keys, .array(keys.map(JSONValue.string)))]
        if !children.isEmpty {
            members.append((self.children, .object(children)))
        }
        return .object(JSONObject(members))
    }

    static func entityListNode(elements: [JSONValue], table: String) -> JSONValue {
        .object(JSONObject([(entityList, .array(elements)), (self.table, .string(table))]))
    }

    // MARK: Queries on trees

    /// The entities a tree shows, with the keys it reads from each record, and the tables it lists.
    static func dependencies(of tree: JSONValue) -> QueryDependencies {
        var dependencies = QueryDependencies()
        collectDependencies(tree, into: &dependencies)
        // A root field that is null is a lookup that found nothing (`user(key: …)`): the entity it waits for is
        // unknown, so any insert or upsert may make it appear, as for an empty list of unknown table.
        if rootHasNullField(tree) { dependencies.listTables.insert(QueryDependencies.unknownTable) }
        return dependencies
    }

    private static func rootHasNullField(_ tree: JSONValue) -> Bool {
        switch node(tree) {
        case .object(let members): members.contains { node($0.value).isNull }
        case .value(.object(let members)): members.contains { $0.value == .null }
        default: false
        }
    }

    private static func collectDependencies(_ tree: JSONValue, into dependencies: inout QueryDependencies) {
        switch node(tree) {
        case .entity(let id, let keys, let children):
            var read = dependencies.entities[id] ?? []
            for key in keys {
                if let key = key.stringValue, !children.contains(key: key) { read.insert(key) }
            }
            dependencies.entities[id] = read
            for (_, child) in children { collectDependencies(child, into: &dependencies) }
        case .entityList(let elements, let table):
            dependencies.listTables.insert(table)
            for element in elements { collectDependencies(element, into: &dependencies) }
        case .object(let members):
            for (_, child) in members { collectDependencies(child, into: &dependencies) }
        case .array(let elements):
            for element in elements { collectDependencies(element, into: &dependencies) }
        case .value:
            break
        }
    }

    /// The tree without an entity: removed from the lists that hold it, `null` where it was a single reference.
    ///
    /// - Returns: The new tree, or `nil` when the tree does not show the entity.
    static func removing(entity removed: String, from tree: JSONValue) -> JSONValue? {
        var changed = false
        let result = remove(removed, from: tree, changed: &changed)
        // Not a ternary: `nil` there would type-check as `JSONValue.null`.
        guard changed else { return nil }
        return result
    }

    private static func isEntity(_ value: JSONValue, id: String) -> Bool {
        if case .entity(let entityID, _, _) = node(value) { return entityID == id }
        return false
    }

    private static func remove(_ removed: String, from tree: JSONValue, changed: inout Bool) -> JSONValue {
        switch node(tree) {
        case .entity(let id, let keys, let children):
            if id == removed {
                changed = true
                return .null
            }
            guard !children.isEmpty else { return tree }
            let newChildren = JSONObject(children.map { ($0.key, remove(removed, from: $0.value, changed: &changed)) })
            return entityNode(id: id, keys: keys.compactMap(\.stringValue), children: newChildren)
        case .entityList(let elements, let table):
            return entityListNode(elements: removeElements(removed, from: elements, changed: &changed), table: table)
        case .array(let elements):
            return .object(JSONObject([(array, .array(removeElements(removed, from: elements, changed: &changed)))]))
        case .object(let members):
            let newMembers = JSONObject(members.map { ($0.key, remove(removed, from: $0.value, changed: &changed)) })
            return .object(JSONObject([(object, .object(newMembers))]))
        case .value:
            return tree
        }
    }

    private static func removeElements(
        _ removed: String, from elements: [JSONValue], changed: inout Bool
    ) -> [JSONValue] {
        var result: [JSONValue] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            if isEntity(element, id: removed) {
                changed = true
            } else {
                result.append(remove(removed, from: element, changed: &changed))
            }
        }
        return result
    }
}
