import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

/// An argument value with the request's variables bound.
///
/// Values that come from variables become ``leaf(_:)`` indexes into ``Resolution/leaves`` (their
/// structure is recorded in the shape key), so a compiled statement can be reused for every request
/// whose arguments have the same shape.
indirect enum Resolved: Sendable {
    /// A value that varies per request: an index into the resolution's leaves.
    case leaf(Int)
    /// A value fixed by the operation text (a literal, a default, an enum or Boolean from a variable
    /// recorded in the shape key).
    case constant(JSONValue)
    /// A list.
    case list([Resolved])
    /// An input object, in the order written; absent fields are left out.
    case object([(key: String, value: Resolved)])

    /// The field of an object value.
    subscript(key: String) -> Resolved? {
        if case .object(let fields) = self { return fields.first { $0.key == key }?.value }
        return nil
    }

    /// Whether the value is a literal or variable `null`.
    var isNullConstant: Bool {
        if case .constant(.null) = self { return true }
        return false
    }
}

/// The variables of one request bound into an operation's argument trees.
struct Resolution: Sendable {
    /// Arguments per field node id, absent ones dropped and defaults applied.
    var arguments: [Int: Resolved] = [:]
    /// The per-request values, in the order they were met.
    var leaves: [JSONValue] = []
    /// The structure of everything that came from variables: equal shapes compile to equal SQL.
    var shape: String = ""
    /// Nodes removed by `@skip`/`@include`.
    var skipped: Set<Int> = []

    /// The JSON value of a resolved value, leaves substituted.
    func json(_ value: Resolved) -> JSONValue {
        switch value {
        case .leaf(let index): return leaves[index]
        case .constant(let json): return json
        case .list(let items): return .array(items.map(json))
        case .object(let fields): return .object(JSONObject(fields.map { ($0.key, json($0.value)) }))
        }
    }
}

/// What binding arguments needs to know of each input type, looked up once per service rather than by
/// copying a type definition out of the type system for every argument of every request.
final class InputTypeKinds: Sendable {
    /// An input type's kind: an input object with its fields, an enum with its values' names, or a scalar.
    enum Kind: Sendable {
        case inputObject([InputValueDefinition])
        case enumeration([String])
        case scalar
    }

    private let kinds: [String: Kind]

    init(_ system: TypeSystem) {
        var kinds: [String: Kind] = [:]
        for (name, definition) in system.types {
            switch definition {
            case .inputObject(let input): kinds[name] = .inputObject(input.fields)
            case .enum(let enumeration): kinds[name] = .enumeration(enumeration.values.map(\.name.value))
            case .scalar: kinds[name] = .scalar
            default: break
            }
        }
        self.kinds = kinds
    }

    /// The kind of the type named `name`; `nil` for an output type or an unknown name.
    subscript(name: String) -> Kind? { kinds[name] }
}

/// How one argument of a node binds, found once per operation: an argument whose value (or default) holds no
/// variable resolves the same for every request, with nothing added to the shape or the leaves.
enum ArgumentBinding: Sendable {
    /// Resolved beforehand: the argument's name and value.
    case fixed(String, Resolved)
    /// Holds a variable: resolved for each request, from the node's argument definition at this index.
    case perRequest(Int)

    /// The bindings of each node's arguments, in their definitions' order; arguments neither given nor defaulted
    /// are left out.
    static func bindings(of nodes: [FieldNode], kinds: InputTypeKinds) -> [[ArgumentBinding]] {
        var resolver = ArgumentResolver(kinds: kinds, variables: [:])
        return nodes.map { node in
            node.argumentDefinitions.indices.compactMap { index -> ArgumentBinding? in
                let definition = node.argumentDefinitions[index]
                let name = definition.name.value
                if let argument = node.arguments.first(where: { $0.name.value == name }) {
                    guard !holdsVariable(argument.value),
                        let value = resolver.resolve(argument.value, type: definition.type)
                    else { return .perRequest(index) }
                    return .fixed(name, value)
                }
                guard let defaultValue = definition.defaultValue else { return nil }
                guard !holdsVariable(defaultValue), let value = resolver.resolve(defaultValue, type: definition.type)
                else { return .perRequest(index) }
                return .fixed(name, value)
            }
        }
    }

    /// Whether a value holds a variable anywhere.
    static func holdsVariable(_ value: Value) -> Bool {
        switch value {
        case .variable: true
        case .list(let items, _): items.contains(where: holdsVariable)
        case .object(let fields, _): fields.contains { holdsVariable($0.value) }
        default: false
        }
    }
}

/// Binds coerced variables into a field tree's arguments.
struct ArgumentResolver {
    let kinds: InputTypeKinds
    let variables: JSONObject
    var resolution = Resolution()

    /// - Parameter kinds: The service's input types (``Engine`` keeps them).
    init(kinds: InputTypeKinds, variables: JSONObject) {
        self.kinds = kinds
        self.variables = variables
    }

    /// Builds the input types' kinds from `system` (for a resolution off the request path).
    init(system: TypeSystem, variables: JSONObject) {
        self.init(kinds: InputTypeKinds(system), variables: variables)
    }

    /// Resolves the arguments of every node of the trees, and `@skip`/`@include`.
    mutating func resolve(_ nodes: [FieldNode]) {
        resolve(nodesWithArguments: nodes.flatMap(\.subtree))
    }

    /// Resolves the given nodes (those with arguments or conditions; others have nothing to bind).
    mutating func resolve(nodesWithArguments: [FieldNode]) {
        for node in nodesWithArguments {
            if isSkipped(node) {
                resolution.skipped.insert(node.id)
                resolution.shape += "S\(node.id);"
                continue
            }
            var fields: [(key: String, value: Resolved)] = []
            for definition in node.argumentDefinitions {
                if let value = resolve(definition, of: node) { fields.append((definition.name.value, value)) }
            }
            resolution.arguments[node.id] = .object(fields)
        }
    }

    /// ``resolve(nodesWithArguments:)`` with the arguments that hold no variable resolved beforehand
    /// (``ArgumentBinding/bindings(of:kinds:)``, one list per node): the same resolution, for less work.
    mutating func resolve(nodesWithArguments nodes: [FieldNode], bindings: [[ArgumentBinding]]) {
        for (node, arguments) in zip(nodes, bindings) {
            if isSkipped(node) {
                resolution.skipped.insert(node.id)
                resolution.shape += "S\(node.id);"
                continue
            }
            var fields: [(key: String, value: Resolved)] = []
            fields.reserveCapacity(arguments.count)
            for argument in arguments {
                switch argument {
                case .fixed(let name, let value):
                    fields.append((name, value))
                case .perRequest(let index):
                    let definition = node.argumentDefinitions[index]
                    if let value = resolve(definition, of: node) { fields.append((definition.name.value, value)) }
                }
            }
            resolution.arguments[node.id] = .object(fields)
        }
    }

    /// The value of the argument `definition` of `node`: as written, or its default; `nil` when neither is given
    /// (or the value is an absent variable and there is no default).
    private mutating func resolve(_ definition: InputValueDefinition, of node: FieldNode) -> Resolved? {
        let name = definition.name.value
        if let argument = node.arguments.first(where: { $0.name.value == name }),
            let value = resolve(argument.value, type: definition.type)
        {
            return value
        }
        if let defaultValue = definition.defaultValue, let value = resolve(defaultValue, type: definition.type) {
            return value
        }
        return nil
    }

    private mutating func isSkipped(_ node: FieldNode) -> Bool {
        for (include, value) in node.conditions {
            var flag = false
            switch value {
            case .boolean(let b, _): flag = b
            case .variable(let name): flag = variables[name.value]?.boolValue ?? false
            default: break
            }
            if include != flag { return true }
        }
        return false
    }

    /// Resolves a value of a type; `nil` when it is an absent variable (the clause is dropped).
    mutating func resolve(_ value: Value, type: TypeReference) -> Resolved? {
        switch value {
        case .variable(let name):
            guard let json = variables[name.value] else {
                resolution.shape += "-;"
                return nil
            }
            return fromVariable(json, type: type)
        case .null:
            return .constant(.null)
        case .list(let items, _):
            let element = Self.elementType(type)
            return .list(items.compactMap { resolve($0, type: element) })
        case .object(let fields, _):
            let typeName = type.namedType.value
            guard case .inputObject(let definitions)? = kinds[typeName] else {
                // A JSON literal of a scalar such as `Any`: every field is kept (variables in it still bind).
                var members: [(key: String, value: Resolved)] = []
                for field in fields {
                    if let value = resolve(field.value, type: type) { members.append((field.name.value, value)) }
                }
                return .object(members)
            }
            var resolved: [(key: String, value: Resolved)] = []
            for field in fields {
                guard let definition = definitions.first(where: { $0.name.value == field.name.value }),
                    let value = resolve(field.value, type: definition.type)
                else { continue }
                resolved.append((field.name.value, value))
            }
            applyDefaults(definitions, to: &resolved)
            return .object(resolved)
        default:
            return .constant(Self.literal(value))
        }
    }

    private mutating func applyDefaults(
        _ definitions: [InputValueDefinition], to fields: inout [(key: String, value: Resolved)]
    ) {
        for definition in definitions where definition.defaultValue != nil {
            guard !fields.contains(where: { $0.key == definition.name.value }),
                let value = resolve(definition.defaultValue!, type: definition.type)
            else { continue }
            fields.append((definition.name.value, value))
        }
    }

    /// A variable's JSON as a resolved value: structure in the shape, scalars as leaves (enums and
    /// Booleans are structural: they change the SQL).
    mutating func fromVariable(_ json: JSONValue, type: TypeReference) -> Resolved {
        if case .null = json {
            resolution.shape += "n;"
            return .constant(.null)
        }
        let typeName = type.namedType.value
        switch kinds[typeName] {
        case .inputObject(let inputFields)?:
            if case .list(let element, _) = type.nullable, case .array(let items) = json {
                resolution.shape += "[\(items.count);"
                return .list(items.map { fromVariable($0, type: element) })
            }
            guard case .object(let object) = json else { return .constant(json) }
            resolution.shape += "{"
            var fields: [(key: String, value: Resolved)] = []
            for definition in inputFields {
                guard let value = object[definition.name.value] else { continue }
                resolution.shape += definition.name.value + ":"
                fields.append((definition.name.value, fromVariable(value, type: definition.type)))
            }
            resolution.shape += "}"
            var defaulted = fields
            applyDefaults(inputFields, to: &defaulted)
            return .object(defaulted)
        case .enumeration?:
            if case .array(let items) = json, type.isList {
                resolution.shape += "e\(items.count);"
            } else {
                resolution.shape += "e\(json.stringValue ?? "");"
                return .constant(json)
            }
            return leaf(json)
        default:
            if typeName == "Boolean", case .bool(let b) = json, !type.isList {
                resolution.shape += b ? "t;" : "f;"
                return .constant(json)
            }
            resolution.shape += "?;"
            return leaf(json)
        }
    }

    private mutating func leaf(_ json: JSONValue) -> Resolved {
        resolution.leaves.append(json)
        return .leaf(resolution.leaves.count - 1)
    }

    static func elementType(_ type: TypeReference) -> TypeReference {
        if case .list(let element, _) = type.nullable { return element }
        return type
    }

    /// A literal's JSON value (enums as strings).
    static func literal(_ value: Value) -> JSONValue {
        switch value {
        case .int(let text, _), .float(let text, _):
            return JSONNumber(literal: text).map(JSONValue.number) ?? .null
        case .string(let s): return .string(s.value)
        case .boolean(let b, _): return .bool(b)
        case .null, .variable: return .null
        case .enum(let name): return .string(name.value)
        case .list(let items, _): return .array(items.map(literal))
        case .object(let fields, _): return .object(JSONObject(fields.map { ($0.name.value, literal($0.value)) }))
        }
    }
}
