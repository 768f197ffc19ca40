import GraphQLLanguage

/// A type system described as the GraphQL introspection types describe it (`__Schema`, `__Type`, ...),
/// computed once per schema.
///
/// Executing an introspection query selects from this description: nothing is computed per request but
/// the selection. Types keep the type system's definition order, the introspection types last.
public struct SchemaIntrospection: Sendable {
    /// A reference to a type: a named type, or a list or non-null wrapper (`ofType`).
    public indirect enum TypeRef: Sendable, Hashable {
        case named(String)
        case list(TypeRef)
        case nonNull(TypeRef)

        init(_ reference: TypeReference) {
            switch reference {
            case .named(let name): self = .named(name.value)
            case .list(let inner, _): self = .list(TypeRef(inner))
            case .nonNull(let inner, _): self = .nonNull(TypeRef(inner))
            }
        }
    }

    /// An argument or input field (`__InputValue`).
    public struct InputValue: Sendable {
        public var name: String
        public var description: String?
        public var type: TypeRef
        /// The default value printed as GraphQL value text.
        public var defaultValue: String?
        public var deprecationReason: String?
    }

    /// An output field (`__Field`).
    public struct Field: Sendable {
        public var name: String
        public var description: String?
        public var arguments: [InputValue]
        public var type: TypeRef
        public var deprecationReason: String?
    }

    /// An enum value (`__EnumValue`).
    public struct EnumValue: Sendable {
        public var name: String
        public var description: String?
        public var deprecationReason: String?
    }

    /// A named type (`__Type` of kind other than LIST and NON_NULL).
    public struct NamedType: Sendable {
        /// `SCALAR`, `OBJECT`, `INTERFACE`, `UNION`, `ENUM` or `INPUT_OBJECT`.
        public var kind: String
        public var name: String
        public var description: String?
        public var specifiedByURL: String?
        /// Objects and interfaces only.
        public var fields: [Field]?
        /// Objects and interfaces only.
        public var interfaces: [String]?
        /// Interfaces and unions only.
        public var possibleTypes: [String]?
        /// Enums only.
        public var enumValues: [EnumValue]?
        /// Input objects only.
        public var inputFields: [InputValue]?
    }

    /// A directive (`__Directive`).
    public struct Directive: Sendable {
        public var name: String
        public var description: String?
        public var locations: [String]
        public var arguments: [InputValue]
        public var isRepeatable: Bool
    }

    /// Every named type, in order.
    public let types: [NamedType]
    /// Index of each type in ``types``, by name.
    public let typeIndex: [String: Int]
    /// The query root's name.
    public let queryType: String
    /// The mutation root's name, when the schema has one.
    public let mutationType: String?
    /// Every directive, by name order.
    public let directives: [Directive]

    /// Describes a type system.
    public init(system: TypeSystem) {
        var order = system.typeOrder.filter { !$0.hasPrefix("__") }
        order += IntrospectionTypes.names.filter { system.types[$0] != nil }
        var types: [NamedType] = []
        var index: [String: Int] = [:]
        for name in order {
            guard let definition = system.types[name] else { continue }
            index[name] = types.count
            types.append(Self.describe(definition, system: system))
        }
        self.types = types
        self.typeIndex = index
        self.queryType = system.queryType
        self.mutationType = system.types[system.mutationType] != nil ? system.mutationType : nil
        self.directives = system.directives.values.sorted { $0.name.value < $1.name.value }.map { directive in
            Directive(
                name: directive.name.value, description: directive.description?.value,
                locations: directive.locations.map(\.rawValue), arguments: directive.arguments.map(Self.describe),
                isRepeatable: directive.isRepeatable)
        }
    }

    /// The named type called `name`.
    public func type(named name: String) -> NamedType? {
        typeIndex[name].map { types[$0] }
    }

    static func deprecationReason(_ directives: [GraphQLLanguage.Directive]) -> String? {
        guard let deprecated = directives.first(named: "deprecated") else { return nil }
        if case .string(let reason)? = deprecated.argument("reason")?.value { return reason.value }
        return "No longer supported"
    }

    static func describe(_ value: InputValueDefinition) -> InputValue {
        InputValue(
            name: value.name.value, description: value.description?.value, type: TypeRef(value.type),
            defaultValue: value.defaultValue.map { GraphQLPrinter.print($0) },
            deprecationReason: deprecationReason(value.directives))
    }

    static func describe(_ definition: TypeDefinition, system: TypeSystem) -> NamedType {
        let name = definition.name.value
        switch definition {
        case .scalar(let scalar):
            var url: String?
            if case .string(let text)? = scalar.directives.first(named: "specifiedBy")?.argument("url")?.value {
                url = text.value
            }
            return NamedType(
                kind: "SCALAR", name: name, description: scalar.description?.value, specifiedByURL: url)
        case .object(let object), .interface(let object):
            let isInterface = if case .interface = definition { true } else { false }
            let fields = object.fields.map { field in
                Field(
                    name: field.name.value, description: field.description?.value,
                    arguments: field.arguments.map(describe), type: TypeRef(field.type),
                    deprecationReason: deprecationReason(field.directives))
            }
            return NamedType(
                kind: isInterface ? "INTERFACE" : "OBJECT", name: name, description: object.description?.value,
                fields: fields, interfaces: object.interfaces.map(\.value),
                possibleTypes: isInterface ? system.possibleTypes(of: name).sorted() : nil)
        case .union(let union):
            return NamedType(
                kind: "UNION", name: name, description: union.description?.value,
                possibleTypes: union.types.map(\.value))
        case .enum(let enumeration):
            return NamedType(
                kind: "ENUM", name: name, description: enumeration.description?.value,
                enumValues: enumeration.values.map {
                    EnumValue(
                        name: $0.name.value, description: $0.description?.value,
                        deprecationReason: deprecationReason($0.directives))
                })
        case .inputObject(let input):
            return NamedType(
                kind: "INPUT_OBJECT", name: name, description: input.description?.value,
                inputFields: input.fields.map(describe))
        }
    }
}
