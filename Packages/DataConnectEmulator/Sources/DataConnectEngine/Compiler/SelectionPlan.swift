import DataConnectSchema
import GraphQLLanguage

/// One field of an operation's selection, resolved against the generated API at load time.
///
/// Fragments are inlined, so a plan is a plain tree. Each node keeps its argument ASTs: variables in
/// them are bound per request by ``ArgumentResolver``.
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

/// Builds ``FieldNode`` trees from selection sets.
struct SelectionPlanner {
    let api: GeneratedAPI
    let fragments: [String: FragmentDefinition]
    var nextID = 0

    init(api: GeneratedAPI, fragments: [String: FragmentDefinition]) {
        self.api = api
        self.fragments = fragments
    }

    /// Plans a selection set on a type; fragment spreads and inline fragments are flattened in order.
    mutating func plan(_ selectionSet: SelectionSet, on type: String) throws(PlanError) -> [FieldNode] {
        var fields: [(Field, [Directive])] = []
        var visited: Set<String> = []
        flatten(selectionSet, inherited: [], into: &fields, visited: &visited)
        var nodes: [FieldNode] = []
        for (field, inherited) in fields {
            nodes.append(try plan(field, inheritedDirectives: inherited, on: type))
        }
        return nodes
    }

    private func flatten(
        _ set: SelectionSet, inherited: [Directive], into fields: inout [(Field, [Directive])],
        visited: inout Set<String>
    ) {
        for selection in set.selections {
            switch selection {
            case .field(let field):
                fields.append((field, inherited))
            case .inlineFragment(let inline):
                flatten(inline.selectionSet, inherited: inherited + inline.directives, into: &fields, visited: &visited)
            case .fragmentSpread(let spread):
                guard let fragment = fragments[spread.name.value], !visited.contains(spread.name.value) else {
                    continue
                }
                visited.insert(spread.name.value)
                flatten(
                    fragment.selectionSet, inherited: inherited + spread.directives + fragment.directives,
                    into: &fields, visited: &visited)
                visited.remove(spread.name.value)
            }
        }
    }

    private mutating func plan(
        _ field: Field, inheritedDirectives: [Directive], on type: String
    ) throws(PlanError) -> FieldNode {
        nextID += 1
        let id = nextID
        let directives = inheritedDirectives + field.directives
        var conditions: [(include: Bool, value: Value)] = []
        var checks: [CheckSpec] = []
        for directive in directives {
            switch directive.name.value {
            case "skip", "include":
                if let value = directive.argument("if")?.value {
                    conditions.append((directive.name.value == "include", value))
                }
            case "check":
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
            default:
                break
            }
        }
        let isRedacted = directives.contains { $0.name.value == "redact" }
        if field.name.value == "__typename" {
            return FieldNode(
                id: id, responseKey: field.responseKey, name: "__typename", role: nil, parentType: type, arguments: [],
                argumentDefinitions: [], children: [], conditions: conditions, isRedacted: isRedacted, checks: checks,
                location: field.location)
        }
        guard let definition = api.typeSystem.field(field.name.value, on: type) else {
            throw PlanError(message: "unknown field \"\(field.name.value)\" on \"\(type)\"", location: field.location)
        }
        let role = api.role(of: field.name.value, on: type)
        var children: [FieldNode] = []
        if let set = field.selectionSet {
            children = try plan(set, on: definition.type.namedType.value)
        }
        return FieldNode(
            id: id, responseKey: field.responseKey, name: field.name.value, role: role, parentType: type,
            arguments: field.arguments, argumentDefinitions: definition.arguments, children: children,
            conditions: conditions, isRedacted: isRedacted, checks: checks, location: field.location)
    }
}

/// An operation that cannot be executed as written.
struct PlanError: Error, Sendable, CustomStringConvertible {
    let message: String
    let location: NodeLocation?
    var description: String { message }
}
