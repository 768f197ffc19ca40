import DataConnectCEL
import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

/// One root field's outcome, ready to be written.
enum FieldOutput {
    /// JSON text rendered by SQLite (written as is), and the objects whose entity ids are read off their key
    /// fields (see ``ReadPlan/derivedEntityIDs``).
    case raw([UInt8], derived: [Int: DerivedEntityID] = [:])
    /// A value built in Swift.
    case value(JSONValue, derived: [Int: DerivedEntityID] = [:])
}

/// Entity-id properties of the response, in its order.
enum PropertiesOutput {
    /// A property built in Swift.
    case value(DataConnectProperties)
    /// Properties written by ``EntityIDStripper`` as it copied a result's text.
    case rendered(RenderedProperties)
}

/// The run of one operation for one request.
struct Execution {
    let engine: Engine
    let operation: CompiledOperation
    let variables: JSONObject
    let auth: AuthContext?
    let entityIDs: Bool

    var outputs: [(key: String, output: FieldOutput)] = []
    var errors: [GraphQLError] = []
    var properties: [PropertiesOutput] = []
    var bindings: CELBindings
    let requestTime = Instant.now
    var resolution = Resolution()
    /// The request's time in the database.
    let budget: RequestBudget
    /// A failure of the whole request found while running a mutation (a limit, the time limit).
    var requestFailure: ExecutionError?
    /// The vectors of the request's `Vector_Embed` values.
    var embedded = EmbeddedTexts()

    init(
        engine: Engine, operation: CompiledOperation, variables: JSONObject, auth: AuthContext?, entityIDs: Bool,
        callerDeadline: ContinuousClock.Instant? = nil, cancellation: RequestCancellation? = nil
    ) {
        self.engine = engine
        self.operation = operation
        self.variables = variables
        self.auth = auth
        self.entityIDs = entityIDs
        self.budget = RequestBudget(
            limits: engine.executionLimits, database: engine.database, scheduler: engine.deadlines,
            callerDeadline: callerDeadline, cancellation: cancellation)
        self.bindings =
            operation.usesExpressions || operation.readsResponse
            ? CELBindings(auth: auth?.celValue ?? .null, vars: variables, requestTime: requestTime.storageText)
            : CELBindings(auth: .null, vars: [:], requestTime: "")
    }

    var binder: ParameterBinder {
        ParameterBinder(
            resolution: resolution, bindings: bindings, requestTime: requestTime, auth: auth, embedded: embedded,
            embeddings: engine.embeddings, deadline: budget.deadline)
    }

    mutating func run() -> EngineResponse {
        var resolver = ArgumentResolver(kinds: engine.inputKinds, variables: variables)
        resolver.resolve(nodesWithArguments: operation.nodesWithArguments, bindings: operation.argumentBindings)
        resolution = resolver.resolution
        if !operation.embeddingNodes.isEmpty {
            do {
                embedded = try embedTexts()
            } catch {
                return Engine.failure(error.code, error.message)
            }
        }
        var failure: ExecutionError?
        do {
            if operation.kind == .mutation {
                try engine.database.write { (source: any StatementSource) -> Void in
                    budget.install(on: source)
                    defer { budget.remove(from: source) }
                    self.runMutation(source)
                }
                failure = requestFailure
            } else {
                try engine.database.read { (source: any StatementSource) -> Void in
                    budget.install(on: source)
                    defer { budget.remove(from: source) }
                    do throws(ExecutionError) {
                        try self.runQuery(source)
                    } catch {
                        failure = error
                    }
                }
            }
        } catch let error as DatabaseError {
            failure = .failedInDatabase(error)
        } catch {
            failure = ExecutionError(code: .internal, message: "internal error: \(error)")
        }
        return conclude(failure)
    }

    /// The answer once the operation's statements ran: the response, or the failure's (`data: null` for a query
    /// that failed, a request-level error body for a request-level failure).
    mutating func conclude(_ failure: ExecutionError?) -> EngineResponse {
        var failure = failure
        if let damage = failure?.damage { engine.database.health?.recordDamage(damage) }
        if failure?.code == .cancelled { budget.noteInterrupted() }
        if failure != nil, let stopped = budget.error { failure = stopped }
        if let failure, failure.isRequestLevel {
            return Engine.failure(failure.code, failure.message)
        }
        if let failure {
            // A query cannot fail partially: data is null and the error says why. Nothing read before the
            // failure (a refused `@check` above all) may reach the caller, entity ids included.
            outputs = []
            properties = []
            errors = [GraphQLError(message: failure.message, path: [], code: failure.code)]
            return write(dataIsNull: true)
        }
        return write(dataIsNull: false)
    }

    // MARK: - Queries

    var planContext: PlanContext { engine.planContext }

    /// Runs a read field (a root field, or a field of a mutation's `query`): its JSON text as SQL rendered
    /// it, or, when the plan split relations off or built an object in parts, the assembled value.
    func read(_ root: FieldNode, on source: any StatementSource) throws(ExecutionError) -> FieldOutput {
        // `__typename`, introspection, `_service` and native SQL: no compiled plan.
        if let output = try builtInOutput(root, on: source) { return output }
        if let schema = root.remoteSchema { return .value(try forwardFailingOnError(root, schema: schema)) }
        let plan = try operation.readPlan(
            for: root, resolution: resolution, entityIDs: entityIDs, context: planContext)
        let assembler = ReadAssembler(source: source, binder: binder)
        let bytes = try assembler.firstColumn(of: plan.statement)
        guard plan.needsAssembly else { return .raw(bytes, derived: plan.derivedEntityIDs) }
        return .value(try assembler.assemble(try Self.parse(bytes), plan: plan), derived: plan.derivedEntityIDs)
    }

    /// A result SQL rendered, as a value.
    static func parse(_ bytes: [UInt8]) throws(ExecutionError) -> JSONValue {
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw ExecutionError(code: .internal, message: "internal error: unreadable result: \(error)")
        }
    }

    mutating func runQuery(_ source: any StatementSource) throws(ExecutionError) {
        for root in operation.roots where !resolution.skipped.contains(root.id) {
            if let schema = root.remoteSchema {
                try emitRemote(root, schema: schema)
                continue
            }
            try emit(root, output: try read(root, on: source))
        }
    }

    /// Writes a read field's result, running checks, redactions and entity-id extraction when needed.
    mutating func emit(_ root: FieldNode, output: FieldOutput) throws(ExecutionError) {
        var value: JSONValue
        let derived: [Int: DerivedEntityID]
        switch output {
        case .raw(let bytes, let derivedIDs):
            guard root.needsPostProcessing || entityIDs || operation.readsResponse else {
                outputs.append((root.responseKey, output))
                return
            }
            // Entity ids alone: taken out of the text as it is copied, with no value built.
            if !root.needsPostProcessing && !operation.readsResponse,
                let stripped = EntityIDStripper.strip(
                    bytes, path: [.field(root.responseKey)], root: root, derived: derivedIDs)
            {
                properties.append(.rendered(stripped.ids))
                outputs.append((root.responseKey, .raw(stripped.bytes)))
                return
            }
            value = try Self.parse(bytes)
            derived = derivedIDs
        case .value(let assembled, let derivedIDs):
            value = assembled
            derived = derivedIDs
        }
        var visibleIDs: [DataConnectProperties] = []
        if entityIDs {
            (value, visibleIDs) = Self.separateEntityIDs(
                value, node: root, path: [.field(root.responseKey)], derived: derived)
        }
        try check(root, value: value, reached: true)
        bindings.response[root.responseKey] = value
        if root.isRedacted { return }
        properties += visibleIDs.map(PropertiesOutput.value)
        outputs.append((root.responseKey, .value(Self.redact(value, node: root))))
    }

    /// Removes the hidden entity-id members (``QueryBuilder/entityIDKey``) from a field's result and returns the
    /// entity ids the caller may see: none under a `@redact`ed field, whose rows never reach the response.
    ///
    /// - Parameter derived: The objects whose ids are read off their key fields, by field node.
    /// - Returns: The result without hidden keys (for `@check` and `response.*`), and the visible ids.
    static func separateEntityIDs(
        _ value: JSONValue, node: FieldNode, path: [PathSegment], derived: [Int: DerivedEntityID] = [:]
    ) -> (value: JSONValue, visible: [DataConnectProperties]) {
        var found: [DataConnectProperties] = []
        let cleaned = extractEntityIDs(value, path: path, into: &found, node: node, derived: derived)
        guard node.hasRedactedDescendant else { return (cleaned, found) }
        var visible: [DataConnectProperties] = []
        _ = extractEntityIDs(redact(value, node: node), path: path, into: &visible, node: node, derived: derived)
        return (cleaned, visible)
    }

    /// Removes the hidden entity-id members, recording entity ids per path (lists as `entityIds`); an object of a
    /// node in `derived` has its id read off its key field instead.
    ///
    /// - Parameters:
    ///   - node: The field node whose result `value` is (its objects' node), when known.
    ///   - derived: The objects whose ids are read off their key fields, by field node.
    static func extractEntityIDs(
        _ value: JSONValue, path: [PathSegment], into found: inout [DataConnectProperties], node: FieldNode? = nil,
        derived: [Int: DerivedEntityID] = [:]
    ) -> JSONValue {
        // A scalar field's value is the user's data, whatever members a JSON value holds: only the objects of
        // the selection carry ids.
        if let node, node.children.isEmpty { return value }
        switch value {
        case .object(var object):
            if let id = entityID(removingFrom: &object, node: node, derived: derived) {
                found.append(DataConnectProperties(path: path, entityId: id, action: .get))
            }
            var result = JSONObject()
            for (key, child) in object {
                result[key] = memberValue(child, key: key, path: path, into: &found, node: node, derived: derived)
            }
            return .object(result)
        case .array(let items):
            var ids: [String] = []
            var nested: [DataConnectProperties] = []
            var result: [JSONValue] = []
            for (index, item) in items.enumerated() {
                if case .object(var object) = item,
                    let id = entityID(removingFrom: &object, node: node, derived: derived)
                {
                    ids.append(id)
                    var inner: [DataConnectProperties] = []
                    var cleaned = JSONObject()
                    for (key, child) in object {
                        cleaned[key] = memberValue(
                            child, key: key, path: path + [.index(index)], into: &inner, node: node, derived: derived)
                    }
                    nested += inner
                    result.append(.object(cleaned))
                } else {
                    result.append(
                        extractEntityIDs(
                            item, path: path + [.index(index)], into: &nested, node: node, derived: derived))
                }
            }
            if !ids.isEmpty && ids.count == items.count {
                found.append(DataConnectProperties(path: path, entityIds: ids, action: .list))
            }
            found += nested
            return .array(result)
        default:
            return value
        }
    }

    /// The value of an object's member `key` without hidden keys. A member that no selected field of `node`
    /// answers is passed on as it is (the object of a plan holds none); without a node, every member is read.
    private static func memberValue(
        _ value: JSONValue, key: String, path: [PathSegment], into found: inout [DataConnectProperties],
        node: FieldNode?, derived: [Int: DerivedEntityID]
    ) -> JSONValue {
        var child: FieldNode?
        if let node {
            guard let selected = node.child(key) else { return value }
            child = selected
        }
        return extractEntityIDs(value, path: path + [.field(key)], into: &found, node: child, derived: derived)
    }

    /// An object's entity id: its hidden key (removed), or read off its key field when its node's ids are derived.
    private static func entityID(
        removingFrom object: inout JSONObject, node: FieldNode?, derived: [Int: DerivedEntityID]
    ) -> String? {
        let derivation = node.flatMap { derived[$0.id] }
        if let hidden = object.removeValue(forKey: QueryBuilder.entityIDKey) {
            guard let derivation else { return hidden.stringValue }
            return derivation.id(from: hidden)
        }
        guard let derivation, let member = derivation.member else { return nil }
        return derivation.id(from: object[member])
    }

    /// Runs `@check` on a node and its descendants: per element under lists; a check whose field is
    /// never reached fails unless optional.
    func check(_ node: FieldNode, value: JSONValue?, reached: Bool) throws(ExecutionError) {
        if !node.checks.isEmpty {
            for check in node.checks {
                if !reached {
                    if check.optional { continue }
                    throw ExecutionError(code: .permissionDenied, message: check.message)
                }
                var scoped = bindings
                scoped.this = value ?? .null
                let passed: Bool
                do {
                    passed = try check.expression.evaluateCondition(in: scoped)
                } catch {
                    throw ParameterBinder.celError(error)
                }
                if !passed { throw ExecutionError(code: .permissionDenied, message: check.message) }
            }
        }
        guard node.children.contains(where: { $0.needsPostProcessing }) else { return }
        let elements: [JSONValue]
        switch value {
        case .array(let items)?: elements = items
        case .object?: elements = [value!]
        default: elements = []
        }
        for child in node.children where child.needsPostProcessing && !resolution.skipped.contains(child.id) {
            if elements.isEmpty {
                try check(child, value: nil, reached: false)
            }
            for element in elements {
                try check(child, value: element[child.responseKey], reached: true)
            }
        }
    }

    /// Removes `@redact` fields below a node.
    static func redact(_ value: JSONValue, node: FieldNode) -> JSONValue {
        guard node.children.contains(where: { $0.needsPostProcessing }) else { return value }
        switch value {
        case .array(let items): return .array(items.map { redact($0, node: node) })
        case .object(var object):
            for child in node.children {
                if child.isRedacted {
                    _ = object.removeValue(forKey: child.responseKey)
                } else if let inner = object[child.responseKey], child.needsPostProcessing {
                    object[child.responseKey] = redact(inner, node: child)
                }
            }
            return .object(object)
        default: return value
        }
    }

    // MARK: - Mutations

    mutating func runMutation(_ source: any StatementSource) {
        let connection = source
        let transactional = operation.isTransaction
        if transactional {
            do {
                try connection.execute(engine.dialect.beginWriteTransaction)
            } catch {
                if error.kind == .damaged {
                    requestFailure = .failedInDatabase(error)
                    return
                }
                // Without the transaction the fields would commit one by one: run none of them.
                for root in operation.roots where !resolution.skipped.contains(root.id) && !root.isRedacted {
                    outputs.append((root.responseKey, .value(.null)))
                }
                errors = [
                    GraphQLError(
                        message: "cannot start the transaction: \(error.message)", path: [], code: .unavailable)
                ]
                return
            }
        }
        var succeeded: [String] = []
        var failed = false
        for (index, root) in operation.roots.enumerated() where !resolution.skipped.contains(root.id) {
            if failed {
                if !root.isRedacted { outputs.append((root.responseKey, .value(.null))) }
                errors.append(GraphQLError(message: "(aborted)", path: [.field(root.responseKey)], code: .aborted))
                continue
            }
            do throws(ExecutionError) {
                // Without @transaction, each field commits on its own: alone (autocommit) when it is one statement
                // that nothing can roll back once it ran, else between BEGIN and COMMIT.
                let alone = try transactional ? false : commitsAlone(root, on: connection)
                if alone {
                    // The check COMMIT would make: no write starts once the database is known damaged.
                    try refuseCommitIfDamaged()
                } else if !transactional {
                    do {
                        try connection.execute(engine.dialect.beginWriteTransaction)
                    } catch {
                        if error.kind == .damaged { throw ExecutionError.failedInDatabase(error) }
                        throw ExecutionError(code: .unavailable, message: "cannot start the field: \(error.message)")
                    }
                }
                do {
                    try runMutationField(root, source: source)
                } catch {
                    // Alone, the statement was the field's first contact with the database, as BEGIN is otherwise:
                    // a connection found lost answers as a BEGIN that failed would.
                    guard alone, let cause = error.unreachable else { throw error }
                    throw ExecutionError(code: .unavailable, message: "cannot start the field: \(cause)")
                }
                if !transactional && !alone {
                    try refuseCommitIfDamaged()
                    do {
                        try connection.execute("COMMIT")
                    } catch {
                        if error.kind == .damaged { throw ExecutionError.failedInDatabase(error) }
                        throw ExecutionError(code: .aborted, message: "commit failed: \(error.message)")
                    }
                }
                succeeded.append(root.responseKey)
            } catch {
                let error = budget.error ?? error
                if let damage = error.damage { engine.database.health?.recordDamage(damage) }
                if error.isRequestLevel {
                    // A limit, the time limit or a stop: undo this field, and answer for the whole request
                    // unless earlier fields already committed.
                    budget.remove(from: connection)
                    try? connection.execute("ROLLBACK")
                    if transactional || succeeded.isEmpty {
                        requestFailure = error
                        return
                    }
                    failed = true
                    if !root.isRedacted { outputs.append((root.responseKey, .value(.null))) }
                    errors.append(
                        GraphQLError(message: error.message, path: [.field(root.responseKey)], code: error.code))
                    continue
                }
                let isCheck = error.code == .permissionDenied && root.subtree.contains { !$0.checks.isEmpty }
                if transactional {
                    try? connection.execute("ROLLBACK")
                    outputs = outputs.map { entry in
                        (entry.key, .value(.null))
                    }
                    for key in succeeded {
                        errors.append(GraphQLError(message: "(rolled back)", path: [.field(key)], code: .aborted))
                    }
                    properties = []
                    failed = true
                } else {
                    try? connection.execute("ROLLBACK")
                    if isCheck { failed = true }
                }
                if !root.isRedacted { outputs.append((root.responseKey, .value(.null))) }
                errors.append(
                    GraphQLError(
                        message: error.message, path: [.field(root.responseKey)], code: error.code,
                        debugDetails:
                            "\(error.code.name) in \(root.name) (operation \(operation.name)): \(error.message)"))
                _ = index
            }
        }
        if transactional && !failed {
            do {
                if let failure = engine.database.health?.failure {
                    try? connection.execute("ROLLBACK")
                    requestFailure = ExecutionError(code: .unavailable, message: failure.message, isRequestLevel: true)
                    return
                }
                try connection.execute("COMMIT")
            } catch {
                if error.kind == .damaged {
                    try? connection.execute("ROLLBACK")
                    requestFailure = .failedInDatabase(error)
                    return
                }
                try? connection.execute("ROLLBACK")
                outputs = outputs.map { ($0.key, .value(.null)) }
                errors = [GraphQLError(message: "commit failed: \(error.message)", path: [], code: .aborted)]
            }
        }
    }

    /// Whether a field of a mutation without `@transaction` runs alone, in autocommit
    /// (``StatementSource/commitsSingleStatementsAlone``): the source prefers it, and the field is one write
    /// statement with no `@check` below it (validation already asks for `@transaction` there), so that nothing
    /// could roll it back once it ran.
    func commitsAlone(_ root: FieldNode, on source: any StatementSource) throws(ExecutionError) -> Bool {
        guard source.commitsSingleStatementsAlone, root.remoteSchema == nil, let role = root.role,
            role != .mutationQuery, !root.subtree.contains(where: { !$0.checks.isEmpty })
        else { return false }
        if case .nativeSQL = role { return false }
        let plan = try operation.mutationPlan(
            for: root, role: role, resolution: resolution, entityIDs: entityIDs, context: planContext)
        return plan.statements.count == 1
    }

    /// Refuses to commit once the database was found damaged (by another request, or the integrity probe), even
    /// when this request's statements succeeded: no write is acknowledged after the damage is known.
    func refuseCommitIfDamaged() throws(ExecutionError) {
        guard let failure = engine.database.health?.failure else { return }
        throw ExecutionError(code: .unavailable, message: failure.message, isRequestLevel: true)
    }

    mutating func runMutationField(_ root: FieldNode, source: any StatementSource) throws(ExecutionError) {
        guard let role = root.role else {
            outputs.append((root.responseKey, .value(.string("Mutation"))))
            return
        }
        if root.remoteSchema != nil {
            try emit(root, output: try read(root, on: source))
            return
        }
        if role == .mutationQuery {
            let nested = root.children.filter { !resolution.skipped.contains($0.id) }
            var object = JSONObject()
            var pendingIDs: [DataConnectProperties] = []
            for child in nested {
                var value: JSONValue
                let derived: [Int: DerivedEntityID]
                switch try read(child, on: source) {
                case .raw(let bytes, let derivedIDs): (value, derived) = (try Self.parse(bytes), derivedIDs)
                case .value(let assembled, let derivedIDs): (value, derived) = (assembled, derivedIDs)
                }
                if entityIDs {
                    // Like a query's root field: the hidden keys never reach the response (nor `response.*`),
                    // and ids are reported only once every check of the field has passed.
                    var visible: [DataConnectProperties] = []
                    (value, visible) = Self.separateEntityIDs(
                        value, node: child, path: [.field(root.responseKey), .field(child.responseKey)],
                        derived: derived)
                    if !root.isRedacted && !child.isRedacted { pendingIDs += visible }
                }
                try check(child, value: value, reached: true)
                if !child.isRedacted { object[child.responseKey] = Self.redact(value, node: child) }
                bindings.response[child.responseKey] = value
            }
            try check(root, value: .object(object), reached: true)
            bindings.response[root.responseKey] = .object(object)
            properties += pendingIDs.map(PropertiesOutput.value)
            if !root.isRedacted { outputs.append((root.responseKey, .value(.object(object)))) }
            return
        }
        if case .nativeSQL(let field) = role {
            let value = try runNativeSQL(root, field: field, on: source)
            try check(root, value: value, reached: true)
            bindings.response[root.responseKey] = value
            if !root.isRedacted { outputs.append((root.responseKey, .value(value))) }
            return
        }
        let plan = try operation.mutationPlan(
            for: root, role: role, resolution: resolution, entityIDs: entityIDs, context: planContext)
        let result = try MutationRunner(source: source, binder: binder).run(plan)
        try check(root, value: result.json, reached: true)
        bindings.response[root.responseKey] = result.json
        // Entity ids and actions only for connectors with a client cache (never for admin calls).
        if !entityIDs {
            // nothing to record
        } else if result.entityIDs.count == 1, case .object = result.json {
            properties.append(
                .value(
                    DataConnectProperties(
                        path: [.field(root.responseKey)], entityId: result.entityIDs[0], action: result.action)))
        } else if !result.entityIDs.isEmpty {
            properties.append(
                .value(
                    DataConnectProperties(
                        path: [.field(root.responseKey)], entityIds: result.entityIDs, action: result.action)))
        } else if let action = result.action, case .number = result.json {
            properties.append(.value(DataConnectProperties(path: [.field(root.responseKey)], action: action)))
        }
        if !root.isRedacted { outputs.append((root.responseKey, .value(result.json))) }
    }

    // MARK: - Response

    func write(dataIsNull: Bool) -> EngineResponse {
        let outputs = self.outputs
        let properties = self.properties
        // Room for the text already rendered, so that a large answer is not copied as its buffer grows.
        var capacity = 1024
        for (_, output) in outputs { if case .raw(let bytes, _) = output { capacity += bytes.count } }
        for output in properties { if case .rendered(let rendered) = output { capacity += rendered.bytes.count } }
        var writer = JSONWriter(capacity: capacity)
        GraphQLResponse.write(to: &writer, errors: errors) { writer in
            for output in properties {
                switch output {
                case .value(let value): value.write(to: &writer)
                case .rendered(let rendered): rendered.write(to: &writer)
                }
            }
        } data: { writer in
            writer.key("data")
            if dataIsNull {
                writer.null()
                return
            }
            writer.beginObject()
            for (key, output) in outputs {
                writer.key(key)
                switch output {
                case .raw(let bytes, _): writer.raw(bytes)
                case .value(let value, _): writer.write(value)
                }
            }
            writer.endObject()
        }
        return EngineResponse(status: .ok, body: writer.bytes)
    }
}

extension FieldNode {
    /// Whether a field below this one is `@redact`ed (its rows, ids included, never reach the response).
    var hasRedactedDescendant: Bool {
        children.contains { $0.isRedacted || $0.hasRedactedDescendant }
    }
}
