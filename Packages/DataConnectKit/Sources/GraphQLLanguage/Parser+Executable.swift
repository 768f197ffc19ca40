// Executable definitions: operations, variables, selection sets and fragments.

extension Parser {
    /// OperationDefinition :
    ///   - Description? OperationType Name? VariablesDefinition? Directives? SelectionSet
    ///   - SelectionSet
    ///
    /// `first` is the definition's first token (its description, when it has one), which also
    /// carries the comment lines above it.
    mutating func parseOperationDefinition(
        description: StringValue?, first: Token
    ) throws(SyntaxError) -> OperationDefinition {
        let comments = lexer.leadingComments(of: first)
        if token.kind == .braceL {
            let selectionSet = try parseSelectionSet()
            return OperationDefinition(
                operation: .query, name: nil, selectionSet: selectionSet, leadingComments: comments,
                location: location(first)
            )
        }
        let operation = try parseOperationType()
        let name = token.kind == .name ? try parseName() : nil
        let variables = try parseVariableDefinitions()
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return OperationDefinition(
            operation: operation, name: name, variables: variables, directives: directives,
            selectionSet: selectionSet, leadingComments: comments, description: description, location: location(first)
        )
    }

    /// OperationType : one of `query` `mutation` `subscription`
    mutating func parseOperationType() throws(SyntaxError) -> OperationType {
        let operation: OperationType
        if at("query") {
            operation = .query
        } else if at("mutation") {
            operation = .mutation
        } else if at("subscription") {
            operation = .subscription
        } else {
            throw unexpected(token)
        }
        try advance()
        return operation
    }

    /// VariablesDefinition : ( VariableDefinition+ )
    mutating func parseVariableDefinitions() throws(SyntaxError) -> [VariableDefinition] {
        guard try skip(.parenL) else { return [] }
        var variables: [VariableDefinition] = []
        repeat {
            variables.append(try parseVariableDefinition())
        } while try !skip(.parenR)
        return variables
    }

    /// VariableDefinition : Variable : Type DefaultValue? Directives[Const]?
    ///
    /// DefaultValue : = Value[Const]
    mutating func parseVariableDefinition() throws(SyntaxError) -> VariableDefinition {
        let first = token
        let comments = lexer.leadingComments(of: first)
        let name = try parseVariable()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try skip(.equals) ? try parseValue(isConst: true) : nil
        let directives = try parseDirectives(isConst: true)
        return VariableDefinition(
            name: name, type: type, defaultValue: defaultValue, directives: directives, leadingComments: comments,
            location: location(first)
        )
    }

    /// Variable : $ Name
    ///
    /// The returned name is located at the `$`.
    mutating func parseVariable() throws(SyntaxError) -> Name {
        let dollar = try expect(.dollar)
        var name = try parseName()
        name.location = location(dollar)
        return name
    }

    /// SelectionSet : { Selection+ }
    ///
    /// Selection : Field | FragmentSpread | InlineFragment
    ///
    /// Field : Alias? Name Arguments? Directives? SelectionSet?
    ///
    /// FragmentSpread : ... FragmentName Directives?
    ///
    /// InlineFragment : ... TypeCondition? Directives? SelectionSet
    ///
    /// Nested selection sets are parsed with an explicit stack rather than by recursion, so deep
    /// nesting costs heap, not call stack.
    mutating func parseSelectionSet() throws(SyntaxError) -> SelectionSet {
        var stack: [OpenSelectionSet] = []
        var current = try openSelectionSet(owner: .none)
        while true {
            if token.kind == .braceR && !current.selections.isEmpty {
                try advance()
                depth -= 1
                let selectionSet = SelectionSet(selections: current.selections, location: current.location)
                guard var parent = stack.popLast() else { return selectionSet }
                switch current.owner {
                case .field(var field):
                    field.selectionSet = selectionSet
                    parent.selections.append(.field(field))
                case .inlineFragment(var fragment):
                    fragment.selectionSet = selectionSet
                    parent.selections.append(.inlineFragment(fragment))
                case .none:
                    break
                }
                current = parent
            } else if token.kind == .spread {
                let spread = try expect(.spread)
                if token.kind == .name && !at("on") {
                    current.selections.append(.fragmentSpread(try parseFragmentSpread(first: spread)))
                } else {
                    let fragment = try parseInlineFragmentHead(first: spread)
                    stack.append(current)
                    current = try openSelectionSet(owner: .inlineFragment(fragment))
                }
            } else {
                let field = try parseFieldHead()
                if token.kind == .braceL {
                    stack.append(current)
                    current = try openSelectionSet(owner: .field(field))
                } else {
                    current.selections.append(.field(field))
                }
            }
        }
    }

    /// Consumes a `{` and enters one level of nesting.
    private mutating func openSelectionSet(owner: OpenSelectionSet.Owner) throws(SyntaxError) -> OpenSelectionSet {
        let first = token
        try expect(.braceL)
        try enterNesting(at: first)
        return OpenSelectionSet(owner: owner, selections: [], location: location(first))
    }

    /// Field without its selection set: Alias? Name Arguments? Directives?
    ///
    /// Alias : Name :
    mutating func parseFieldHead() throws(SyntaxError) -> Field {
        let first = token
        let comments = lexer.leadingComments(of: first)
        let nameOrAlias = try parseName()
        var alias: Name?
        let name: Name
        if try skip(.colon) {
            alias = nameOrAlias
            name = try parseName()
        } else {
            name = nameOrAlias
        }
        let arguments = try parseArguments(isConst: false)
        let directives = try parseDirectives(isConst: false)
        return Field(
            alias: alias, name: name, arguments: arguments, directives: directives, leadingComments: comments,
            location: location(first)
        )
    }

    /// FragmentSpread without its `...` token `first`: FragmentName Directives?
    mutating func parseFragmentSpread(first: Token) throws(SyntaxError) -> FragmentSpread {
        let name = try parseName()
        let directives = try parseDirectives(isConst: false)
        return FragmentSpread(name: name, directives: directives, location: location(first))
    }

    /// InlineFragment without its `...` token `first` and its selection set: TypeCondition? Directives?
    ///
    /// TypeCondition : on NamedType
    mutating func parseInlineFragmentHead(first: Token) throws(SyntaxError) -> InlineFragment {
        var typeCondition: Name?
        if at("on") {
            try advance()
            typeCondition = try parseName()
        }
        let directives = try parseDirectives(isConst: false)
        return InlineFragment(
            typeCondition: typeCondition, directives: directives, selectionSet: SelectionSet(selections: []),
            location: location(first)
        )
    }

    /// FragmentDefinition : fragment FragmentName TypeCondition Directives? SelectionSet
    ///
    /// TypeCondition : on NamedType
    mutating func parseFragmentDefinition() throws(SyntaxError) -> FragmentDefinition {
        let first = token
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
        let typeCondition = try parseName()
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return FragmentDefinition(
            name: name, typeCondition: typeCondition, directives: directives, selectionSet: selectionSet,
            location: location(first)
        )
    }

    /// FragmentName : Name but not `on`
    mutating func parseFragmentName() throws(SyntaxError) -> Name {
        if at("on") { throw unexpected(token) }
        return try parseName()
    }
}

/// A selection set whose `}` has not been read yet, and the field or inline fragment it belongs to.
struct OpenSelectionSet {
    enum Owner {
        case none
        case field(Field)
        case inlineFragment(InlineFragment)
    }

    var owner: Owner
    var selections: [Selection]
    var location: NodeLocation
}
