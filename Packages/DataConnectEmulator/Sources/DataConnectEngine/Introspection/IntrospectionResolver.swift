import DataConnectSchema
import DataConnectWire

/// Answers `__schema` and `__type(name:)` by selecting from the schema's ``SchemaIntrospection``, computed
/// once per schema: a request only walks its selection.
struct IntrospectionResolver {
    let schema: SchemaIntrospection
    let resolution: Resolution

    /// The value of a `__schema` or `__type` root field.
    func value(of root: FieldNode) -> JSONValue {
        if root.name == "__schema" { return schemaObject(root) }
        guard case .string(let name)? = argument(root, "name"), schema.type(named: name) != nil else { return .null }
        return typeObject(.named(name), node: root)
    }

    // MARK: - Selection

    func argument(_ node: FieldNode, _ name: String) -> JSONValue? {
        resolution.arguments[node.id]?[name].map(resolution.json)
    }

    func includeDeprecated(_ node: FieldNode) -> Bool {
        argument(node, "includeDeprecated")?.boolValue ?? false
    }

    /// An object with the node's selected fields, each answered by `field`.
    func object(_ node: FieldNode, typename: String, _ field: (FieldNode) -> JSONValue) -> JSONValue {
        var result = JSONObject()
        for child in node.children where !resolution.skipped.contains(child.id) {
            result[child.responseKey] = child.name == "__typename" ? .string(typename) : field(child)
        }
        return .object(result)
    }

    static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    // MARK: - Types

    func schemaObject(_ node: FieldNode) -> JSONValue {
        object(node, typename: "__Schema") { child in
            switch child.name {
            case "types": .array(schema.types.map { typeObject(.named($0.name), node: child) })
            case "queryType": typeObject(.named(schema.queryType), node: child)
            case "mutationType": schema.mutationType.map { typeObject(.named($0), node: child) } ?? .null
            case "directives": .array(schema.directives.map { directiveObject($0, node: child) })
            default: .null
            }
        }
    }

    func typeObject(_ reference: SchemaIntrospection.TypeRef, node: FieldNode) -> JSONValue {
        var named: SchemaIntrospection.NamedType?
        var kind: String
        var ofType: SchemaIntrospection.TypeRef?
        switch reference {
        case .named(let name):
            named = schema.type(named: name)
            kind = named?.kind ?? "SCALAR"
        case .list(let inner):
            kind = "LIST"
            ofType = inner
        case .nonNull(let inner):
            kind = "NON_NULL"
            ofType = inner
        }
        return object(node, typename: "__Type") { child in
            switch child.name {
            case "kind": return .string(kind)
            case "name": return Self.text(named?.name)
            case "description": return Self.text(named?.description)
            case "specifiedByURL": return Self.text(named?.specifiedByURL)
            case "fields":
                guard let fields = named?.fields else { return .null }
                let include = includeDeprecated(child)
                return .array(
                    fields.filter { include || $0.deprecationReason == nil }.map { fieldObject($0, node: child) })
            case "interfaces":
                guard let interfaces = named?.interfaces else { return .null }
                return .array(interfaces.map { typeObject(.named($0), node: child) })
            case "possibleTypes":
                guard let types = named?.possibleTypes else { return .null }
                return .array(types.map { typeObject(.named($0), node: child) })
            case "enumValues":
                guard let values = named?.enumValues else { return .null }
                let include = includeDeprecated(child)
                return .array(
                    values.filter { include || $0.deprecationReason == nil }.map { value in
                        object(child, typename: "__EnumValue") { leaf in
                            deprecatable(
                                leaf, name: value.name, description: value.description,
                                reason: value.deprecationReason) ?? .null
                        }
                    })
            case "inputFields":
                guard let fields = named?.inputFields else { return .null }
                let include = includeDeprecated(child)
                return .array(
                    fields.filter { include || $0.deprecationReason == nil }.map { inputObject($0, node: child) })
            case "ofType":
                return ofType.map { typeObject($0, node: child) } ?? .null
            default:
                return .null
            }
        }
    }

    /// `name`, `description`, `isDeprecated` and `deprecationReason`, shared by fields, values and inputs.
    func deprecatable(_ node: FieldNode, name: String, description: String?, reason: String?) -> JSONValue? {
        switch node.name {
        case "name": .string(name)
        case "description": Self.text(description)
        case "isDeprecated": .bool(reason != nil)
        case "deprecationReason": Self.text(reason)
        default: nil
        }
    }

    func fieldObject(_ field: SchemaIntrospection.Field, node: FieldNode) -> JSONValue {
        object(node, typename: "__Field") { child in
            if let common = deprecatable(
                child, name: field.name, description: field.description, reason: field.deprecationReason)
            {
                return common
            }
            switch child.name {
            case "args":
                let include = includeDeprecated(child)
                return .array(
                    field.arguments.filter { include || $0.deprecationReason == nil }.map {
                        inputObject($0, node: child)
                    })
            case "type": return typeObject(field.type, node: child)
            default: return .null
            }
        }
    }

    func inputObject(_ value: SchemaIntrospection.InputValue, node: FieldNode) -> JSONValue {
        object(node, typename: "__InputValue") { child in
            if let common = deprecatable(
                child, name: value.name, description: value.description, reason: value.deprecationReason)
            {
                return common
            }
            switch child.name {
            case "type": return typeObject(value.type, node: child)
            case "defaultValue": return Self.text(value.defaultValue)
            default: return .null
            }
        }
    }

    func directiveObject(_ directive: SchemaIntrospection.Directive, node: FieldNode) -> JSONValue {
        object(node, typename: "__Directive") { child in
            switch child.name {
            case "name": .string(directive.name)
            case "description": Self.text(directive.description)
            case "isRepeatable": .bool(directive.isRepeatable)
            case "locations": .array(directive.locations.map { .string($0) })
            case "args":
                .array(
                    directive.arguments.filter { includeDeprecated(child) || $0.deprecationReason == nil }.map {
                        inputObject($0, node: child)
                    })
            default: .null
            }
        }
    }
}
