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

/// The compiled statements of one root field for one argument shape.
enum FieldPlan: Sendable {
    /// A read: one statement rendering the field's JSON, and the statements of split relations.
    case read(ReadPlan)
    /// A mutation root field's statements.
    case mutation(MutationPlan)
}

/// What compiling a field's statements needs from the engine.
struct PlanContext {
    let api: GeneratedAPI
    let dialect: any SQLDialect
    let maximumFilterTerms: Int
    /// The API's input types, built once per service (``InputTypeKinds``), for every operation compiled with it.
    let kinds: InputTypeKinds
}

/// A connector operation compiled at load time: its variables' coercion, its auth rule, its planned field
/// tree, and the SQL of each root field.
///
/// The statements of the shape with every variable present are compiled when the operation is loaded, so
/// their errors show at start-up; the variants that depend on which optional variables are present (their
/// number grows exponentially with them) are compiled on first use and kept in a bounded LRU cache.
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
    /// Whether any expression reads `response` (then results of earlier root fields are kept), found by
    /// walking the expressions' trees.
    let readsResponse: Bool
    /// Whether the operation evaluates CEL at request time (`_expr`, `@check`): only then are the CEL
    /// bindings (auth claims, variables, the request time as text) built.
    let usesExpressions: Bool
    /// The `_expr` server values of the operation's arguments, parsed once, by source text.
    let expressions: [String: CELExpression]
    /// The nodes that have arguments or `@skip`/`@include` conditions: the only ones a request resolves.
    let nodesWithArguments: [FieldNode]
    /// How the arguments of each of ``nodesWithArguments`` bind: those without variables resolved once.
    let argumentBindings: [[ArgumentBinding]]
    /// The nodes whose arguments may hold texts to embed (`compare_embed`, `<field>_embed`).
    let embeddingNodes: [FieldNode]
    /// Compiled statements by root field, entity-id mode and argument shape.
    let plans = Mutex(LRUCache<String, FieldPlan>(capacity: CompiledOperation.planCacheCapacity))
    /// `@refresh` rules (queries only): when a subscribed result is re-run besides table changes.
    let refresh: RefreshRules
    /// The operation's printed definition: equal text means an unchanged operation across reloads.
    let fingerprint: String

    /// The most argument-shape variants one operation keeps compiled.
    static let planCacheCapacity = 1_000

    init(
        name: String, kind: OperationType, auth: AuthRequirement?, isTransaction: Bool, coercer: VariableCoercer,
        roots: [FieldNode], refresh: RefreshRules = RefreshRules(), fingerprint: String = "",
        vectorTables: Set<String> = []
    ) {
        self.refresh = refresh
        self.fingerprint = fingerprint
        self.name = name
        self.kind = kind
        self.auth = auth
        self.isTransaction = isTransaction
        self.coercer = coercer
        self.roots = roots
        let nodes = roots.flatMap(\.subtree)
        var expressions: [String: CELExpression] = [:]
        for node in nodes {
            for source in node.expressionSources where expressions[source] == nil {
                expressions[source] = try? CELExpression(parsing: source)
            }
        }
        self.expressions = expressions
        self.usesExpressions = !expressions.isEmpty || nodes.contains { !$0.checks.isEmpty }
        self.readsResponse =
            expressions.values.contains { $0.referencedRoots.contains("response") }
            || nodes.contains { $0.checks.contains { $0.expression.referencedRoots.contains("response") } }
        self.nodesWithArguments = nodes.filter { !$0.argumentDefinitions.isEmpty || !$0.conditions.isEmpty }
        self.argumentBindings = ArgumentBinding.bindings(of: nodesWithArguments, kinds: coercer.kinds)
        self.embeddingNodes = nodesWithArguments.filter { $0.mayEmbed(vectorTables: vectorTables) }
    }

    /// Compiles an operation definition against the API.
    ///
    /// - Throws: ``PlanError`` when the operation cannot be planned, its merged selection beyond `limits`
    ///   among others.
    static func compile(
        _ operation: OperationDefinition, name: String, api: GeneratedAPI, fragments: [String: FragmentDefinition],
        kinds: InputTypeKinds, limits: OperationLimits = .default
    ) throws(PlanError) -> CompiledOperation {
        var auth: AuthRequirement?
        if let directive = operation.directives.first(named: "auth") {
            if case .enum(let level)? = directive.argument("level")?.value,
                let access = AccessLevel(rawValue: level.value)
            {
                auth = .level(access)
            } else if case .string(let source)? = directive.argument("expr")?.value {
                auth = .expression(try QueryBuilder.parseCEL(source.value))
            }
        }
        var planner = SelectionPlanner(api: api, fragments: fragments, limits: limits)
        let rootType = operation.operation == .mutation ? api.typeSystem.mutationType : api.typeSystem.queryType
        let roots = try planner.plan(operation.selectionSet, on: rootType)
        return CompiledOperation(
            name: name, kind: operation.operation, auth: auth,
            isTransaction: operation.directives.first(named: "transaction") != nil,
            coercer: VariableCoercer(kinds: kinds, definitions: operation.variables), roots: roots,
            refresh: try RefreshRules(directives: operation.directives.all(named: "refresh")),
            fingerprint: GraphQLPrinter.print(Definition.operation(operation)),
            vectorTables: Set(
                api.model.tables.filter { $0.columns.contains { $0.type == .scalar(.vector) && !$0.isList } }.map(
                    \.name)))
    }

    // MARK: - Plans

    /// The key of a field's plans: the node, the entity-id mode and the argument shape.
    static func planKey(_ node: FieldNode, resolution: Resolution, entityIDs: Bool) -> String {
        "\(node.id)|\(entityIDs ? "e" : "")|\(resolution.shape)"
    }

    /// The statements of a mutation root field for a request's argument shape, compiled on first use.
    ///
    /// - Throws: ``ExecutionError``: a field error for arguments that cannot be written; request-level for a
    ///   filter beyond the limits.
    func mutationPlan(
        for root: FieldNode, role: APIFieldRole, resolution: Resolution, entityIDs: Bool,
        context makeContext: @autoclosure () -> PlanContext
    ) throws(ExecutionError) -> MutationPlan {
        let key = Self.planKey(root, resolution: resolution, entityIDs: entityIDs)
        if case .mutation(let cached)? = plans.withLock({ $0[key] }) { return cached }
        let context = makeContext()
        var compiler = MutationCompiler(api: context.api, dialect: context.dialect, resolution: resolution)
        compiler.expressions = expressions
        compiler.maximumFilterTerms = context.maximumFilterTerms
        let plan = try compiler.compile(root, role: role)
        plans.withLock { $0[key] = .mutation(plan) }
        return plan
    }

    /// The read plan of a root field (or of a field of a mutation's `query` field), compiled on first use.
    ///
    /// - Throws: ``ExecutionError``, request-level: the read cannot be asked of the database (a filter beyond
    ///   the limits).
    func readPlan(
        for node: FieldNode, resolution: Resolution, entityIDs: Bool,
        context makeContext: @autoclosure () -> PlanContext
    ) throws(ExecutionError) -> ReadPlan {
        let key = Self.planKey(node, resolution: resolution, entityIDs: entityIDs)
        if case .read(let cached)? = plans.withLock({ $0[key] }) { return cached }
        // The context (the API, copied) is made only to compile: most requests find their plan.
        let context = makeContext()
        var builder = QueryBuilder(api: context.api, dialect: context.dialect, resolution: resolution)
        builder.expressions = expressions
        builder.includeEntityIDs = entityIDs
        // Checks and redactions read the value with its hidden ids; the rest read ids off the key fields too.
        builder.derivesEntityIDs = entityIDs && !node.needsPostProcessing
        builder.maximumFilterTerms = context.maximumFilterTerms
        let plan: ReadPlan
        do {
            plan = try builder.rootStatement(node)
        } catch {
            var failure = ExecutionError(code: .invalidArgument, message: error.message, isRequestLevel: true)
            failure.isEmulatorLimitation = error.isEmulatorLimitation
            throw failure
        }
        plans.withLock { $0[key] = .read(plan) }
        return plan
    }

    /// Compiles the statements of the shape with every variable present, the one most requests have.
    ///
    /// - Throws: ``PlanError`` when a read or a write cannot be compiled although every variable is a scalar, an
    ///   enum or a Boolean (then the placeholders give exactly a request's shape, and the operation cannot run:
    ///   an insert that leaves a required field unset, an update whose `data` sets nothing). With list or
    ///   input-object variables the placeholders (empty values) may not be a shape requests send: a failure is
    ///   left to the requests.
    func precompile(entityIDs: Bool, context: PlanContext) throws(PlanError) {
        let system = context.api.typeSystem
        let variables = Self.representativeVariables(coercer.definitions, system: system)
        let isExactShape = coercer.definitions.allSatisfy { definition in
            if definition.type.isList { return false }
            if case .inputObject? = system.type(named: definition.type.namedType.value) { return false }
            return true
        }
        var resolver = ArgumentResolver(kinds: context.kinds, variables: variables)
        resolver.resolve(nodesWithArguments: nodesWithArguments)
        let resolution = resolver.resolution
        for root in roots where root.hasReadPlan && !resolution.skipped.contains(root.id) {
            let reads: [FieldNode] =
                root.role == .mutationQuery ? root.children.filter(\.hasReadPlan) : (kind == .query ? [root] : [])
            for node in reads {
                do {
                    _ = try readPlan(for: node, resolution: resolution, entityIDs: entityIDs, context: context)
                } catch {
                    if isExactShape {
                        throw PlanError(
                            message: error.message, location: node.location,
                            isEmulatorLimitation: error.isEmulatorLimitation)
                    }
                }
            }
            if kind == .mutation, let role = root.role, role != .mutationQuery, root.hasReadPlan {
                do {
                    _ = try mutationPlan(
                        for: root, role: role, resolution: resolution, entityIDs: entityIDs, context: context)
                } catch {
                    if isExactShape {
                        throw PlanError(
                            message: error.message, location: root.location,
                            isEmulatorLimitation: error.isEmulatorLimitation)
                    }
                }
            }
        }
    }

    /// Variables with every one present: a placeholder of each type (enums take their first value, Booleans
    /// `true`, lists and input objects are empty), giving the argument shape of a request that sends them all.
    static func representativeVariables(_ definitions: [VariableDefinition], system: TypeSystem) -> JSONObject {
        var variables = JSONObject()
        for definition in definitions {
            let type = definition.type
            if type.isList {
                variables[definition.name.value] = .array([])
                continue
            }
            switch system.type(named: type.namedType.value) {
            case .inputObject?: variables[definition.name.value] = .object([:])
            case .enum(let enumeration)?:
                variables[definition.name.value] = enumeration.values.first.map { .string($0.name.value) } ?? .null
            default:
                variables[definition.name.value] = type.namedType.value == "Boolean" ? .bool(true) : .string("")
            }
        }
        return variables
    }
}
