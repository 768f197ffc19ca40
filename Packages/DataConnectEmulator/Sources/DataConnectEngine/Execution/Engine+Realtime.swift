import DataConnectCEL
import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

// MARK: - @refresh

/// A query's `@refresh` directives: when a subscribed result is re-run besides the table changes the
/// realtime hub tracks itself.
///
/// ```graphql
/// query ListMovies @auth(level: PUBLIC)
///   @refresh(every: {seconds: 30})
///   @refresh(onMutationExecuted: {operation: "AddMovie", condition: "mutation.variables.genre == request.variables.genre"}) { … }
/// ```
public struct RefreshRules: Sendable {
    /// The shortest `every:` interval written, unclamped; `nil` when there is none.
    public var every: Duration?
    /// The `onMutationExecuted:` triggers.
    public var onMutationExecuted: [MutationTrigger]

    /// No refresh rules.
    public init(every: Duration? = nil, onMutationExecuted: [MutationTrigger] = []) {
        self.every = every
        self.onMutationExecuted = onMutationExecuted
    }

    /// Reads `@refresh` directives (repeatable) of a query.
    ///
    /// - Throws: ``PlanError`` when a condition is not valid CEL.
    init(directives: [Directive]) throws(PlanError) {
        self.init()
        for directive in directives {
            if case .object(let fields, _)? = directive.argument("every")?.value {
                var milliseconds: Int64 = 0
                for field in fields {
                    guard case .int(let text, _) = field.value, let number = Int64(text) else { continue }
                    let factor: Int64 =
                        switch field.name.value {
                        case "milliseconds": 1
                        case "seconds": 1_000
                        case "minutes": 60_000
                        case "hours": 3_600_000
                        case "days": 86_400_000
                        case "weeks": 604_800_000
                        default: 0
                        }
                    let (product, overflow) = number.multipliedReportingOverflow(by: factor)
                    milliseconds = overflow ? Int64.max / 2 : min(Int64.max / 2, milliseconds + product)
                }
                let interval = Duration.milliseconds(max(0, milliseconds))
                every = every.map { min($0, interval) } ?? interval
            }
            if case .object(let fields, _)? = directive.argument("onMutationExecuted")?.value {
                var operation: String?
                var condition: CELExpression?
                var conditionSource: String?
                for field in fields {
                    guard case .string(let text) = field.value else { continue }
                    if field.name.value == "operation" { operation = text.value }
                    if field.name.value == "condition" {
                        condition = try QueryBuilder.cel(text.value)
                        conditionSource = text.value
                    }
                }
                if let operation {
                    onMutationExecuted.append(
                        MutationTrigger(operation: operation, condition: condition, conditionSource: conditionSource))
                }
            }
        }
    }
}

/// `@refresh(onMutationExecuted: {operation, condition})`: re-run a subscribed query after a named mutation.
public struct MutationTrigger: Sendable {
    /// The mutation's operation name.
    public var operation: String
    /// The CEL condition (`mutation.*`, `request.*`, `auth`); `nil` means always.
    public var condition: CELExpression?
    /// The condition as written.
    public var conditionSource: String?

    /// Whether the trigger fires for an executed mutation, seen from one subscription.
    ///
    /// The condition sees `mutation.variables` and `mutation.auth` (the mutation's request),
    /// `request.variables`/`vars` and `request.auth`/`auth` (the subscription's). A condition that fails to
    /// evaluate counts as false.
    ///
    /// - Parameters:
    ///   - effect: The executed mutation.
    ///   - variables: The subscription's variables.
    ///   - auth: The subscription's caller.
    /// - Returns: `true` when the query should be re-run.
    public func fires(for effect: MutationEffect, variables: JSONObject, auth: AuthContext?) -> Bool {
        guard effect.operationName == operation else { return false }
        guard let condition else { return true }
        var bindings = CELBindings(auth: auth?.celValue ?? .null, vars: variables)
        bindings.mutation = .object([
            "operationName": .string(effect.operationName),
            "variables": .object(effect.variables),
            "auth": effect.auth?.celValue ?? .null,
        ])
        return (try? condition.evaluateCondition(in: bindings)) ?? false
    }
}

// MARK: - Mutation effects

/// What a committed mutation changed, for the realtime hub.
public struct MutationEffect: Sendable {
    /// The connector, or `nil` for an admin (`executeGraphql`) document.
    public var connector: String?
    /// The operation's name (empty for an anonymous admin document).
    public var operationName: String
    /// The mutation's variables after coercion.
    public var variables: JSONObject
    /// The caller.
    public var auth: AuthContext?
    /// The tables (GraphQL type names) the mutation may have written, cascades included.
    public var tables: Set<String>

    /// Creates an effect.
    public init(
        connector: String?, operationName: String, variables: JSONObject, auth: AuthContext?, tables: Set<String>
    ) {
        self.connector = connector
        self.operationName = operationName
        self.variables = variables
        self.auth = auth
        self.tables = tables
    }
}

// MARK: - Subscriptions

/// A query checked and planned for a subscription: what to run, and what it depends on.
public struct SubscriptionTarget: Sendable {
    /// The connector id.
    public var connector: String
    /// The query's name.
    public var operationName: String
    /// The variables as sent (re-runs send them again).
    public var variables: JSONObject
    /// The coerced variables serialized with sorted keys: equal text means the same subscription.
    public var canonicalVariables: String
    /// The tables (GraphQL type names) the query reads: root fields, nested relations, join tables and
    /// tables reached by filters.
    public var tables: Set<String>
    /// The query's `@refresh` rules.
    public var refresh: RefreshRules
    /// The printed operation: a reload that changes it cancels the subscription.
    public var fingerprint: String
}

/// The outcome of ``Engine/prepareSubscription(connector:operationName:variables:auth:)``.
public enum SubscriptionPreparation: Sendable {
    /// The query may be subscribed to.
    case ready(SubscriptionTarget)
    /// A request-level refusal, answered like `:executeQuery` would.
    case refused(EngineResponse)
}

extension Engine {
    /// Checks a subscription request the way `:executeQuery` checks a call (operation, kind, `@auth`,
    /// variables) and works out the tables the query reads.
    ///
    /// - Parameters:
    ///   - connector: The connector id.
    ///   - operationName: The query's name.
    ///   - variables: The variables as sent.
    ///   - auth: The caller.
    /// - Returns: The target, or the error response `:executeQuery` would give.
    public func prepareSubscription(
        connector: String, operationName: String, variables: JSONObject, auth: AuthContext?
    ) -> SubscriptionPreparation {
        guard let connectorOperations = operations[connector] else {
            return .refused(
                Self.failure(
                    .notFound, "connector \"\(connector)\" not found in service \"\(service.project.config.serviceId)\""
                ))
        }
        guard let operation = connectorOperations[operationName] else {
            if let issue = issues[connector]?[operationName] {
                return .refused(
                    Self.failure(.failedPrecondition, "operation \"\(operationName)\" is invalid: \(issue)"))
            }
            return .refused(Self.failure(.notFound, "operation \"\(operationName)\" not found"))
        }
        guard operation.kind == .query else {
            return .refused(
                Self.failure(
                    .invalidArgument, "operation \"\(operationName)\" is a mutation; only queries can be subscribed to")
            )
        }
        let request = EngineRequest(
            kind: .connector(connector: connector, operationName: operationName, mutation: false),
            variables: variables, auth: auth)
        if let failure = authorize(operation, request: request) {
            return .refused(failure)
        }
        let coerced: JSONObject
        do {
            coerced = try operation.coercer.coerce(variables)
        } catch {
            return .refused(Self.failure(.invalidArgument, error.message))
        }
        return .ready(
            SubscriptionTarget(
                connector: connector, operationName: operationName, variables: variables,
                canonicalVariables: JSONValue.object(coerced).jsonString(canonical: true),
                tables: readTables(operation, variables: coerced, auth: auth, connector: connector),
                refresh: operation.refresh, fingerprint: operation.fingerprint))
    }

    /// The fingerprint of a connector operation, or `nil` when the engine does not serve it.
    public func operationFingerprint(connector: String, operationName: String) -> String? {
        operations[connector]?[operationName]?.fingerprint
    }

    /// The GraphQL type names of every table.
    public var allTables: Set<String> { Set(service.api.model.tables.map(\.name)) }

    /// The tables a query reads for these variables: the tables its statements name (so filters on
    /// relations count), united with the tables of its fields' roles.
    func readTables(
        _ operation: CompiledOperation, variables: JSONObject, auth: AuthContext?, connector: String
    ) -> Set<String> {
        let model = service.api.model
        var tables: Set<String> = []
        for node in operation.roots.flatMap(\.subtree) {
            guard let role = node.role else { continue }
            switch role {
            case .lookup(let table), .list(let table), .column(let table, _), .entityId(let table),
                .rowCount(let table), .aggregate(let table, _, _):
                tables.insert(table)
            case .relation(let table, let relation):
                tables.insert(table)
                tables.insert(relation.target)
                switch relation.kind {
                case .manyToMany(let join, _, _): tables.insert(join)
                case .reverseMany(let table, _), .reverseOne(let table, _): tables.insert(table)
                case .forward: break
                }
            default: break
            }
        }
        var execution = Execution(
            engine: self, operation: operation, variables: variables, auth: auth,
            entityIDs: entityIDConnectors.contains(connector))
        var resolver = ArgumentResolver(system: service.api.typeSystem, variables: variables)
        resolver.resolve(nodesWithArguments: operation.nodesWithArguments)
        execution.resolution = resolver.resolution
        var sql = ""
        for root in operation.roots where root.role != nil {
            guard let plan = try? execution.plan(for: root) else { return allTables }
            sql += plan.sql
            sql += "\n"
        }
        for table in model.tables where sql.contains(dialect.quote(table.sqlName)) {
            tables.insert(table.name)
        }
        // Relations name tables by type or SQL name; keep type names only.
        return Set(
            tables.compactMap { name in model.table(name)?.name ?? model.tables.first { $0.sqlName == name }?.name })
    }

    /// The tables (type names) a mutation may write: each root field's table, and for deletes and upserts
    /// the tables whose references cascade (`ON DELETE CASCADE`, transitively) or are set to null.
    func writtenTables(_ operation: CompiledOperation) -> Set<String> {
        let model = service.api.model
        var written: Set<String> = []
        var deletedFrom: [String] = []
        for root in operation.roots {
            guard let role = root.role else { continue }
            switch role {
            case .insert(let table), .insertMany(let table), .update(let table), .updateMany(let table):
                written.insert(table)
            case .upsert(let table), .upsertMany(let table):
                written.insert(table)
            case .delete(let table), .deleteMany(let table):
                written.insert(table)
                deletedFrom.append(table)
            default: break
            }
        }
        while let target = deletedFrom.popLast() {
            for table in model.tables {
                for reference in table.references where reference.target == target {
                    if reference.onDelete == .cascade {
                        if written.insert(table.name).inserted { deletedFrom.append(table.name) }
                    } else {
                        written.insert(table.name)
                    }
                }
            }
        }
        return written
    }
}
