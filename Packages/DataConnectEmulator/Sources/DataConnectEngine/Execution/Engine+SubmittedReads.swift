import DataConnectWire

/// What became of a read statement the engine left to its caller to run (``PendingRead``).
public enum SubmittedReadOutcome: Sendable {
    /// The first column of the first row as text: the field's JSON; `nil` for SQL NULL or no row.
    case value([UInt8]?)
    /// The database refused to prepare the statement.
    case notPrepared(DatabaseError)
    /// The statement failed while it ran (its time limit, a stop, a lost connection included).
    case failed(DatabaseError)
}

/// How a request started with ``Engine/start(_:)`` goes on.
public enum EngineStart {
    /// The request ran to its answer.
    case finished(EngineResponse)
    /// The request's one statement is for the caller to run; ``PendingRead/finish(_:)`` then gives the answer.
    case read(PendingRead)
}

/// A query whose answer is one read statement's JSON, left to the caller to run: a server that waits for many
/// connections' statements at once (PostgreSQL's pipeline mode) sends ``sql`` with ``parameters`` without blocking a
/// thread per request, and hands the outcome back to ``finish(_:)``.
///
/// Everything before the statement (the operation found, `@auth` and the variables checked, the arguments
/// resolved and bound) has run; everything after it (`@check`, entity ids, the response's text) runs in
/// ``finish(_:)``. The statement reads a snapshot of its own, as a query of one field does on the engine's own path.
public struct PendingRead {
    /// The statement, in the dialect's SQL.
    public let sql: String
    /// The values of its placeholders, in storage form.
    public let parameters: [DatabaseValue]
    /// The request's time limit, for the database's statement timeout.
    public let timeout: Duration
    let engine: Engine
    let request: EngineRequest
    let admitted: Engine.Admitted
    var execution: Execution
    let root: FieldNode
    let derived: [Int: DerivedEntityID]

    /// The answer, given the statement's outcome.
    public func finish(_ outcome: SubmittedReadOutcome) -> EngineResponse {
        var execution = self.execution
        var failure: ExecutionError?
        switch outcome {
        case .value(let bytes):
            do throws(ExecutionError) {
                try execution.emit(root, output: .raw(bytes ?? Array("null".utf8), derived: derived))
            } catch {
                failure = error
            }
        case .notPrepared(let error):
            failure = .refusedByDatabase(error)
        case .failed(let error):
            failure = .failedInDatabase(error)
        }
        let response = execution.conclude(failure)
        if let damage = engine.database.health?.failure { return Engine.unavailable(damage) }
        return response
    }

    /// The answer, the statement run on the calling thread through the engine's own path, for a caller that cannot
    /// wait for it elsewhere after all.
    public func runHere() -> EngineResponse {
        engine.execute(request)
    }
}

extension Engine {
    /// Where this engine's operations run.
    public var databaseAccess: any DatabaseAccess { database }

    /// Starts a request, leaving its statement to the caller when the request is a query answered by one read
    /// statement's JSON (one root field served by a compiled plan, no splits, no embeddings, no caller deadline or
    /// cancellation); runs it to its answer otherwise, as ``execute(_:)`` does.
    ///
    /// - Parameter beforeRunningHere: Called before the engine runs the request's statements itself (not for a
    ///   request refused before any statement, nor for one left to the caller): for a caller that holds database
    ///   connections to give back first.
    public func start(_ request: EngineRequest, beforeRunningHere: () -> Void = {}) -> EngineStart {
        if let failure = database.health?.failure { return .finished(Self.unavailable(failure)) }
        let admitted: Admitted
        switch admit(request) {
        case .success(let found): admitted = found
        case .failure(let failure): return .finished(failure.response)
        }
        var execution = makeExecution(admitted, request)
        if admitted.operation.kind == .query, request.deadline == nil, request.cancellation == nil,
            let read = execution.submittableRead()
        {
            return .read(
                PendingRead(
                    sql: read.plan.statement.sql, parameters: read.values, timeout: executionLimits.requestTimeout,
                    engine: self, request: request, admitted: admitted, execution: execution, root: read.root,
                    derived: read.plan.derivedEntityIDs))
        }
        beforeRunningHere()
        let response = withMutationEffect(execution.run(), admitted, request)
        if let failure = database.health?.failure { return .finished(Self.unavailable(failure)) }
        return .finished(response)
    }
}

extension Execution {
    /// The one statement that answers this query, with its values, when there is exactly one: a single root field
    /// (after `@skip` and `@include`) served by a compiled plan that needs no assembly, with no embeddings to
    /// compute. `nil` otherwise, and when planning or binding fails (the engine's own path then reports it).
    mutating func submittableRead() -> (root: FieldNode, plan: ReadPlan, values: [DatabaseValue])? {
        guard operation.embeddingNodes.isEmpty else { return nil }
        var resolver = ArgumentResolver(kinds: engine.inputKinds, variables: variables)
        resolver.resolve(nodesWithArguments: operation.nodesWithArguments, bindings: operation.argumentBindings)
        resolution = resolver.resolution
        var found: FieldNode?
        for root in operation.roots where !resolution.skipped.contains(root.id) {
            guard found == nil else { return nil }
            found = root
        }
        guard let root = found, root.remoteSchema == nil else { return nil }
        switch root.role {
        case nil, .service?, .nativeSQL?: return nil
        default: break
        }
        guard
            let plan = try? operation.readPlan(
                for: root, resolution: resolution, entityIDs: entityIDs, context: planContext),
            !plan.needsAssembly,
            let values = try? binder.values(for: plan.statement)
        else { return nil }
        return (root, plan, values)
    }
}
