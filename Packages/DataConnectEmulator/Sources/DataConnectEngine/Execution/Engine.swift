import DataConnectCEL
import DataConnectSchema
import DataConnectWire
import GraphQLLanguage
import OutboundHTTP
import Synchronization

/// Database access as the engine needs it: concurrent reads, serialized writes.
public protocol DatabaseAccess: Sendable {
    /// Runs `body` with a reader connection (a consistent snapshot for its duration).
    func read<T>(_ body: (any StatementSource) throws -> T) throws -> T
    /// Runs `body` with the single writer connection; writes are serialized.
    func write<T>(_ body: (any StatementSource) throws -> T) throws -> T
    /// Whether the database is closing: running requests stop at their next check.
    var isClosing: Bool { get }
    /// Whether the database was found damaged; `nil` when the implementation does not track it.
    var health: StorageHealth? { get }
}

extension DatabaseAccess {
    /// Never closing, unless the implementation says otherwise.
    public var isClosing: Bool { false }

    /// Not tracked, unless the implementation says otherwise.
    public var health: StorageHealth? { nil }
}

/// Bounds on one request's execution, beside the bounds on its document (``OperationLimits``).
public struct ExecutionLimits: Sendable, Hashable {
    /// How long a request may run in the database before it is stopped with `DEADLINE_EXCEEDED`.
    public var requestTimeout: Duration
    /// The most terms (comparisons: the operators of `where` and `having` values) one statement's filters
    /// may hold.
    public var maximumFilterTerms: Int
    /// How long a request may run in the database before it moves to its server's slow lane (``SlowLanes``);
    /// `nil` never moves it.
    public var slowLaneAfter: Duration?

    /// Creates limits; every argument has the documented default.
    ///
    /// - Parameters:
    ///   - requestTimeout: 30 seconds by default.
    ///   - maximumFilterTerms: 1,000 by default.
    ///   - slowLaneAfter: 200 milliseconds by default.
    public init(
        requestTimeout: Duration = .seconds(30), maximumFilterTerms: Int = 1_000,
        slowLaneAfter: Duration? = .milliseconds(200)
    ) {
        self.requestTimeout = requestTimeout
        self.maximumFilterTerms = maximumFilterTerms
        self.slowLaneAfter = slowLaneAfter
    }

    /// The defaults.
    public static let `default` = ExecutionLimits()
}

/// One request to the engine.
public struct EngineRequest: Sendable {
    /// The kind of call.
    public enum Kind: Sendable {
        /// `:executeQuery` / `:executeMutation` of a deployed connector operation.
        case connector(connector: String, operationName: String, mutation: Bool)
        /// `:executeGraphql` (`readOnly: false`) or `:executeGraphqlRead` (`readOnly: true`): any GraphQL
        /// against the generated API.
        case admin(query: String, operationName: String?, readOnly: Bool)
    }

    /// What to run.
    public var kind: Kind
    /// The request's variables, as sent.
    public var variables: JSONObject
    /// The caller: a decoded token, impersonated claims, or `nil` when unauthenticated.
    public var auth: AuthContext?
    /// Whether `@auth` is enforced (connector calls, and admin calls that impersonate).
    public var enforceAuth: Bool
    /// When the caller stops waiting (a gRPC call's `grpc-timeout`): the request ends with `DEADLINE_EXCEEDED` then,
    /// or at the engine's own time limit (``ExecutionLimits/requestTimeout``) when that comes first. `nil`: the
    /// engine's limit only.
    public var deadline: ContinuousClock.Instant?
    /// Fired by the transport when the caller no longer wants the answer; the request then ends with `CANCELLED`.
    public var cancellation: RequestCancellation?

    /// Creates a request.
    public init(
        kind: Kind, variables: JSONObject = [:], auth: AuthContext? = nil, enforceAuth: Bool = true,
        deadline: ContinuousClock.Instant? = nil, cancellation: RequestCancellation? = nil
    ) {
        self.kind = kind
        self.variables = variables
        self.auth = auth
        self.enforceAuth = enforceAuth
        self.deadline = deadline
        self.cancellation = cancellation
    }
}

/// The engine's answer: a request-level status (OK means HTTP 200) and the JSON body.
public struct EngineResponse: Sendable {
    /// `ok` for a GraphQL response (which may still carry errors); otherwise a request-level failure.
    public var status: StatusCode
    /// The response body: a GraphQL response, or a request-level error body.
    public var body: [UInt8]
    /// For a mutation that ran: what it may have changed (for realtime subscriptions); `nil` otherwise.
    public var mutation: MutationEffect? = nil
}

/// The Data Connect engine: connector operations compiled once into SQL and executed against a database.
///
/// A request validates and binds variables, checks `@auth`, steps prepared statements and writes the
/// response bytes: SQLite renders each root field's JSON, so no per-row Swift objects are built.
public final class Engine: Sendable {
    /// The compiled service this engine serves.
    public let service: CompiledService
    let database: any DatabaseAccess
    let dialect: any SQLDialect
    /// Operations per connector id, then per name.
    let operations: [String: [String: CompiledOperation]]
    /// Connectors whose responses carry entity ids (`clientCache` in `connector.yaml`).
    let entityIDConnectors: Set<String>
    /// Problems found while compiling operations (invalid operations answer with them).
    public let issues: [String: [String: String]]
    /// Admin documents compiled once per text, the most recently used kept.
    let adminCache = Mutex(LRUCache<String, CompiledOperation>(capacity: 500))
    /// The bounds on the merged selection of every operation, connector or admin.
    let limits: OperationLimits
    /// The time and filter-size bounds of each request.
    public let executionLimits: ExecutionLimits
    /// Stops requests whose time limit passed.
    let deadlines: any DeadlineScheduler
    /// Computes `<field>_embed` and `compare_embed` vectors; `nil` when none is configured.
    let embeddings: (any EmbeddingProvider)?
    /// Sends custom resolver fields to their endpoints; `nil` when the engine makes no outbound calls.
    let transport: (any HTTPTransport)?
    /// The schema's introspection and SDL, computed once.
    let answers: SchemaAnswers
    /// The input types' kinds, for binding each request's arguments.
    let inputKinds: InputTypeKinds

    /// Compiles every valid operation of every connector.
    ///
    /// - Parameters:
    ///   - service: the compiled service; its connectors should be validated with the same `limits`.
    ///   - database: where the operations run.
    ///   - dialect: the SQL dialect of `database`.
    ///   - limits: the bounds on each operation's merged selection: a connector operation beyond them
    ///     answers as invalid, an admin document beyond them with `INVALID_ARGUMENT`.
    ///   - executionLimits: each request's time limit and filter size.
    ///   - deadlines: what interrupts a request when its time limit passes; the process's ``DeadlineWatchdog``
    ///     by default.
    ///   - embeddings: the provider of `<field>_embed` and `compare_embed` vectors; without one they answer
    ///     `FAILED_PRECONDITION`.
    ///   - transport: what custom resolver (`httpGraphql`) fields are sent through, `LiveHTTPTransport` from
    ///     OutboundHTTP in the emulator; without one they fail with `FAILED_PRECONDITION`.
    public init(
        service: CompiledService, database: any DatabaseAccess, dialect: any SQLDialect,
        limits: OperationLimits = .default, executionLimits: ExecutionLimits = .default,
        deadlines: any DeadlineScheduler = DeadlineWatchdog.shared, embeddings: (any EmbeddingProvider)? = nil,
        transport: (any HTTPTransport)? = nil
    ) {
        self.executionLimits = executionLimits
        self.deadlines = deadlines
        self.embeddings = embeddings
        self.transport = transport
        self.service = service
        self.answers = SchemaAnswers(api: service.api, schemaSources: service.project.schemaSources)
        self.inputKinds = InputTypeKinds(service.api.typeSystem)
        self.database = database
        self.dialect = dialect
        self.limits = limits
        var operations: [String: [String: CompiledOperation]] = [:]
        var issues: [String: [String: String]] = [:]
        var entityIDs: Set<String> = []
        let context = PlanContext(
            api: service.api, dialect: dialect, maximumFilterTerms: executionLimits.maximumFilterTerms,
            kinds: inputKinds)
        for connector in service.connectors {
            let id = connector.sources.manifest.connectorId
            if connector.sources.manifest.emitsEntityIds { entityIDs.insert(id) }
            var compiled: [String: CompiledOperation] = [:]
            for operation in connector.validated.operations {
                guard let name = operation.name?.value else { continue }
                if connector.validated.invalidOperations.contains(name) {
                    let messages = connector.validated.diagnostics.filter { $0.severity == .error }.map(\.description)
                    issues[id, default: [:]][name] = messages.joined(separator: "; ")
                    continue
                }
                do {
                    let operation = try CompiledOperation.compile(
                        operation, name: name, api: service.api, fragments: connector.validated.fragments,
                        kinds: inputKinds, limits: limits)
                    try operation.precompile(
                        entityIDs: connector.sources.manifest.emitsEntityIds, context: context)
                    compiled[name] = operation
                } catch {
                    issues[id, default: [:]][name] = error.message
                }
            }
            operations[id] = compiled
        }
        self.operations = operations
        self.issues = issues
        self.entityIDConnectors = entityIDs
    }

    /// What compiling statements needs: the API, the dialect and the filter bound.
    var planContext: PlanContext {
        PlanContext(
            api: service.api, dialect: dialect, maximumFilterTerms: executionLimits.maximumFilterTerms,
            kinds: inputKinds)
    }

    /// The connector ids this engine serves.
    public var connectorIDs: [String] { service.connectors.map(\.sources.manifest.connectorId) }

    /// Whether the database was found damaged (see ``StorageHealth``); `nil` when the database does not track it.
    public var storageHealth: StorageHealth? { database.health }

    /// The answer to every request once the database is found damaged: `UNAVAILABLE`, naming the database and
    /// the remedy.
    static func unavailable(_ failure: StorageFailure) -> EngineResponse {
        Self.failure(.unavailable, failure.message)
    }

    /// Executes one request.
    ///
    /// Once the database is found damaged (``storageHealth``), every request is answered `UNAVAILABLE`, and a
    /// request during which the damage was found is too: a write that committed then is not acknowledged.
    public func execute(_ request: EngineRequest) -> EngineResponse {
        if let failure = database.health?.failure { return Self.unavailable(failure) }
        let response = executeOnHealthyDatabase(request)
        if let failure = database.health?.failure { return Self.unavailable(failure) }
        return response
    }

    /// Executes one request on a database not known to be damaged.
    func executeOnHealthyDatabase(_ request: EngineRequest) -> EngineResponse {
        let admitted: Admitted
        switch admit(request) {
        case .success(let found): admitted = found
        case .failure(let failure): return failure.response
        }
        var execution = makeExecution(admitted, request)
        return withMutationEffect(execution.run(), admitted, request)
    }

    /// A request that may run: its operation, its coerced variables, and whether its answer carries entity ids.
    struct Admitted {
        let operation: CompiledOperation
        let variables: JSONObject
        let entityIDs: Bool
    }

    /// Finds the request's operation and checks it may run now: the operation exists and matches the call,
    /// `@auth` admits the caller, the variables coerce, and the caller still waits.
    func admit(_ request: EngineRequest) -> Result<Admitted, Failure> {
        let operation: CompiledOperation
        var entityIDs = false
        switch request.kind {
        case .connector(let connector, let name, let mutation):
            guard let connectorOperations = operations[connector] else {
                return .failure(
                    Failure(
                        .notFound,
                        "connector \"\(connector)\" not found in service \"\(service.project.config.serviceId)\""))
            }
            guard let found = connectorOperations[name] else {
                if let issue = issues[connector]?[name] {
                    return .failure(Failure(.failedPrecondition, "operation \"\(name)\" is invalid: \(issue)"))
                }
                return .failure(Failure(.notFound, "operation \"\(name)\" not found"))
            }
            if (found.kind == .mutation) != mutation {
                let expected = found.kind == .mutation ? "executeMutation" : "executeQuery"
                return .failure(
                    Failure(
                        .invalidArgument, "operation \"\(name)\" is a \(found.kind.rawValue); call it with :\(expected)"
                    ))
            }
            operation = found
            entityIDs = entityIDConnectors.contains(connector)
        case .admin(let query, let operationName, let readOnly):
            switch adminOperation(query, operationName: operationName) {
            case .success(let compiled): operation = compiled
            case .failure(let failure): return .failure(failure)
            }
            if readOnly && operation.kind == .mutation {
                return .failure(Failure(.permissionDenied, "executeGraphqlRead cannot run a mutation"))
            }
        }
        if request.enforceAuth, let failure = authorize(operation, request: request) {
            return .failure(Failure(response: failure))
        }
        let variables: JSONObject
        do {
            variables = try operation.coercer.coerce(request.variables)
        } catch {
            return .failure(Failure(.invalidArgument, error.message))
        }
        if request.cancellation?.isCancelled == true {
            return .failure(Failure(.cancelled, RequestBudget.cancelledMessage))
        }
        if let deadline = request.deadline, deadline <= .now {
            return .failure(Failure(.deadlineExceeded, RequestBudget.callerDeadlineMessage))
        }
        return .success(Admitted(operation: operation, variables: variables, entityIDs: entityIDs))
    }

    /// The run of an admitted request.
    func makeExecution(_ admitted: Admitted, _ request: EngineRequest) -> Execution {
        Execution(
            engine: self, operation: admitted.operation, variables: admitted.variables, auth: request.auth,
            entityIDs: admitted.entityIDs, callerDeadline: request.deadline, cancellation: request.cancellation)
    }

    /// `response`, with what the request may have changed when it ran a mutation.
    func withMutationEffect(
        _ response: EngineResponse, _ admitted: Admitted, _ request: EngineRequest
    )
        -> EngineResponse
    {
        guard admitted.operation.kind == .mutation else { return response }
        var response = response
        var connector: String?
        if case .connector(let id, _, _) = request.kind { connector = id }
        response.mutation = MutationEffect(
            connector: connector, operationName: admitted.operation.name, variables: admitted.variables,
            auth: request.auth, tables: writtenTables(admitted.operation))
        return response
    }

    struct Failure: Error {
        let response: EngineResponse

        init(response: EngineResponse) {
            self.response = response
        }

        /// A request-level failure with its status.
        init(_ status: StatusCode, _ message: String) {
            self.response = Engine.failure(status, message)
        }
    }

    /// Parses, validates and compiles an admin document (cached by text).
    func adminOperation(_ query: String, operationName: String?) -> Result<CompiledOperation, Failure> {
        let cacheKey = (operationName ?? "") + "\u{0}" + query
        if let cached = adminCache.withLock({ $0[cacheKey] }) { return .success(cached) }
        let validated = OperationValidator.validate(
            [Source(name: "request", text: query)], api: service.api, mode: .admin, limits: limits)
        let errors = validated.diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            return .failure(
                Failure(response: Self.failure(.invalidArgument, errors.map(\.description).joined(separator: "\n"))))
        }
        let candidates = validated.operations.filter { operationName == nil || $0.name?.value == operationName }
        guard let definition = candidates.first else {
            return .failure(
                Failure(response: Self.failure(.notFound, "operation \"\(operationName ?? "")\" not found")))
        }
        if operationName == nil && validated.operations.count > 1 {
            return .failure(
                Failure(
                    response: Self.failure(
                        .invalidArgument, "the document has several operations; operationName is required")))
        }
        do {
            let compiled = try CompiledOperation.compile(
                definition, name: definition.name?.value ?? "", api: service.api, fragments: validated.fragments,
                kinds: inputKinds, limits: limits)
            adminCache.withLock { $0[cacheKey] = compiled }
            return .success(compiled)
        } catch {
            return .failure(Failure(response: Self.failure(.invalidArgument, error.message)))
        }
    }

    /// `@auth`: the level table, or the expression; no `@auth` means NO_ACCESS.
    func authorize(_ operation: CompiledOperation, request: EngineRequest) -> EngineResponse? {
        switch operation.auth {
        case nil:
            return Self.failure(
                .permissionDenied,
                "operation \"\(operation.name)\" has no @auth directive, so only admin calls may run it (NO_ACCESS)")
        case .level(let level)?:
            switch DataConnectEngine.authorize(level: level, auth: request.auth) {
            case .allowed: return nil
            case .unauthenticated(let message): return Self.failure(.unauthenticated, message)
            case .permissionDenied(let message): return Self.failure(.permissionDenied, message)
            }
        case .expression(let expression)?:
            let bindings = CELBindings(
                auth: request.auth?.celValue ?? .null, vars: request.variables, requestTime: Instant.now.storageText)
            do {
                if try expression.evaluateCondition(in: bindings) { return nil }
                return Self.failure(.permissionDenied, "@auth(expr:) denied the request")
            } catch {
                // An expression that cannot be evaluated refuses the request as a false one does, with
                // PERMISSION_DENIED; UNAUTHENTICATED is only for an unmet `@auth(level:)`.
                if case .unauthenticated = error {
                    return Self.failure(
                        .permissionDenied,
                        "@auth(expr:) denied the request: it reads auth, and the caller is not signed in")
                }
                return Self.failure(.permissionDenied, "@auth(expr:) failed: \(error.message)")
            }
        }
    }

    /// A request-level error body with its status.
    static func failure(_ status: StatusCode, _ message: String) -> EngineResponse {
        var writer = JSONWriter(capacity: 256)
        RequestError(status: status, message: message).write(to: &writer)
        return EngineResponse(status: status, body: writer.bytes)
    }
}
