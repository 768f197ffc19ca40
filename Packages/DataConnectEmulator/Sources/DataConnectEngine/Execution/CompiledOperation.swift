import DataConnectCEL
import DataConnectSchema
import DataConnectWire
import GraphQLLanguage
import Synchronization

/// Who may run an operation (`@auth`).
enum AuthRequirement: Sendable {
    case level(AccessLevel)
    case expression(CELExpression)
}

/// A connector operation compiled at load time: its variables' coercion, its auth rule and its
/// planned field tree. Statements are compiled per argument shape on first use and cached.
final class CompiledOperation: Sendable {
    /// The operation's name.
    let name: String
    /// Query or mutation.
    let kind: OperationType
    /// `@auth`; `nil` means NO_ACCESS.
    let auth: AuthRequirement?
    /// Whether `@transaction` is set.
    let isTransaction: Bool
    /// The variables' coercion.
    let coercer: VariableCoercer
    /// The root fields.
    let roots: [FieldNode]
    /// Whether any expression reads `response.*` (then results of earlier root fields are kept).
    let readsResponse: Bool
    /// Whether the operation evaluates CEL at request time (`_expr`, `@check`): only then are the CEL
    /// bindings (auth claims, variables, the request time as text) built.
    let usesExpressions: Bool
    /// The nodes that have arguments or `@skip`/`@include` conditions: the only ones a request resolves.
    let nodesWithArguments: [FieldNode]
    /// Statements by root field id and argument shape.
    let statements = Mutex<[String: SQLStatementPlan]>([:])
    /// `@refresh` rules (queries only): when a subscribed result is re-run besides table changes.
    let refresh: RefreshRules
    /// The operation's printed definition: equal text means an unchanged operation across reloads.
    let fingerprint: String

    init(
        name: String, kind: OperationType, auth: AuthRequirement?, isTransaction: Bool, coercer: VariableCoercer,
        roots: [FieldNode], readsResponse: Bool, usesExpressions: Bool, refresh: RefreshRules = RefreshRules(),
        fingerprint: String = ""
    ) {
        self.refresh = refresh
        self.fingerprint = fingerprint
        self.name = name
        self.kind = kind
        self.auth = auth
        self.isTransaction = isTransaction
        self.coercer = coercer
        self.roots = roots
        self.readsResponse = readsResponse
        self.usesExpressions = usesExpressions
        self.nodesWithArguments = roots.flatMap(\.subtree).filter {
            !$0.argumentDefinitions.isEmpty || !$0.conditions.isEmpty
        }
    }

    /// Compiles an operation definition against the API.
    ///
    /// - Throws: ``PlanError`` when the operation cannot be planned, its merged selection beyond `limits`
    ///   among others.
    static func compile(
        _ operation: OperationDefinition, name: String, api: GeneratedAPI, fragments: [String: FragmentDefinition],
        limits: OperationLimits = .default
    ) throws(PlanError) -> CompiledOperation {
        var auth: AuthRequirement?
        if let directive = operation.directives.first(named: "auth") {
            if case .enum(let level)? = directive.argument("level")?.value,
                let access = AccessLevel(rawValue: level.value)
            {
                auth = .level(access)
            } else if case .string(let source)? = directive.argument("expr")?.value {
                auth = .expression(try QueryBuilder.cel(source.value))
            }
        }
        var planner = SelectionPlanner(api: api, fragments: fragments, limits: limits)
        let rootType = operation.operation == .mutation ? api.typeSystem.mutationType : api.typeSystem.queryType
        let roots = try planner.plan(operation.selectionSet, on: rootType)
        let printed = GraphQLPrinter.print(Definition.operation(operation))
        return CompiledOperation(
            name: name, kind: operation.operation, auth: auth,
            isTransaction: operation.directives.first(named: "transaction") != nil,
            coercer: VariableCoercer(system: api.typeSystem, definitions: operation.variables), roots: roots,
            readsResponse: printed.contains("response."),
            usesExpressions: printed.contains("_expr") || printed.contains("@check") || printed.contains("expr:"),
            refresh: try RefreshRules(directives: operation.directives.all(named: "refresh")), fingerprint: printed)
    }
}
