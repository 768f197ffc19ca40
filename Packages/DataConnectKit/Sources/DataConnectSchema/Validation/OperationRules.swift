import GraphQLLanguage

extension OperationValidator {
    /// Rule: each operation's variables, directives, root type and selections are valid; every variable is
    /// defined, used, and compatible with its positions.
    mutating func checkOperation(_ operation: OperationDefinition) {
        let name = operation.name?.value ?? "<anonymous>"
        let rootType: String
        let location: DirectiveLocation
        switch operation.operation {
        case .query:
            rootType = system.queryType
            location = .query
        case .mutation:
            rootType = system.mutationType
            location = .mutation
        case .subscription:
            error(
                "subscription operations are not supported: declare a query and subscribe to it from the SDK",
                at: operation.location)
            return
        }
        checkDirectives(operation.directives, at: location)
        if mode == .connector && operation.directives.first(named: "auth") == nil {
            warning(
                "operation \"\(name)\" has no @auth directive, so it defaults to NO_ACCESS and only admin calls may run it; add @auth(level: ...)",
                at: operation.name?.location ?? operation.location)
        }
        // Variables.
        var defined: [String: VariableDefinition] = [:]
        var badlyTyped: Set<String> = []
        for variable in operation.variables {
            if defined[variable.name.value] != nil {
                error("there can be only one variable named \"$\(variable.name.value)\"", at: variable.location)
                continue
            }
            defined[variable.name.value] = variable
            if !checkVariableDefinition(variable) { badlyTyped.insert(variable.name.value) }
        }
        // Selections.
        currentUsages = []
        currentSpreads = []
        checkSelectionSet(operation.selectionSet, parentType: rootType, isRoot: true)
        checkFieldMerging(operation)
        checkChecksNeedTransaction(operation)
        var usages = currentUsages
        for fragment in transitiveFragments(of: operation.selectionSet) {
            usages += fragmentUsages[fragment] ?? []
        }
        var used: Set<String> = []
        for usage in usages {
            used.insert(usage.name)
            guard let variable = defined[usage.name] else {
                error("variable \"$\(usage.name)\" is not defined by operation \"\(name)\"", at: usage.location)
                continue
            }
            if !badlyTyped.contains(usage.name) && !isCompatible(variable: variable, usage: usage) {
                error(
                    "variable \"$\(usage.name)\" of type \"\(variable.type)\" used in position expecting type \"\(usage.expectedType)\"",
                    at: usage.location)
            }
        }
        used.formUnion(mentionedInConstants)
        mentionedInConstants = []
        for variable in operation.variables where !used.contains(variable.name.value) {
            error("variable \"$\(variable.name.value)\" is never used in operation \"\(name)\"", at: variable.location)
        }
    }

    /// Rule: a variable's type is a known input type that may be used for variables, and its default fits it.
    ///
    /// - Returns: whether the type is usable (its usages are then checked against it).
    @discardableResult
    mutating func checkVariableDefinition(_ variable: VariableDefinition) -> Bool {
        checkDirectives(variable.directives, at: .variableDefinition)
        let typeName = variable.type.namedType.value
        guard let type = system.type(named: typeName) else {
            let candidates = system.typeOrder.filter {
                system.isInputType($0)
                    && system.type(named: $0)?.directives.first(named: "fdc_forbiddenAsVariableType") == nil
            }
            error(
                "unknown type \"\(typeName)\"\(Suggestions.didYouMean(typeName, among: candidates))",
                at: variable.type.namedType.location)
            return false
        }
        guard system.isInputType(typeName) else {
            error(
                "variable \"$\(variable.name.value)\" cannot be of non-input type \"\(variable.type)\"",
                at: variable.type.location)
            return false
        }
        if type.directives.first(named: "fdc_forbiddenAsVariableType") != nil {
            error(
                "variable \"$\(variable.name.value)\" cannot be of type \"\(typeName)\": it may only be written as a literal in the operation",
                at: variable.type.location)
            return false
        }
        if let defaultValue = variable.defaultValue {
            var checker = ValueChecker(system: system, allowVariables: false)
            checker.check(defaultValue, against: variable.type)
            diagnostics += checker.diagnostics
        }
        return true
    }

    /// The spec's `AreTypesCompatible` with the allowance for defaults (§5.8.5).
    func isCompatible(variable: VariableDefinition, usage: VariableUsage) -> Bool {
        // A native SQL parameter (an element of `params: SQL_Params`) takes a variable of any type.
        if usage.expectedType.namedType.value == "SQL_Params" { return true }
        var variableType = variable.type
        let expected = usage.expectedType
        if expected.isNonNull && !variableType.isNonNull {
            let hasNonNullDefault: Bool
            if let value = variable.defaultValue, case .null = value {
                hasNonNullDefault = false
            } else {
                hasNonNullDefault = variable.defaultValue != nil
            }
            guard hasNonNullDefault || usage.positionHasDefault else { return false }
            variableType = .nonNull(variableType, .synthesized)
        }
        return Self.areTypesCompatible(variableType, expected)
    }

    static func areTypesCompatible(_ variable: TypeReference, _ expected: TypeReference) -> Bool {
        switch (variable, expected) {
        case (.nonNull(let v, _), .nonNull(let e, _)): return areTypesCompatible(v, e)
        case (_, .nonNull): return false
        case (.nonNull(let v, _), _): return areTypesCompatible(v, expected)
        case (.list(let v, _), .list(let e, _)): return areTypesCompatible(v, e)
        case (_, .list(let e, _)):
            // A single value is coerced to a one-element list.
            if case .list = variable { return false }
            return areTypesCompatible(variable, e.nullable)
        case (.list, _): return false
        case (.named(let v), .named(let e)): return v.value == e.value
        }
    }

    // MARK: - Selections

    /// Rule: fields exist on their parent type, with valid arguments and directives; leaf fields have no
    /// selection set and composite fields have one; fragments spread where they can apply.
    mutating func checkSelectionSet(_ selectionSet: SelectionSet, parentType: String, isRoot: Bool = false) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                checkField(field, parentType: parentType, isRoot: isRoot)
            case .fragmentSpread(let spread):
                checkDirectives(spread.directives, at: .fragmentSpread)
                currentSpreads.insert(spread.name.value)
                guard let fragment = fragments[spread.name.value] else {
                    error(
                        "unknown fragment \"\(spread.name.value)\"\(Suggestions.didYouMean(spread.name.value, among: Array(fragments.keys)))",
                        at: spread.location)
                    continue
                }
                if system.type(named: fragment.typeCondition.value) != nil {
                    checkApplicable(
                        fragment.typeCondition.value, parentType: parentType,
                        what: "fragment \"\(spread.name.value)\"", at: spread.location)
                }
            case .inlineFragment(let inline):
                checkDirectives(inline.directives, at: .inlineFragment)
                var typeName = parentType
                if let condition = inline.typeCondition {
                    guard system.type(named: condition.value) != nil else {
                        error("unknown type \"\(condition.value)\"", at: condition.location)
                        continue
                    }
                    guard system.isComposite(condition.value) else {
                        error(
                            "fragment cannot condition on non-composite type \"\(condition.value)\"",
                            at: condition.location)
                        continue
                    }
                    checkApplicable(condition.value, parentType: parentType, what: "fragment", at: inline.location)
                    typeName = condition.value
                }
                checkSelectionSet(inline.selectionSet, parentType: typeName, isRoot: isRoot)
            }
        }
    }

    mutating func checkApplicable(_ typeCondition: String, parentType: String, what: String, at location: NodeLocation)
    {
        let a = system.possibleTypes(of: typeCondition)
        let b = system.possibleTypes(of: parentType)
        if a.isDisjoint(with: b) {
            error(
                "\(what) cannot be spread here as objects of type \"\(parentType)\" can never be of type \"\(typeCondition)\"",
                at: location)
        }
    }

    mutating func checkField(_ field: Field, parentType: String, isRoot: Bool) {
        checkDirectives(field.directives, at: .field)
        if field.name.value == "__typename" {
            if !field.arguments.isEmpty {
                error(
                    "unknown argument \"\(field.arguments[0].name.value)\" on field \"__typename\"",
                    at: field.arguments[0].location)
            }
            if let set = field.selectionSet {
                error(
                    "field \"__typename\" must not have a selection set since type \"String!\" has no subfields",
                    at: set.location)
            }
            return
        }
        guard let definition = system.field(field.name.value, on: parentType) else {
            let candidates = system.fields(of: parentType).map(\.name.value)
            error(
                "cannot query field \"\(field.name.value)\" on type \"\(parentType)\"\(Suggestions.didYouMean(field.name.value, among: candidates))",
                at: field.name.location)
            return
        }
        var checker = ValueChecker(system: system, allowVariables: true)
        checker.checkArguments(
            field.arguments, definitions: definition.arguments, owner: "field \"\(field.name.value)\"",
            at: field.location)
        diagnostics += checker.diagnostics
        currentUsages += checker.usages
        checkManyMutationGuard(field, parentType: parentType)
        checkUpdateTransforms(field, parentType: parentType)
        checkNativeSQL(field, parentType: parentType)
        let typeName = definition.type.namedType.value
        if system.isLeaf(typeName) {
            if let set = field.selectionSet {
                let hint =
                    typeName.hasSuffix("_KeyOutput")
                    ? " (a mutation field returns the key of the row it wrote; remove the braces)" : ""
                error(
                    "field \"\(field.name.value)\" must not have a selection set since type \"\(definition.type)\" has no subfields\(hint)",
                    at: set.location)
            }
        } else if let set = field.selectionSet {
            if set.selections.isEmpty {
                error("field \"\(field.name.value)\" must select at least one field", at: set.location)
            }
            checkSelectionSet(set, parentType: typeName)
        } else {
            error(
                "field \"\(field.name.value)\" of type \"\(definition.type)\" must have a selection of subfields; did you mean \"\(field.name.value) { ... }\"?",
                at: field.location)
        }
    }

    /// Rule: `updateMany` and `deleteMany` name their rows with `where`, or say `all: true`.
    mutating func checkManyMutationGuard(_ field: Field, parentType: String) {
        guard let role = api.role(of: field.name.value, on: parentType) else { return }
        switch role {
        case .updateMany, .deleteMany:
            let hasWhere = field.arguments.contains { $0.name.value == "where" }
            var allTrue = false
            if let all = field.arguments.first(where: { $0.name.value == "all" }) {
                switch all.value {
                case .boolean(let b, _): allTrue = b
                case .variable: allTrue = true
                default: break
                }
            }
            if !hasWhere && !allTrue {
                error(
                    "\"\(field.name.value)\" affects rows matching `where`; give `where`, or `all: true` to affect every row",
                    at: field.location)
            }
        default:
            break
        }
    }

    // MARK: - Directives

    /// Rule: directives are known, allowed at their location, not repeated unless repeatable, and their
    /// arguments are valid.
    mutating func checkDirectives(_ directives: [Directive], at location: DirectiveLocation) {
        var seen: Set<String> = []
        for directive in directives {
            let name = directive.name.value
            guard let definition = system.directives[name] else {
                let known = system.directives.values.filter { $0.locations.contains(location) }.map {
                    "@" + $0.name.value
                }
                error(
                    "unknown directive \"@\(name)\"\(Suggestions.didYouMean("@" + name, among: known))",
                    at: directive.location)
                continue
            }
            guard definition.locations.contains(location) else {
                let allowed = definition.locations.map(\.rawValue).joined(separator: ", ")
                error(
                    "directive \"@\(name)\" may not be used on \(location.rawValue) (allowed on \(allowed))",
                    at: directive.location)
                continue
            }
            if !definition.isRepeatable && !seen.insert(name).inserted {
                error("the directive \"@\(name)\" can only be used once at this location", at: directive.location)
            }
            var checker = ValueChecker(system: system, allowVariables: location != .query && location != .mutation)
            checker.checkArguments(
                directive.arguments, definitions: definition.arguments, owner: "directive \"@\(name)\"",
                at: directive.location)
            diagnostics += checker.diagnostics
            currentUsages += checker.usages
            mentionedInConstants.formUnion(checker.disallowedVariables)
        }
    }

    /// Rule: a `@check` on a root field that writes needs `@transaction` on the mutation, so that a failed
    /// check can roll the write back.
    mutating func checkChecksNeedTransaction(_ operation: OperationDefinition) {
        guard operation.operation == .mutation, operation.directives.first(named: "transaction") == nil else { return }
        for case .field(let field) in operation.selectionSet.selections {
            guard let check = field.directives.first(named: "check") else { continue }
            if api.role(of: field.name.value, on: system.mutationType) == .mutationQuery { continue }
            error(
                "@check on \"\(field.responseKey)\" needs @transaction on the mutation, so a failed check can roll the write back",
                at: check.location)
        }
    }
}
