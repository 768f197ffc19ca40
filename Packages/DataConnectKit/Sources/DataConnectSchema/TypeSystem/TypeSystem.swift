import GraphQLLanguage

/// A GraphQL type system built from SDL definitions: named types, their fields and arguments, and
/// directive definitions, with the lookups validation needs.
///
/// The built-in scalars `String`, `Int`, `Float`, `Boolean` and `ID` are always present. Type
/// extensions are merged into the type they extend.
public struct TypeSystem: Sendable {
    /// Every named type, by name.
    public private(set) var types: [String: TypeDefinition] = [:]
    /// Every directive definition, by name.
    public private(set) var directives: [String: DirectiveDefinition] = [:]
    /// Type names in definition order (for printing).
    public private(set) var typeOrder: [String] = []
    /// The root query type's name.
    public var queryType = "Query"
    /// The root mutation type's name.
    public var mutationType = "Mutation"

    /// The names of the built-in scalars of the GraphQL specification.
    public static let specifiedScalars = ["String", "Int", "Float", "Boolean", "ID"]

    /// Creates a type system from definitions; duplicate names are reported as diagnostics.
    ///
    /// - Parameter definitions: SDL definitions (operations and fragments are ignored).
    /// - Returns: the type system and the problems found while merging.
    public static func build(from definitions: [Definition]) -> (TypeSystem, [Diagnostic]) {
        var system = TypeSystem()
        var diagnostics: [Diagnostic] = []
        for scalar in specifiedScalars {
            system.add(.scalar(ScalarTypeDefinition(name: Name(scalar))))
        }
        var extensions: [TypeDefinition] = []
        for definition in definitions {
            switch definition {
            case .type(let type):
                if system.types[type.name.value] != nil {
                    diagnostics.append(
                        Diagnostic(
                            file: type.location.file, location: type.location.start,
                            message: "there can be only one type named \"\(type.name.value)\""))
                } else {
                    system.add(type)
                }
            case .typeExtension(let type):
                extensions.append(type)
            case .directive(let directive):
                if system.directives[directive.name.value] != nil {
                    diagnostics.append(
                        Diagnostic(
                            file: directive.location.file, location: directive.location.start,
                            message: "there can be only one directive named \"@\(directive.name.value)\""))
                } else {
                    system.directives[directive.name.value] = directive
                }
            case .schema(let schema), .schemaExtension(let schema):
                for root in schema.operationTypes {
                    switch root.operation {
                    case .query: system.queryType = root.type.value
                    case .mutation: system.mutationType = root.type.value
                    case .subscription: break
                    }
                }
            case .operation, .fragment:
                break
            }
        }
        for type in extensions {
            guard let existing = system.types[type.name.value] else {
                diagnostics.append(
                    Diagnostic(
                        file: type.location.file, location: type.location.start,
                        message: "cannot extend type \"\(type.name.value)\" because it is not defined"))
                continue
            }
            system.types[type.name.value] = merge(existing, type)
        }
        return (system, diagnostics)
    }

    private mutating func add(_ type: TypeDefinition) {
        if types[type.name.value] == nil { typeOrder.append(type.name.value) }
        types[type.name.value] = type
    }

    /// Replaces or adds a type (used when generating the API).
    public mutating func set(_ type: TypeDefinition) {
        add(type)
    }

    private static func merge(_ base: TypeDefinition, _ ext: TypeDefinition) -> TypeDefinition {
        switch (base, ext) {
        case (.object(var b), .object(let e)):
            b.fields += e.fields
            b.directives += e.directives
            b.interfaces += e.interfaces
            return .object(b)
        case (.interface(var b), .interface(let e)):
            b.fields += e.fields
            b.directives += e.directives
            return .interface(b)
        case (.inputObject(var b), .inputObject(let e)):
            b.fields += e.fields
            b.directives += e.directives
            return .inputObject(b)
        case (.enum(var b), .enum(let e)):
            b.values += e.values
            b.directives += e.directives
            return .enum(b)
        case (.union(var b), .union(let e)):
            b.types += e.types
            b.directives += e.directives
            return .union(b)
        case (.scalar(var b), .scalar(let e)):
            b.directives += e.directives
            return .scalar(b)
        default:
            return base
        }
    }

    // MARK: - Lookups

    /// The named type, if defined.
    public func type(named name: String) -> TypeDefinition? { types[name] }

    /// The output fields of an object or interface type.
    public func fields(of typeName: String) -> [FieldDefinition] {
        switch types[typeName] {
        case .object(let o), .interface(let o): o.fields
        default: []
        }
    }

    /// One output field of an object or interface type.
    ///
    /// On the query root of a type system that holds the introspection types, `__schema` and `__type` are
    /// the meta fields of ``IntrospectionTypes``.
    public func field(_ name: String, on typeName: String) -> FieldDefinition? {
        if name.hasPrefix("__"), typeName == queryType, types["__Schema"] != nil,
            let meta = IntrospectionTypes.queryMetaField(name)
        {
            return meta
        }
        return fields(of: typeName).first { $0.name.value == name }
    }

    /// The input fields of an input object type.
    public func inputFields(of typeName: String) -> [InputValueDefinition] {
        if case .inputObject(let i) = types[typeName] { return i.fields }
        return []
    }

    /// Whether the named type is a scalar or an enum.
    public func isLeaf(_ name: String) -> Bool {
        switch types[name] {
        case .scalar, .enum: true
        default: false
        }
    }

    /// Whether the named type can appear in input positions (scalar, enum, input object).
    public func isInputType(_ name: String) -> Bool {
        switch types[name] {
        case .scalar, .enum, .inputObject: true
        default: false
        }
    }

    /// Whether the named type has selection sets (object, interface, union).
    public func isComposite(_ name: String) -> Bool {
        switch types[name] {
        case .object, .interface, .union: true
        default: false
        }
    }

    /// The object types a fragment on `typeName` can apply to.
    public func possibleTypes(of typeName: String) -> Set<String> {
        switch types[typeName] {
        case .object: return [typeName]
        case .union(let u): return Set(u.types.map(\.value))
        case .interface:
            var result: Set<String> = []
            for (name, type) in types {
                if case .object(let o) = type, o.interfaces.contains(where: { $0.value == typeName }) {
                    result.insert(name)
                }
            }
            return result
        default: return []
        }
    }
}
