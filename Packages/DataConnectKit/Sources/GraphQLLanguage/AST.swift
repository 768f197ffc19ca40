// The GraphQL abstract syntax tree (October 2021 spec, plus `repeatable` directives).
//
// Every node keeps the location of its first token and the name of its source file, so later
// phases (schema compilation, validation) report errors with a place. Equality of nodes
// ignores locations (see `ASTNode`), which is what printer round-trip tests compare.

/// Where a node starts: its file and the position of its first token.
public struct NodeLocation: Hashable, Sendable {
    /// The source's display name.
    public var file: String
    /// Position of the node's first token.
    public var start: SourceLocation

    /// Creates a node location.
    public init(file: String, start: SourceLocation) {
        self.file = file
        self.start = start
    }

    /// A placeholder for synthesized nodes.
    public static let synthesized = NodeLocation(file: "<generated>", start: SourceLocation(line: 0, column: 0))
}

/// A name with its location.
public struct Name: Hashable, Sendable, CustomStringConvertible {
    public var value: String
    public var location: NodeLocation

    public init(_ value: String, location: NodeLocation = .synthesized) {
        self.value = value
        self.location = location
    }

    public var description: String { value }

    public static func == (lhs: Name, rhs: Name) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

// MARK: - Document

/// A parsed document: executable definitions, type-system definitions and extensions, in order.
public struct Document: Hashable, Sendable {
    public var definitions: [Definition]

    public init(definitions: [Definition]) {
        self.definitions = definitions
    }

    /// The operations, in document order.
    public var operations: [OperationDefinition] {
        definitions.compactMap { if case .operation(let op) = $0 { op } else { nil } }
    }

    /// The fragments, in document order.
    public var fragments: [FragmentDefinition] {
        definitions.compactMap { if case .fragment(let f) = $0 { f } else { nil } }
    }
}

/// Any top-level definition.
public enum Definition: Hashable, Sendable {
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
    case schema(SchemaDefinition)
    case type(TypeDefinition)
    case directive(DirectiveDefinition)
    case schemaExtension(SchemaDefinition)
    case typeExtension(TypeDefinition)

    /// The location of the definition's first token.
    public var location: NodeLocation {
        switch self {
        case .operation(let d): d.location
        case .fragment(let d): d.location
        case .schema(let d), .schemaExtension(let d): d.location
        case .type(let d), .typeExtension(let d): d.location
        case .directive(let d): d.location
        }
    }
}

// MARK: - Executable definitions

/// `query`, `mutation` or `subscription`.
public enum OperationType: String, Hashable, Sendable {
    case query, mutation, subscription
}

/// `OperationDefinition : OperationType Name? VariableDefinitions? Directives? SelectionSet | SelectionSet`
public struct OperationDefinition: Hashable, Sendable {
    public var operation: OperationType
    public var name: Name?
    public var variables: [VariableDefinition]
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    /// The comment lines (`# ...`) directly above the operation, without the `#`; used for doc comments.
    public var leadingComments: [String]
    public var description: StringValue?
    public var location: NodeLocation

    public init(
        operation: OperationType, name: Name?, variables: [VariableDefinition] = [], directives: [Directive] = [],
        selectionSet: SelectionSet, leadingComments: [String] = [], description: StringValue? = nil,
        location: NodeLocation = .synthesized
    ) {
        self.operation = operation
        self.name = name
        self.variables = variables
        self.directives = directives
        self.selectionSet = selectionSet
        self.leadingComments = leadingComments
        self.description = description
        self.location = location
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.operation == rhs.operation && lhs.name == rhs.name && lhs.variables == rhs.variables
            && lhs.directives == rhs.directives && lhs.selectionSet == rhs.selectionSet
            && lhs.description == rhs.description
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(operation)
        hasher.combine(name)
    }
}

/// `VariableDefinition : Variable : Type DefaultValue? Directives?`
public struct VariableDefinition: Hashable, Sendable {
    public var name: Name
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
    public var leadingComments: [String]
    public var location: NodeLocation

    public init(
        name: Name, type: TypeReference, defaultValue: Value? = nil, directives: [Directive] = [],
        leadingComments: [String] = [], location: NodeLocation = .synthesized
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
        self.leadingComments = leadingComments
        self.location = location
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && lhs.defaultValue == rhs.defaultValue
            && lhs.directives == rhs.directives
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// `SelectionSet : { Selection+ }`
public struct SelectionSet: Hashable, Sendable {
    public var selections: [Selection]
    public var location: NodeLocation

    public init(selections: [Selection], location: NodeLocation = .synthesized) {
        self.selections = selections
        self.location = location
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.selections == rhs.selections }
    public func hash(into hasher: inout Hasher) { hasher.combine(selections) }
}

/// `Selection : Field | FragmentSpread | InlineFragment`
public enum Selection: Hashable, Sendable {
    case field(Field)
    case fragmentSpread(FragmentSpread)
    case inlineFragment(InlineFragment)

    public var location: NodeLocation {
        switch self {
        case .field(let f): f.location
        case .fragmentSpread(let f): f.location
        case .inlineFragment(let f): f.location
        }
    }
}

/// `Field : Alias? Name Arguments? Directives? SelectionSet?`
public struct Field: Hashable, Sendable {
    public var alias: Name?
    public var name: Name
    public var arguments: [Argument]
    public var directives: [Directive]
    public var selectionSet: SelectionSet?
    public var leadingComments: [String]
    public var location: NodeLocation

    public init(
        alias: Name? = nil, name: Name, arguments: [Argument] = [], directives: [Directive] = [],
        selectionSet: SelectionSet? = nil, leadingComments: [String] = [], location: NodeLocation = .synthesized
    ) {
        self.alias = alias
        self.name = name
        self.arguments = arguments
        self.directives = directives
        self.selectionSet = selectionSet
        self.leadingComments = leadingComments
        self.location = location
    }

    /// The key this field has in the response: its alias, else its name.
    public var responseKey: String { alias?.value ?? name.value }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.alias == rhs.alias && lhs.name == rhs.name && lhs.arguments == rhs.arguments
            && lhs.directives == rhs.directives && lhs.selectionSet == rhs.selectionSet
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(alias)
        hasher.combine(name)
    }
}

/// `Argument : Name : Value`
public struct Argument: Hashable, Sendable {
    public var name: Name
    public var value: Value
    public var location: NodeLocation

    public init(name: Name, value: Value, location: NodeLocation = .synthesized) {
        self.name = name
        self.value = value
        self.location = location
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name && lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// `FragmentSpread : ... FragmentName Directives?`
public struct FragmentSpread: Hashable, Sendable {
    public var name: Name
    public var directives: [Directive]
    public var location: NodeLocation

    public init(name: Name, directives: [Directive] = [], location: NodeLocation = .synthesized) {
        self.name = name
        self.directives = directives
        self.location = location
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name && lhs.directives == rhs.directives }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// `InlineFragment : ... TypeCondition? Directives? SelectionSet`
public struct InlineFragment: Hashable, Sendable {
    public var typeCondition: Name?
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var location: NodeLocation

    public init(
        typeCondition: Name? = nil, directives: [Directive] = [], selectionSet: SelectionSet,
        location: NodeLocation = .synthesized
    ) {
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.location = location
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.typeCondition == rhs.typeCondition && lhs.directives == rhs.directives
            && lhs.selectionSet == rhs.selectionSet
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(typeCondition) }
}

/// `FragmentDefinition : fragment FragmentName TypeCondition Directives? SelectionSet`
public struct FragmentDefinition: Hashable, Sendable {
    public var name: Name
    public var typeCondition: Name
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var location: NodeLocation

    public init(
        name: Name, typeCondition: Name, directives: [Directive] = [], selectionSet: SelectionSet,
        location: NodeLocation = .synthesized
    ) {
        self.name = name
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.location = location
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.typeCondition == rhs.typeCondition && lhs.directives == rhs.directives
            && lhs.selectionSet == rhs.selectionSet
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

// MARK: - Values

/// A string literal, remembering whether it was written as a block string.
public struct StringValue: Hashable, Sendable {
    public var value: String
    public var isBlock: Bool
    public var location: NodeLocation

    public init(_ value: String, isBlock: Bool = false, location: NodeLocation = .synthesized) {
        self.value = value
        self.isBlock = isBlock
        self.location = location
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// `Value[Const]`: a literal or (outside const contexts) a variable.
public indirect enum Value: Hashable, Sendable {
    case variable(Name)
    /// The literal's source text, e.g. `-12`.
    case int(String, NodeLocation)
    /// The literal's source text, e.g. `1.5e3`.
    case float(String, NodeLocation)
    case string(StringValue)
    case boolean(Bool, NodeLocation)
    case null(NodeLocation)
    case `enum`(Name)
    case list([Value], NodeLocation)
    case object([ObjectField], NodeLocation)

    public var location: NodeLocation {
        switch self {
        case .variable(let n), .enum(let n): n.location
        case .int(_, let l), .float(_, let l), .boolean(_, let l), .null(let l), .list(_, let l), .object(_, let l): l
        case .string(let s): s.location
        }
    }

    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.variable(let a), .variable(let b)): a == b
        case (.int(let a, _), .int(let b, _)): a == b
        case (.float(let a, _), .float(let b, _)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.boolean(let a, _), .boolean(let b, _)): a == b
        case (.null, .null): true
        case (.enum(let a), .enum(let b)): a == b
        case (.list(let a, _), .list(let b, _)): a == b
        case (.object(let a, _), .object(let b, _)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .variable(let n): hasher.combine(0); hasher.combine(n)
        case .int(let s, _): hasher.combine(1); hasher.combine(s)
        case .float(let s, _): hasher.combine(2); hasher.combine(s)
        case .string(let s): hasher.combine(3); hasher.combine(s)
        case .boolean(let b, _): hasher.combine(4); hasher.combine(b)
        case .null: hasher.combine(5)
        case .enum(let n): hasher.combine(6); hasher.combine(n)
        case .list(let l, _): hasher.combine(7); hasher.combine(l)
        case .object(let o, _): hasher.combine(8); hasher.combine(o)
        }
    }
}

/// `ObjectField : Name : Value`
public struct ObjectField: Hashable, Sendable {
    public var name: Name
    public var value: Value
    public var location: NodeLocation

    public init(name: Name, value: Value, location: NodeLocation = .synthesized) {
        self.name = name
        self.value = value
        self.location = location
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name && lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

// MARK: - Types

/// `Type : NamedType | ListType | NonNullType`
public indirect enum TypeReference: Hashable, Sendable, CustomStringConvertible {
    case named(Name)
    case list(TypeReference, NodeLocation)
    case nonNull(TypeReference, NodeLocation)

    /// The innermost named type.
    public var namedType: Name {
        switch self {
        case .named(let n): n
        case .list(let t, _), .nonNull(let t, _): t.namedType
        }
    }

    /// Whether the outermost wrapper is non-null.
    public var isNonNull: Bool { if case .nonNull = self { true } else { false } }

    /// The type without its outermost non-null wrapper.
    public var nullable: TypeReference { if case .nonNull(let t, _) = self { t } else { self } }

    /// Whether the type (ignoring an outer non-null) is a list.
    public var isList: Bool { if case .list = nullable { true } else { false } }

    public var location: NodeLocation {
        switch self {
        case .named(let n): n.location
        case .list(_, let l), .nonNull(_, let l): l
        }
    }

    /// GraphQL notation: `[String!]!`.
    public var description: String {
        switch self {
        case .named(let n): n.value
        case .list(let t, _): "[\(t)]"
        case .nonNull(let t, _): "\(t)!"
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.named(let a), .named(let b)): a == b
        case (.list(let a, _), .list(let b, _)): a == b
        case (.nonNull(let a, _), .nonNull(let b, _)): a == b
        default: false
        }
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

// MARK: - Directives

/// `Directive : @ Name Arguments?`
public struct Directive: Hashable, Sendable {
    public var name: Name
    public var arguments: [Argument]
    public var location: NodeLocation

    public init(name: Name, arguments: [Argument] = [], location: NodeLocation = .synthesized) {
        self.name = name
        self.arguments = arguments
        self.location = location
    }

    /// The value of the named argument, if given.
    public func argument(_ name: String) -> Argument? { arguments.first { $0.name.value == name } }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name && lhs.arguments == rhs.arguments }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension Array where Element == Directive {
    /// The first directive with this name.
    public func first(named name: String) -> Directive? { first { $0.name.value == name } }
    /// All directives with this name (for `repeatable` directives).
    public func all(named name: String) -> [Directive] { filter { $0.name.value == name } }
}

// MARK: - Type system definitions

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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.directives == rhs.directives
            && lhs.operationTypes == rhs.operationTypes
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(operationTypes) }
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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.name == rhs.name && lhs.directives == rhs.directives
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
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
    public var leadingComments: [String]
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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.name == rhs.name && lhs.interfaces == rhs.interfaces
            && lhs.directives == rhs.directives && lhs.fields == rhs.fields
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// `FieldDefinition : Description? Name ArgumentsDefinition? : Type Directives?`
public struct FieldDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var type: TypeReference
    public var directives: [Directive]
    public var leadingComments: [String]
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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.name == rhs.name && lhs.arguments == rhs.arguments
            && lhs.type == rhs.type && lhs.directives == rhs.directives
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.name == rhs.name && lhs.type == rhs.type
            && lhs.defaultValue == rhs.defaultValue && lhs.directives == rhs.directives
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.name == rhs.name && lhs.directives == rhs.directives
            && lhs.types == rhs.types
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// `EnumTypeDefinition : Description? enum Name Directives? EnumValuesDefinition?`
public struct EnumTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
    public var leadingComments: [String]
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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.name == rhs.name && lhs.directives == rhs.directives
            && lhs.values == rhs.values
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.name == rhs.name && lhs.directives == rhs.directives
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.name == rhs.name && lhs.directives == rhs.directives
            && lhs.fields == rhs.fields
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
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

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.description == rhs.description && lhs.name == rhs.name && lhs.arguments == rhs.arguments
            && lhs.isRepeatable == rhs.isRepeatable && lhs.locations == rhs.locations
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
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
