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
    @SourceTrivia public var leadingComments: [String]
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
}

/// `VariableDefinition : Variable : Type DefaultValue? Directives?`
public struct VariableDefinition: Hashable, Sendable {
    public var name: Name
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
    @SourceTrivia public var leadingComments: [String]
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
}
