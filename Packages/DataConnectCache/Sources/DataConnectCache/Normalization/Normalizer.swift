import DataConnectWire
import Foundation

/// Splits a response into a ``ResultTree`` and entity field values, guided by `extensions.dataConnect`.
///
/// Objects at paths with an `entityId` become entity nodes; their fields that hold no entity go to the entity's
/// values, verbatim and by response key, the others stay in the tree as children. Everything without an entity
/// below it is kept verbatim.
struct Normalizer {
    /// The outcome of normalizing one response.
    struct Result {
        /// The dehydrated tree.
        var tree: JSONValue
        /// Field values by entity id, merged when an entity occurs more than once.
        var entities: [String: JSONObject]
        /// The smallest per-path `maxAge` in the properties, in seconds.
        var maxAge: TimeInterval?
    }

    /// A trie over the properties' paths.
    private final class PathNode {
        var entityID: String?
        var listTable: String?
        var children: [PathSegment: PathNode] = [:]

        func child(_ segment: PathSegment) -> PathNode {
            if let existing = children[segment] { return existing }
            let node = PathNode()
            children[segment] = node
            return node
        }
    }

    private let root = PathNode()
    private let maxAge: TimeInterval?

    /// Builds the path trie; only properties whose action passes `includes` place entities.
    init(properties: [DataConnectProperties], includes: (DataConnectProperties) -> Bool = { _ in true }) {
        var maxAge: TimeInterval?
        for property in properties {
            if let text = property.maxAge, let seconds = ProtobufDuration.seconds(text) {
                maxAge = min(maxAge ?? seconds, seconds)
            }
            guard includes(property), property.entityId != nil || property.entityIds != nil else { continue }
            var node = root
            for segment in property.path { node = node.child(segment) }
            if let id = property.entityId {
                node.entityID = id
            }
            if let ids = property.entityIds {
                node.listTable = ids.first.map(EntityRecord.table(ofEntity:)) ?? QueryDependencies.unknownTable
                for (index, id) in ids.enumerated() {
                    node.child(.index(index)).entityID = id
                }
            }
        }
        self.maxAge = maxAge
    }

    /// Normalizes `data`, the response's `data` object.
    func normalize(_ data: JSONObject) -> Result {
        var entities: [String: JSONObject] = [:]
        let tree = dehydrate(.object(data), at: root, entities: &entities)
        return Result(tree: tree, entities: entities, maxAge: maxAge)
    }

    private func dehydrate(_ value: JSONValue, at path: PathNode?, entities: inout [String: JSONObject]) -> JSONValue {
        guard let path else { return ResultTree.verbatimNode(value) }
        switch value {
        case .object(let members):
            if let id = path.entityID {
                var keys: [String] = []
                keys.reserveCapacity(members.count)
                var children: [(String, JSONValue)] = []
                var own: [(String, JSONValue)] = []
                for (key, member) in members {
                    keys.append(key)
                    if let childPath = path.children[.field(key)] {
                        children.append((key, dehydrate(member, at: childPath, entities: &entities)))
                    } else {
                        own.append((key, member))
                    }
                }
                // Merge after the children: the same entity may occur again below itself.
                var fields = entities[id] ?? JSONObject()
                for (key, member) in own { fields[key] = member }
                entities[id] = fields
                return ResultTree.entityNode(id: id, keys: keys, children: JSONObject(children))
            }
            let dehydrated = JSONObject(
                members.map { ($0.key, dehydrate($0.value, at: path.children[.field($0.key)], entities: &entities)) }
            )
            return .object(JSONObject([(ResultTree.object, .object(dehydrated))]))
        case .array(let elements):
            var dehydrated: [JSONValue] = []
            dehydrated.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                dehydrated.append(dehydrate(element, at: path.children[.index(index)], entities: &entities))
            }
            if let table = path.listTable {
                return ResultTree.entityListNode(elements: dehydrated, table: table)
            }
            return .object(JSONObject([(ResultTree.array, .array(dehydrated))]))
        default:
            return ResultTree.verbatimNode(value)
        }
    }
}
