import DataConnectCEL
import DataConnectSchema
import GraphQLLanguage

/// Builds ``FieldNode`` trees from selection sets, one node per response key.
///
/// The selection set is first collected and merged by ``MergedSelection`` (fragments expanded, fields
/// merged by response key, the ``OperationLimits`` checked), the same collection the validator runs;
/// each merged field then becomes one node. A merged field's `@skip`/`@include` conditions are those
/// of its selections: when one selection's conditions hold whenever the others' do, they are the node's,
/// less those its parent already needs; otherwise the field cannot be planned.
struct SelectionPlanner {
    let api: GeneratedAPI
    let fragments: [String: FragmentDefinition]
    let limits: OperationLimits
    var nextID = 0

    init(api: GeneratedAPI, fragments: [String: FragmentDefinition], limits: OperationLimits = .default) {
        self.api = api
        self.fragments = fragments
        self.limits = limits
    }

    /// Plans an operation's selection set on its root type.
    mutating func plan(_ selectionSet: SelectionSet, on type: String) throws(PlanError) -> [FieldNode] {
        let merged = MergedSelection(collecting: selectionSet, fragments: fragments, limits: limits)
        if let problem = merged.diagnostics.first {
            throw PlanError(
                message: problem.message,
                location: problem.location.map { NodeLocation(file: problem.file, start: $0) })
        }
        var nodes: [FieldNode] = []
        for index in merged.roots {
            nodes.append(try plan(index, of: merged, on: type, parentConditions: []))
        }
        return nodes
    }

    private mutating func plan(
        _ index: Int, of merged: MergedSelection, on type: String, parentConditions: Set<InclusionCondition>
    ) throws(PlanError) -> FieldNode {
        let mergedField = merged.fields[index]
        let field = mergedField.field
        nextID += 1
        let id = nextID
        let required = try Self.requiredConditions(of: mergedField)
        let conditions = required.filter { !parentConditions.contains($0) }.map { ($0.include, $0.value) }
        var checks: [CheckSpec] = []
        for directive in mergedField.checks {
            var source = "!(this in [null, []])"
            if case .string(let s)? = directive.argument("expr")?.value { source = s.value }
            var message = "permission denied"
            if case .string(let s)? = directive.argument("message")?.value { message = s.value }
            var optional = false
            if case .boolean(let b, _)? = directive.argument("optional")?.value { optional = b }
            do {
                checks.append(
                    CheckSpec(expression: try CELExpression(parsing: source), message: message, optional: optional))
            } catch {
                throw PlanError(
                    message: "invalid @check expression \"\(source)\": \(error)", location: directive.location)
            }
        }
        if field.name.value == "__typename" {
            return FieldNode(
                id: id, responseKey: field.responseKey, name: "__typename", role: nil, parentType: type, arguments: [],
                argumentDefinitions: [], children: [], conditions: conditions, isRedacted: mergedField.isRedacted,
                checks: checks, location: field.location)
        }
        guard let definition = api.typeSystem.field(field.name.value, on: type) else {
            throw PlanError(message: "unknown field \"\(field.name.value)\" on \"\(type)\"", location: field.location)
        }
        let role = api.role(of: field.name.value, on: type)
        var children: [FieldNode] = []
        let childType = definition.type.namedType.value
        let childParentConditions = Set(required)
        for child in mergedField.children {
            children.append(try plan(child, of: merged, on: childType, parentConditions: childParentConditions))
        }
        return FieldNode(
            id: id, responseKey: field.responseKey, name: field.name.value, role: role, parentType: type,
            arguments: field.arguments, argumentDefinitions: definition.arguments, children: children,
            conditions: conditions, isRedacted: mergedField.isRedacted, checks: checks, location: field.location)
    }

    /// The `@skip`/`@include` conditions under which a merged field is selected, from the operation down.
    ///
    /// The field is selected when any of its selections is; a node holds one conjunction of conditions,
    /// so one selection's conditions must be implied by every other's (then they are the smallest set).
    ///
    /// - Throws: ``PlanError`` when the selections' conditions are independent of each other, as in
    ///   `title @include(if: $a) title @include(if: $b)`.
    static func requiredConditions(of field: MergedField) throws(PlanError) -> [InclusionCondition] {
        guard let smallest = field.conditionSets.min(by: { $0.count < $1.count }) else { return [] }
        for other in field.conditionSets where !smallest.allSatisfy(other.contains) {
            let describe: ([InclusionCondition]) -> String = { conditions in
                conditions.map { "@\($0.include ? "include" : "skip")(if: \(GraphQLPrinter.print($0.value)))" }
                    .joined(separator: " ")
            }
            throw PlanError(
                message:
                    "\"\(field.responseKey)\" is selected under \(describe(smallest)) and under \(describe(other)); the emulator merges a field's selections only when one's @skip/@include conditions hold whenever another's do: give them different aliases",
                location: field.field.location)
        }
        return smallest
    }
}
