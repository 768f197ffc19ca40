import GraphQLLanguage

extension OperationValidator {
    /// Rule: fragment names are unique across the connector's files.
    mutating func collectFragments(_ document: Document) {
        for fragment in document.fragments {
            if let previous = fragments[fragment.name.value] {
                error(
                    "there can be only one fragment named \"\(fragment.name.value)\" (also declared at \(previous.location.file):\(previous.location.start))",
                    at: fragment.name.location)
                continue
            }
            fragments[fragment.name.value] = fragment
        }
    }

    /// Rule: a fragment's type condition is a known composite type, and its selections are valid on it.
    mutating func checkFragmentDefinition(_ fragment: FragmentDefinition) {
        checkDirectives(fragment.directives, at: .fragmentDefinition)
        let typeName = fragment.typeCondition.value
        guard system.type(named: typeName) != nil else {
            let candidates = system.typeOrder.filter { system.isComposite($0) }
            error(
                "unknown type \"\(typeName)\"\(Suggestions.didYouMean(typeName, among: candidates))",
                at: fragment.typeCondition.location)
            return
        }
        guard system.isComposite(typeName) else {
            error(
                "fragment \"\(fragment.name.value)\" cannot condition on non-composite type \"\(typeName)\"",
                at: fragment.typeCondition.location)
            return
        }
        currentUsages = []
        currentSpreads = []
        checkSelectionSet(fragment.selectionSet, parentType: typeName)
        fragmentUsages[fragment.name.value] = currentUsages
        fragmentSpreads[fragment.name.value] = currentSpreads
    }

    /// Rule: fragments do not spread themselves, directly or through others.
    ///
    /// - Returns: the fragments that take part in a cycle.
    @discardableResult
    mutating func checkFragmentCycles() -> Set<String> {
        var reported: Set<String> = []
        for name in fragments.keys.sorted() {
            var stack: [(String, [String])] = [(name, [name])]
            var visited: Set<String> = []
            while let (current, path) = stack.popLast() {
                for next in (fragmentSpreads[current] ?? []).sorted() {
                    if next == name {
                        if reported.insert(name).inserted, let fragment = fragments[name] {
                            let via = path.dropFirst().map { "\"\($0)\"" }
                            let suffix = via.isEmpty ? "" : " via \(via.joined(separator: ", "))"
                            error(
                                "cannot spread fragment \"\(name)\" within itself\(suffix)", at: fragment.name.location)
                        }
                    } else if visited.insert(next).inserted {
                        stack.append((next, path + [next]))
                    }
                }
            }
        }
        return reported
    }

    /// Every fragment a selection set spreads, directly or through other fragments.
    func transitiveFragments(of selectionSet: SelectionSet) -> Set<String> {
        var result: Set<String> = []
        var pending = Array(Self.spreads(in: selectionSet))
        while let name = pending.popLast() {
            guard result.insert(name).inserted else { continue }
            pending += fragmentSpreads[name] ?? []
        }
        return result
    }

    static func spreads(in selectionSet: SelectionSet) -> Set<String> {
        var result: Set<String> = []
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field): if let set = field.selectionSet { result.formUnion(spreads(in: set)) }
            case .fragmentSpread(let spread): result.insert(spread.name.value)
            case .inlineFragment(let inline): result.formUnion(spreads(in: inline.selectionSet))
            }
        }
        return result
    }

    /// Rule: every fragment is used by some operation.
    mutating func checkUnusedFragments(_ document: Document) {
        var used: Set<String> = []
        for operation in document.operations { used.formUnion(transitiveFragments(of: operation.selectionSet)) }
        for name in fragments.keys.sorted() where !used.contains(name) {
            error("fragment \"\(name)\" is never used", at: fragments[name]!.name.location)
        }
    }

    // MARK: - Field merging

    /// Rule: fields that share a response key in one selection set select the same field with the same
    /// arguments, so the response has one meaning per key (§5.3.2).
    mutating func checkMergeable(_ selectionSet: SelectionSet, parentType: String) {
        var byKey: [String: [Field]] = [:]
        var order: [String] = []
        collectFields(selectionSet, into: &byKey, order: &order, visited: [])
        for key in order {
            let fields = byKey[key]!
            guard fields.count > 1 else { continue }
            let first = fields[0]
            for other in fields.dropFirst() {
                if other.name.value != first.name.value {
                    error(
                        "fields \"\(key)\" conflict because \"\(first.name.value)\" and \"\(other.name.value)\" are different fields; use different aliases",
                        at: other.location)
                } else if other.arguments.count != first.arguments.count
                    || !other.arguments.allSatisfy({ arg in
                        first.arguments.contains { $0.name == arg.name && $0.value == arg.value }
                    })
                {
                    error(
                        "fields \"\(key)\" conflict because they have differing arguments; use different aliases",
                        at: other.location)
                }
            }
        }
    }

    /// Gathers the fields of a selection set by response key, looking through fragments.
    func collectFields(
        _ selectionSet: SelectionSet, into byKey: inout [String: [Field]], order: inout [String], visited: Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                if byKey[field.responseKey] == nil { order.append(field.responseKey) }
                byKey[field.responseKey, default: []].append(field)
            case .inlineFragment(let inline):
                collectFields(inline.selectionSet, into: &byKey, order: &order, visited: visited)
            case .fragmentSpread(let spread):
                guard !visited.contains(spread.name.value), let fragment = fragments[spread.name.value] else {
                    continue
                }
                collectFields(
                    fragment.selectionSet, into: &byKey, order: &order, visited: visited.union([spread.name.value]))
            }
        }
    }
}
