import GraphQLLanguage

/// Builds a ``MergedSelection``: CollectFields (§6.3.2) over each merged selection set, parents before
/// children, without recursion.
///
/// The fields of one merged selection set are collected from every selection set merged into it (the
/// operation's, or those of every selection of one response key), looking through inline fragments and
/// fragment spreads with one explicit stack, so neither long fragment chains nor deep nesting can exhaust
/// the call stack. Only then are the new fields' own merged selection sets collected.
struct FieldCollector {
    /// What enclosing selections impose on the selections of a selection set.
    struct Context {
        /// The `@skip`/`@include` conditions from the operation down, without repeats.
        var conditions: [InclusionCondition] = []
        /// The `@check` directives of the fragments the selections are made through, without repeats.
        var checks: [Directive] = []
        /// Whether one of those fragments is `@redact`ed.
        var isRedacted = false

        /// The context with the directives of a fragment, spread or field added.
        func adding(_ directives: [Directive]) -> Context {
            var result = self
            for directive in directives {
                switch directive.name.value {
                case "skip", "include":
                    guard let value = directive.argument("if")?.value else { continue }
                    let condition = InclusionCondition(include: directive.name.value == "include", value: value)
                    if !result.conditions.contains(condition) { result.conditions.append(condition) }
                case "check":
                    if !result.checks.contains(directive) { result.checks.append(directive) }
                case "redact":
                    result.isRedacted = true
                default:
                    continue
                }
            }
            return result
        }

        /// Whether selections made under this context are already made under `other`: `other` needs no
        /// more conditions and carries every check and redaction this one does.
        func isCovered(by other: Context) -> Bool {
            other.conditions.allSatisfy(conditions.contains) && checks.allSatisfy(other.checks.contains)
                && (!isRedacted || other.isRedacted)
        }
    }

    /// A selection set merged into a field's sub-selection, with the conditions of the selection it
    /// belongs to.
    struct PendingSelectionSet {
        let selectionSet: SelectionSet
        let conditions: [InclusionCondition]
    }

    /// A response key within a merged selection set (`parent` -1 for the roots).
    struct FieldKey: Hashable {
        let parent: Int
        let responseKey: String
    }

    /// A merged field's set of conditions, compared without regard to order.
    struct ConditionSetKey: Hashable {
        let field: Int
        let conditions: Set<InclusionCondition>
    }

    /// A merged field's `@check`, hashed by its arguments as well as its name.
    struct CheckKey: Hashable {
        let field: Int
        let check: Directive

        func hash(into hasher: inout Hasher) {
            hasher.combine(field)
            for argument in check.arguments {
                hasher.combine(argument.name)
                hasher.combine(argument.value)
            }
        }
    }

    /// How many earlier spreads of a fragment a spread is compared with before it is expanded again.
    ///
    /// Expanding a spread that an earlier one covers changes nothing but the work, which
    /// ``OperationLimits/maxCollectedSelections`` bounds.
    static let coverageWindow = 16

    let fragments: [String: FragmentDefinition]
    let limits: OperationLimits
    var selection = MergedSelection()
    var fieldIndexes: [FieldKey: Int] = [:]
    var conditionSets: Set<ConditionSetKey> = []
    var checks: Set<CheckKey> = []
    var reported: Set<Diagnostic> = []
    /// Per merged field, the selection sets its sub-fields are collected from.
    var pending: [[PendingSelectionSet]] = []
    var aliases = 0
    var visitedSelections = 0

    init(fragments: [String: FragmentDefinition], limits: OperationLimits) {
        self.fragments = fragments
        self.limits = limits
    }

    /// Collects an operation's selection set, then every merged field's sub-selection, depth first.
    mutating func collect(_ selectionSet: SelectionSet) {
        collect([PendingSelectionSet(selectionSet: selectionSet, conditions: [])], into: nil, depth: 1)
        var stack = Array(selection.roots.reversed())
        while selection.isComplete, let index = stack.popLast() {
            let sources = pending[index]
            pending[index] = []
            collect(sources, into: index, depth: selection.fields[index].depth + 1)
            stack += selection.fields[index].children.reversed()
        }
    }

    /// CollectFields over the selection sets merged into one: fields go under `parent` (the roots when
    /// `nil`), each fragment is expanded once per context that adds something, and the fields' own
    /// selection sets are set aside for their merged sub-selection.
    mutating func collect(_ sources: [PendingSelectionSet], into parent: Int?, depth: Int) {
        var expanded: [String: [Context]] = [:]
        for source in sources {
            var stack: [(selections: [Selection], next: Int, context: Context)] = [
                (source.selectionSet.selections, 0, Context(conditions: source.conditions))
            ]
            while let top = stack.last {
                guard top.next < top.selections.count else {
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let item = top.selections[top.next]
                guard visit(item) else { return }
                switch item {
                case .field(let field):
                    guard merge(field, context: top.context.adding(field.directives), into: parent, depth: depth)
                    else { return }
                case .inlineFragment(let inline):
                    stack.append((inline.selectionSet.selections, 0, top.context.adding(inline.directives)))
                case .fragmentSpread(let spread):
                    guard let fragment = fragments[spread.name.value] else { continue }
                    let context = top.context.adding(spread.directives + fragment.directives)
                    let earlier = expanded[spread.name.value, default: []]
                    if earlier.suffix(Self.coverageWindow).contains(where: context.isCovered(by:)) { continue }
                    expanded[spread.name.value, default: []].append(context)
                    stack.append((fragment.selectionSet.selections, 0, context))
                }
            }
        }
    }

    /// Adds one selection of a field to the merged field of its response key.
    ///
    /// - Returns: `false` when a limit stopped collection.
    mutating func merge(_ field: Field, context: Context, into parent: Int?, depth: Int) -> Bool {
        let key = FieldKey(parent: parent ?? -1, responseKey: field.responseKey)
        let index: Int
        if let existing = fieldIndexes[key] {
            if let conflict = Self.conflict(between: selection.fields[existing].field, and: field) {
                report(conflict, at: field.location)
                return true
            }
            index = existing
        } else {
            guard admit(field, depth: depth) else { return false }
            index = selection.fields.count
            selection.fields.append(MergedField(field: field, depth: depth))
            pending.append([])
            fieldIndexes[key] = index
            if let parent {
                selection.fields[parent].children.append(index)
            } else {
                selection.roots.append(index)
            }
        }
        if conditionSets.insert(ConditionSetKey(field: index, conditions: Set(context.conditions))).inserted {
            selection.fields[index].conditionSets.append(context.conditions)
        }
        for check in context.checks where checks.insert(CheckKey(field: index, check: check)).inserted {
            selection.fields[index].checks.append(check)
        }
        if context.isRedacted { selection.fields[index].isRedacted = true }
        if let selectionSet = field.selectionSet {
            selection.fields[index].hasSelectionSet = true
            pending[index].append(PendingSelectionSet(selectionSet: selectionSet, conditions: context.conditions))
        }
        return true
    }

    // MARK: - Limits

    /// Counts a visited selection against ``OperationLimits/maxCollectedSelections``.
    mutating func visit(_ visited: Selection) -> Bool {
        visitedSelections += 1
        guard visitedSelections <= limits.maxCollectedSelections else {
            let limit = limits.maxCollectedSelections
            return stop(
                "the operation has more than \(limit) selections once its fragments are expanded (limit maxCollectedSelections = \(limit))",
                at: visited.location)
        }
        return true
    }

    /// Checks a new merged field against the size, depth and alias limits.
    mutating func admit(_ field: Field, depth: Int) -> Bool {
        if selection.fields.count >= limits.maxSelectedFields {
            let limit = limits.maxSelectedFields
            return stop(
                "the operation selects more than \(limit) fields (limit maxSelectedFields = \(limit))",
                at: field.location)
        }
        if depth > limits.maxDepth {
            let limit = limits.maxDepth
            return stop(
                "the operation nests fields more than \(limit) levels deep (limit maxDepth = \(limit))",
                at: field.location)
        }
        if field.responseKey != field.name.value {
            aliases += 1
            if aliases > limits.maxAliases {
                let limit = limits.maxAliases
                return stop(
                    "the operation uses more than \(limit) aliases (limit maxAliases = \(limit))", at: field.location)
            }
        }
        return true
    }

    mutating func stop(_ message: String, at location: NodeLocation) -> Bool {
        report(message, at: location)
        selection.isComplete = false
        return false
    }

    mutating func report(_ message: String, at location: NodeLocation) {
        let diagnostic = Diagnostic(file: location.file, location: location.start, message: message)
        if reported.insert(diagnostic).inserted { selection.diagnostics.append(diagnostic) }
    }

    // MARK: - Field merging (§5.3.2)

    /// Why two fields under one response key cannot be merged, or `nil` when they can.
    static func conflict(between first: Field, and other: Field) -> String? {
        let key = other.responseKey
        if first.name.value != other.name.value {
            return
                "fields \"\(key)\" conflict because \"\(first.name.value)\" and \"\(other.name.value)\" are different fields; use different aliases"
        }
        if !sameMembers(
            first.arguments.map { ($0.name.value, $0.value) }, other.arguments.map { ($0.name.value, $0.value) })
        {
            return "fields \"\(key)\" conflict because they have differing arguments; use different aliases"
        }
        return nil
    }

    /// Whether two argument lists or object values have the same members, in any order.
    static func sameMembers(_ a: [(name: String, value: Value)], _ b: [(name: String, value: Value)]) -> Bool {
        guard a.count == b.count else { return false }
        let byName = Dictionary(b.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard byName.count == b.count, Set(a.map(\.name)).count == a.count else {
            // A repeated name (reported by other rules): compare as written.
            return a.elementsEqual(b) { $0.name == $1.name && sameValue($0.value, $1.value) }
        }
        return a.allSatisfy { member in byName[member.name].map { sameValue(member.value, $0) } ?? false }
    }

    /// Whether two values are equal, input object fields compared in any order.
    static func sameValue(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.list(let x, _), .list(let y, _)):
            return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
        case (.object(let x, _), .object(let y, _)):
            return sameMembers(x.map { ($0.name.value, $0.value) }, y.map { ($0.name.value, $0.value) })
        default:
            return a == b
        }
    }
}
