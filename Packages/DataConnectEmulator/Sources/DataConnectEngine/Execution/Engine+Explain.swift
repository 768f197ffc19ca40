import DataConnectWire

extension Engine {
    /// The SQL the engine runs for each root read field of a connector operation, with the parameter
    /// values of these variables: for benchmarks, debugging and documentation.
    ///
    /// - Returns: one `(sql, parameters)` pair per root read field; empty for mutations or unknown operations.
    public func explain(
        connector: String, operationName: String, variables: JSONObject = [:]
    ) -> [(sql: String, parameters: [String])] {
        guard let operation = operations[connector]?[operationName], operation.kind == .query,
            let coerced = try? operation.coercer.coerce(variables)
        else { return [] }
        var execution = Execution(engine: self, operation: operation, variables: coerced, auth: nil, entityIDs: false)
        var resolver = ArgumentResolver(kinds: inputKinds, variables: coerced)
        resolver.resolve(nodesWithArguments: operation.nodesWithArguments)
        execution.resolution = resolver.resolution
        var result: [(sql: String, parameters: [String])] = []
        for root in operation.roots where !execution.resolution.skipped.contains(root.id) {
            guard
                let plan = try? operation.readPlan(
                    for: root, resolution: execution.resolution, entityIDs: false, context: planContext),
                let values = try? execution.binder.values(for: plan.statement)
            else { continue }
            result.append((plan.statement.sql, values.map { "\($0)" }))
        }
        return result
    }

    /// The tables (GraphQL type names) an operation touches, for tooling: the tables its selection reads and,
    /// for a mutation, the tables it may write (cascades included). Empty for an unknown operation.
    public func touchedTables(connector: String, operationName: String) -> Set<String> {
        guard let operation = operations[connector]?[operationName] else { return [] }
        let read = fieldTables(operation)
        return operation.kind == .mutation ? read.union(writtenTables(operation)) : read
    }

    /// The SQL dialect of the database the engine runs on (column types as the database declares them).
    public var sqlDialect: any SQLDialect { dialect }
}
