import GraphQLLanguage

extension OperationValidator {
    /// Rule: fragment names are unique across the connector's files.
    mutating func collectFragments(_ document: Document) {
        for fragment in document.fragments {
            if let previous = fragments[fragment.name.value] {
                error(
                    "there can be only one fragment named \"\(fragment.name.value)\" (also declared at \(previous.name.location.file):\(previous.name.location.start))",
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
    /// Finds the strongly connected components of the spread graph (Tarjan's algorithm, iteratively, so
    /// long chains cannot exhaust the stack) and reports each cycle once, at its first fragment in
    /// document order.
    ///
    /// - Returns: the fragments that take part in a cycle.
    @discardableResult
    mutating func checkFragmentCycles() -> Set<String> {
        let names = fragments.keys.sorted()
        var index: [String: Int] = [:]
        var lowLink: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var nextIndex = 0
        var cyclic: Set<String> = []
        var components: [[String]] = []
        let spreadGraph = fragmentSpreads
        let known = Set(fragments.keys)
        let successors: (String) -> [String] = { name in
            (spreadGraph[name] ?? []).filter { known.contains($0) }.sorted()
        }
        for root in names where index[root] == nil {
            var work: [(name: String, successors: [String], position: Int)] = []
            func open(_ name: String) {
                index[name] = nextIndex
                lowLink[name] = nextIndex
                nextIndex += 1
                stack.append(name)
                onStack.insert(name)
                work.append((name, successors(name), 0))
            }
            open(root)
            while let top = work.last {
                if top.position < top.successors.count {
                    work[work.count - 1].position += 1
                    let next = top.successors[top.position]
                    if index[next] == nil {
                        open(next)
                    } else if onStack.contains(next) {
                        lowLink[top.name] = min(lowLink[top.name]!, index[next]!)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last {
                    lowLink[parent.name] = min(lowLink[parent.name]!, lowLink[top.name]!)
                }
                if lowLink[top.name] == index[top.name] {
                    var component: [String] = []
                    while let member = stack.popLast() {
                        onStack.remove(member)
                        component.append(member)
                        if member == top.name { break }
                    }
                    let selfLoop = component.count == 1 && (fragmentSpreads[top.name]?.contains(top.name) ?? false)
                    if component.count > 1 || selfLoop { components.append(component) }
                }
            }
        }
        for component in components {
            cyclic.formUnion(component)
            let ordered = component.compactMap { fragments[$0] }.sorted {
                ($0.location.file, $0.location.start) < ($1.location.file, $1.location.start)
            }
            guard let first = ordered.first else { continue }
            let others = ordered.dropFirst().map { "\"\($0.name.value)\"" }
            let via = others.isEmpty ? "" : " via \(others.joined(separator: ", "))"
            error("cannot spread fragment \"\(first.name.value)\" within itself\(via)", at: first.name.location)
        }
        return cyclic
    }

    /// Every fragment a selection set spreads, directly or through other fragments.
    func transitiveFragments(of selectionSet: SelectionSet) -> Set<String> {
        var result: Set<String> = []
        var pending = Array(selectionSet.fragmentSpreadNames)
        while let name = pending.popLast() {
            guard result.insert(name).inserted else { continue }
            pending += fragmentSpreads[name] ?? []
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
}
