/// `SchemaDefinition : Description? schema Directives? { RootOperationTypeDefinition+ }` (also used for extensions).
public struct SchemaDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var directives: [Directive]
    /// `query: Query`, `mutation: Mutation`, ...
    public var operationTypes: [RootOperationTypeDefinition]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, directives: [Directive] = [],
        operationTypes: [RootOperationTypeDefinition], location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.directives = directives
        self.operationTypes = operationTypes
        self.location = location
    }
}

/// `RootOperationTypeDefinition : OperationType : NamedType`
public struct RootOperationTypeDefinition: Hashable, Sendable {
    public var operation: OperationType
    public var type: Name

    public init(operation: OperationType, type: Name) {
        self.operation = operation
        self.type = type
    }
}

/// Any named type definition (or extension, when wrapped in `Definition.typeExtension`).
public enum TypeDefinition: Hashable, Sendable {
    case scalar(ScalarTypeDefinition)
    case object(ObjectTypeDefinition)
    case interface(ObjectTypeDefinition)
    case union(UnionTypeDefinition)
    case `enum`(EnumTypeDefinition)
    case inputObject(InputObjectTypeDefinition)

    public var name: Name {
        switch self {
        case .scalar(let d): d.name
        case .object(let d), .interface(let d): d.name
        case .union(let d): d.name
        case .enum(let d): d.name
        case .inputObject(let d): d.name
        }
    }

    public var directives: [Directive] {
        switch self {
        case .scalar(let d): d.directives
        case .object(let d), .interface(let d): d.directives
        case .union(let d): d.directives
        case .enum(let d): d.directives
        case .inputObject(let d): d.directives
        }
    }

    public var location: NodeLocation {
        switch self {
        case .scalar(let d): d.location
        case .object(let d), .interface(let d): d.location
        case .union(let d): d.location
        case .enum(let d): d.location
        case .inputObject(let d): d.location
        }
    }
}

/// `ScalarTypeDefinition : Description? scalar Name Directives?`
public struct ScalarTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.location = location
    }
}

/// `ObjectTypeDefinition` and `InterfaceTypeDefinition`:
/// `Description? type|interface Name ImplementsInterfaces? Directives? FieldsDefinition?`
public struct ObjectTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var interfaces: [Name]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    /// The comment lines (`# ...`) directly above the type.
    @SourceTrivia public var leadingComments: [String]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, name: Name, interfaces: [Name] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], leadingComments: [String] = [], location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.leadingComments = leadingComments
        self.location = location
    }
}

/// `FieldDefinition : Description? Name ArgumentsDefinition? : Type Directives?`
public struct FieldDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var type: TypeReference
    public var directives: [Directive]
    @SourceTrivia public var leadingComments: [String]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [], type: TypeReference,
        directives: [Directive] = [], leadingComments: [String] = [], location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.name = name
        self.arguments = arguments
        self.type = type
        self.directives = directives
        self.leadingComments = leadingComments
        self.location = location
    }
}

/// `InputValueDefinition : Description? Name : Type DefaultValue? Directives?`
public struct InputValueDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, name: Name, type: TypeReference, defaultValue: Value? = nil,
        directives: [Directive] = [], location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
        self.location = location
    }
}

/// `UnionTypeDefinition : Description? union Name Directives? UnionMemberTypes?`
public struct UnionTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var types: [Name]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], types: [Name] = [],
        location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.types = types
        self.location = location
    }
}

/// `EnumTypeDefinition : Description? enum Name Directives? EnumValuesDefinition?`
public struct EnumTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
    @SourceTrivia public var leadingComments: [String]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], values: [EnumValueDefinition] = [],
        leadingComments: [String] = [], location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.values = values
        self.leadingComments = leadingComments
        self.location = location
    }
}

/// `EnumValueDefinition : Description? EnumValue Directives?`
public struct EnumValueDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.location = location
    }
}

/// `InputObjectTypeDefinition : Description? input Name Directives? InputFieldsDefinition?`
public struct InputObjectTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var fields: [InputValueDefinition]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        fields: [InputValueDefinition] = [], location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.fields = fields
        self.location = location
    }
}

/// `DirectiveDefinition : Description? directive @ Name ArgumentsDefinition? repeatable? on DirectiveLocations`
public struct DirectiveDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var isRepeatable: Bool
    public var locations: [DirectiveLocation]
    public var location: NodeLocation

    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        isRepeatable: Bool = false, locations: [DirectiveLocation], location: NodeLocation = .synthesized
    ) {
        self.description = description
        self.name = name
        self.arguments = arguments
        self.isRepeatable = isRepeatable
        self.locations = locations
        self.location = location
    }
}

/// The places a directive may appear (`ExecutableDirectiveLocation` and `TypeSystemDirectiveLocation`).
public enum DirectiveLocation: String, Hashable, Sendable, CaseIterable {
    case query = "QUERY"
    case mutation = "MUTATION"
    case subscription = "SUBSCRIPTION"
    case field = "FIELD"
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    case fragmentSpread = "FRAGMENT_SPREAD"
    case inlineFragment = "INLINE_FRAGMENT"
    case variableDefinition = "VARIABLE_DEFINITION"
    case schema = "SCHEMA"
    case scalar = "SCALAR"
    case object = "OBJECT"
    case fieldDefinition = "FIELD_DEFINITION"
    case argumentDefinition = "ARGUMENT_DEFINITION"
    case interface = "INTERFACE"
    case union = "UNION"
    case `enum` = "ENUM"
    case enumValue = "ENUM_VALUE"
    case inputObject = "INPUT_OBJECT"
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
}
