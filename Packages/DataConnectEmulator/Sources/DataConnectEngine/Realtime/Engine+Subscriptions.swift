import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

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
        if let refusal = remoteFieldsRefusal(operation) { return .refused(refusal) }
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
        var tables = fieldTables(operation)
        var resolver = ArgumentResolver(kinds: inputKinds, variables: variables)
        resolver.resolve(nodesWithArguments: operation.nodesWithArguments)
        for root in operation.roots where !resolver.resolution.skipped.contains(root.id) {
            // Native SQL may read any table; introspection and `_service` read none.
            if case .nativeSQL? = root.role { return allTables }
            guard root.hasReadPlan else { continue }
            // The tables the compiler recorded as it wrote the statements (so filters on relations count).
            guard
                let plan = try? operation.readPlan(
                    for: root, resolution: resolver.resolution, entityIDs: entityIDConnectors.contains(connector),
                    context: planContext)
            else { return allTables }
            tables.formUnion(plan.tables)
        }
        // Relations name tables by type or SQL name; keep type names only.
        let read = Set(
            tables.compactMap { name in model.table(name)?.name ?? model.tables.first { $0.sqlName == name }?.name })
        // A view may read any table.
        return read.contains { model.table($0)?.isView == true } ? allTables : read
    }

    /// The tables the fields of an operation's selection read: their roles' tables, relations' targets and join
    /// tables (not the tables filters reach: those the statements name).
    func fieldTables(_ operation: CompiledOperation) -> Set<String> {
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
        return tables
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
            case .nativeSQL:
                // Which tables a native statement writes is unknown without parsing its SQL: all of them.
                return allTables
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
