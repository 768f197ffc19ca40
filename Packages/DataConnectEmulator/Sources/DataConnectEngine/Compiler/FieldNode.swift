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
        self.needsPostProcessing = !checks.isEmpty || isRedacted || children.contains { $0.needsPostProcessing }
    }

    /// The selected sub-field answered under `responseKey`.
    func child(_ responseKey: String) -> FieldNode? {
        children.first { $0.responseKey == responseKey }
    }

    /// Whether the field or a descendant has conditions, checks or redactions (the slow path); found once, as the
    /// node is made, since every request asks.
    let needsPostProcessing: Bool

    /// Whether the field is answered by a compiled SQL plan (not `__typename`, introspection, `_service`,
    /// native SQL or a custom resolver).
    var hasReadPlan: Bool {
        switch role {
        case nil, .service?, .nativeSQL?, .remote?: false
        default: true
        }
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

extension FieldNode {
    /// The sources of the `_expr` server values of the field's arguments, at any depth of their input
    /// objects, found by walking the argument trees.
    var expressionSources: [String] {
        var found: [String] = []
        func visit(_ value: Value) {
            switch value {
            case .object(let fields, _):
                for field in fields {
                    if field.name.value.hasSuffix("_expr"), case .string(let source) = field.value {
                        found.append(source.value)
                    } else {
                        visit(field.value)
                    }
                }
            case .list(let items, _):
                items.forEach(visit)
            default:
                break
            }
        }
        for argument in arguments {
            if argument.name.value.hasSuffix("_expr"), case .string(let source) = argument.value {
                found.append(source.value)
            } else {
                visit(argument.value)
            }
        }
        return found
    }
}
