/// `SelectionSet : { Selection+ }`
public struct SelectionSet: Hashable, Sendable {
    public var selections: [Selection]
    public var location: NodeLocation

    public init(selections: [Selection], location: NodeLocation = .synthesized) {
        self.selections = selections
        self.location = location
    }
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
    @SourceTrivia public var leadingComments: [String]
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
}

extension SelectionSet {
    /// The names of the fragments spread in this selection set, its fields' selections and its inline fragments
    /// (not those the spread fragments spread in turn).
    public var fragmentSpreadNames: Set<String> {
        var result: Set<String> = []
        var pending = [self]
        while let set = pending.popLast() {
            for selection in set.selections {
                switch selection {
                case .field(let field): if let inner = field.selectionSet { pending.append(inner) }
                case .fragmentSpread(let spread): result.insert(spread.name.value)
                case .inlineFragment(let inline): pending.append(inline.selectionSet)
                }
            }
        }
        return result
    }
}
