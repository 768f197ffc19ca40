import DataConnectCEL
import DataConnectSchema
import GraphQLLanguage

/// One field of an operation's selection, resolved against the generated API at load time.
///
/// Fragments are inlined and the selections of one response key merged, so a plan is a plain tree with
/// one node per key of the response. Each node keeps its argument ASTs: variables in them are bound
/// per request by ``ArgumentResolver``.
final class FieldNode: Sendable {
    /// A number unique within the operation; resolved arguments are keyed by it.
    let id: Int
    /// The key in the response (alias or name).
    let responseKey: String
    /// The field's name in the API.
    let name: String
    /// What the field means; `nil` for `__typename`.
    let role: APIFieldRole?
    /// The object type the field is selected on.
    let parentType: String
    /// The field's argument values as written.
    let arguments: [Argument]
    /// The argument definitions (with their types and defaults).
    let argumentDefinitions: [InputValueDefinition]
    /// The selected sub-fields.
    let children: [FieldNode]
    /// `@skip(if:)` and `@include(if:)` conditions: (`true` for include, the condition value).
    let conditions: [(include: Bool, value: Value)]
    /// Whether `@redact` removes the field from the response.
    let isRedacted: Bool
    /// `@check` expressions on the field.
    let checks: [CheckSpec]
    /// Where the field is written.
    let location: NodeLocation

    init(
        id: Int, responseKey: String, name: String, role: APIFieldRole?, parentType: String, arguments: [Argument],
        argumentDefinitions: [InputValueDefinition], children: [FieldNode],
        conditions: [(include: Bool, value: Value)], isRedacted: Bool, checks: [CheckSpec], location: NodeLocation
    ) {
        self.id = id
        self.responseKey = responseKey
        self.name = name
        self.role = role
        self.parentType = parentType
        self.arguments = arguments
        self.argumentDefinitions = argumentDefinitions
        self.children = children
        self.conditions = conditions
        self.isRedacted = isRedacted
        self.checks = checks
        self.location = location
    }

    /// Whether the field or a descendant has conditions, checks or redactions (the slow path).
    var needsPostProcessing: Bool {
        !checks.isEmpty || isRedacted || children.contains { $0.needsPostProcessing }
    }

    /// Every node of the subtree, depth first.
    var subtree: [FieldNode] {
        var result: [FieldNode] = []
        var pending = [self]
        while let node = pending.popLast() {
            result.append(node)
            pending.append(contentsOf: node.children.reversed())
        }
        return result
    }
}

/// A compiled `@check`.
struct CheckSpec: Sendable {
    let expression: CELExpression
    let message: String
    let optional: Bool
}

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

/// An operation that cannot be executed as written.
struct PlanError: Error, Sendable, CustomStringConvertible {
    let message: String
    let location: NodeLocation?
    var description: String { message }
}
