import AuthEmulator
import DataConnectEngine
import DataConnectSchema
import DataConnectWire
import EmulatorHTTP
import Foundation
import GraphQLLanguage
import OutboundHTTP
import Synchronization

/// Why the emulator could not start or do what was asked.
public struct EmulatorError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with the diagnostics when the backend does not compile.
    public var message: String
    /// The status an HTTP caller gets for it (`POST /emulator/configure`); FAILED_PRECONDITION by default.
    public var status: StatusCode
    /// The `file:line:col: error:` diagnostics behind the error, when the backend or the seed file is refused;
    /// the same lines `dataconnect validate` prints.
    public var diagnostics: [Diagnostic] = []

    /// Creates an error.
    public init(_ message: String, status: StatusCode = .failedPrecondition) {
        self.message = message
        self.status = status
    }

    /// Creates the error of a refused backend or seed file: its message is the diagnostics, one per line.
    public init(diagnostics: [Diagnostic], status: StatusCode = .failedPrecondition) {
        self.message = diagnostics.map(\.description).joined(separator: "\n")
        self.status = status
        self.diagnostics = diagnostics
    }

    public var description: String { message }

    /// The error as the admin API answers it.
    var requestError: RequestError { RequestError(status: status, message: message) }
}

/// The Data Connect emulator: a backend directory compiled, a database (SQLite, or PostgreSQL) migrated to its
/// schema, and the service served over HTTP.
///
/// ```swift
/// let emulator = try Emulator(options: .init(backend: "Backend/movies", port: 0))
/// try emulator.start()
/// print(emulator.url)          // http://127.0.0.1:<port>
/// emulator.stop()
/// ```
public final class Emulator: Sendable {
    /// How to run the emulator.
    public struct Options: Sendable {
        /// The folder holding `dataconnect.yaml`; `nil` to start with no service and wait for
        /// `POST /emulator/configure` (or ``Emulator/configure(_:)``) to name one.
        public var backend: String?
        /// The address to listen on.
        public var host: String
        /// The port; 0 picks a free one.
        public var port: UInt16
        /// Where the database file lives; in memory when `nil`. Ignored when ``postgreSQL`` is set.
        public var dataDirectory: String?
        /// A PostgreSQL connection string (`postgres://user@host:port/db?sslmode=disable`, or `key=value` pairs):
        /// serve from that database instead of the embedded SQLite one.
        public var postgreSQL: String?
        /// An admin GraphQL file run after start when the database is empty (e.g. `seed_data.gql`; see
        /// ``Emulator/seedIfEmpty(fromFile:)``).
        public var seedFile: String?
        /// An export directory (`dataconnect_export/sqlite.db`) loaded at start.
        public var importDirectory: String?
        /// Where to export the data when the emulator stops.
        public var exportOnExit: String?
        /// Whether to watch the backend directory and reload on changes.
        public var watch: Bool
        /// The number of reader connections (on SQLite, beside the writer); on PostgreSQL, the pool holds one more.
        public var readers: Int
        /// The number of HTTP worker threads, and of request-lane threads for requests that are not slow.
        public var threads: Int
        /// How many requests may run at once past their short budget (``ExecutionLimits/slowLaneAfter``); one
        /// more is stopped with `RESOURCE_EXHAUSTED`. Below ``readers``, so that cheap reads always find a
        /// connection.
        public var slowLaneCapacity: Int
        /// Where progress and diagnostics go.
        public var log: @Sendable (String) -> Void
        /// Realtime subscriptions: heartbeat interval, per-client limit, `@refresh(every:)` clamping.
        public var realtime: SubscriptionHub.Configuration
        /// Host names or addresses requests may name in `Host` besides the loopback ones and `host`
        /// (`mybox.local`; `.example.test` for a domain and its subdomains); others are refused with 403.
        public var allowedHosts: [String]
        /// Web origins (`scheme://host[:port]`) whose pages may call the client and the admin API, besides
        /// loopback origins (client API only) and the emulator's own origin.
        public var allowedOrigins: [String]
        /// The bounds on each operation's merged selection (fields, depth, aliases), checked before any SQL runs.
        public var limits: OperationLimits
        /// Each request's time limit and the size of its filters.
        public var executionLimits: ExecutionLimits
        /// Where the realtime hub schedules heartbeats and `@refresh(every:)` re-runs: the wall clock, or a
        /// ``ManualClock`` that tests advance.
        public var clock: any EmulatorClock
        /// How often the SQLite database file is probed for damage while there were writes since the last probe
        /// (see ``DataStore/probeIntegrity()``); scheduled on ``clock``. 5 seconds by default.
        public var integrityProbeInterval: Duration = .seconds(5)
        /// Whether to serve the browser console at `/` (on by default).
        public var console: Bool
        /// Whether to serve the Firebase Auth emulator's API on the emulator's port (on by default).
        public var auth: Bool
        /// A second port serving only the Auth API, as firebase-tools' Auth emulator on 9099; 0 picks a free one.
        public var authPort: UInt16?
        /// The project key-based Auth calls act on (the CLI reads `$FIREBASE_PROJECT_ID` / `$GCLOUD_PROJECT`).
        public var projectID: String
        /// The provider of `_embed` vectors, winning over the service's `emulator.embeddings` in `dataconnect.yaml`;
        /// with neither, `_embed` answers `FAILED_PRECONDITION`.
        public var embeddings: EmbeddingsSetting?
        /// What outbound calls go through: custom resolver fields and embedding providers. A ``LiveHTTPTransport``
        /// by default.
        public var transport: any HTTPTransport = LiveHTTPTransport()
        /// Where the embedding providers read their settings and credentials (`GOOGLE_APPLICATION_CREDENTIALS`, …):
        /// the process environment by default.
        public var environment: [String: String] = ProcessInfo.processInfo.environment

        /// Creates options; everything but the backend has a default.
        public init(
            backend: String?, host: String = "127.0.0.1", port: UInt16 = 9399, dataDirectory: String? = nil,
            postgreSQL: String? = nil, seedFile: String? = nil, importDirectory: String? = nil,
            exportOnExit: String? = nil, watch: Bool = false,
            readers: Int = 3, threads: Int = HTTPServer.Configuration.onlineCoreCount,
            log: @escaping @Sendable (String) -> Void = { _ in },
            realtime: SubscriptionHub.Configuration = SubscriptionHub.Configuration(),
            allowedHosts: [String] = [], allowedOrigins: [String] = [], limits: OperationLimits = .default,
            executionLimits: ExecutionLimits = .default, clock: any EmulatorClock = LiveClock(),
            console: Bool = true, auth: Bool = true, authPort: UInt16? = nil, projectID: String = "demo-project",
            slowLaneCapacity: Int? = nil, embeddings: EmbeddingsSetting? = nil
        ) {
            self.embeddings = embeddings
            self.slowLaneCapacity = max(1, slowLaneCapacity ?? max(1, readers - 1))
            self.console = console
            self.auth = auth
            self.authPort = authPort
            self.projectID = projectID
            self.clock = clock
            self.realtime = realtime
            self.allowedHosts = allowedHosts
            self.allowedOrigins = allowedOrigins
            self.limits = limits
            self.executionLimits = executionLimits
            self.backend = backend
            self.host = host
            self.port = port
            self.dataDirectory = dataDirectory
            self.postgreSQL = postgreSQL
            self.seedFile = seedFile
            self.importDirectory = importDirectory
            self.exportOnExit = exportOnExit
            self.watch = watch
            self.readers = readers
            self.threads = threads
            self.log = log
        }
    }

    /// The emulator's version, reported by `/emulator/info` and in export metadata.
    public static let version = "0.1.0"

    /// The options it runs with.
    public let options: Options
    /// The fast lane's threads: one per HTTP worker; on PostgreSQL at least one per pooled connection, since a
    /// request there mostly waits for the server's answer, and with fewer threads than connections the pool's
    /// others would sit idle while the cores do too.
    static func fastWorkers(_ options: Options) -> Int {
        let workers = max(1, options.threads)
        return options.postgreSQL == nil ? workers : max(workers, options.readers + 1)
    }

    /// The database served from now: the one the options name, or the PostgreSQL database a
    /// `POST /emulator/configure` named since.
    public var store: any DataStore { served.withLock { $0.store } }
    /// Which database ``store`` is.
    public var storeConfiguration: StoreConfiguration { served.withLock { $0.configuration } }
    /// The store served from and the configuration it was opened with, replaced together.
    let served: Mutex<(store: any DataStore, configuration: StoreConfiguration)>
    /// The HTTP responder: call it in-process to test routing without sockets.
    public let responder: EmulatorResponder
    let server: HTTPServer
    /// The Firebase Auth emulator, when ``Options/auth`` is on.
    public let auth: AuthEmulator?
    /// The server of ``Options/authPort``.
    let authServer: HTTPServer?
    let watcher = Mutex<BackendWatcher?>(nil)
    let stopped = Atomic<Bool>(false)
    /// The next run of the integrity probe, while serving.
    let nextProbe = Mutex<ScheduledAction?>(nil)
    /// The folder the served service was loaded from: the backend option, then the last configured one.
    let backendDirectory: Mutex<String?>
    /// Lets the responder's maintenance actions reach the emulator without keeping it alive.
    private let handle = Handle()
    /// The embedding provider of each engine built.
    let embeddings: EmbeddingProviders

    /// A weak reference to the emulator, set once it is initialized.
    private final class Handle: Sendable {
        private struct Reference {
            weak var emulator: Emulator?
        }
        private let reference = Mutex(Reference())

        /// The emulator, while it exists.
        var emulator: Emulator? {
            get { reference.withLock { $0.emulator } }
            set { reference.withLock { $0.emulator = newValue } }
        }
    }

    /// Compiles the backend, opens and migrates the database, imports and seeds; does not listen yet.
    ///
    /// - Throws: ``EmulatorError`` with the diagnostics when the backend does not compile, when an allowed host
    ///   or origin is malformed, or when the database cannot be opened, migrated, imported or seeded.
    public init(options: Options) throws(EmulatorError) {
        self.options = options
        let originPolicy: RequestOriginPolicy
        do {
            originPolicy = try RequestOriginPolicy(
                listenAddress: options.host, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins)
        } catch {
            throw EmulatorError(error.description)
        }
        let service: CompiledService
        if let backend = options.backend {
            service = try Self.compile(backend, limits: options.limits, log: options.log)
        } else {
            service = Self.unconfiguredService()
            options.log("no backend given: waiting for POST /emulator/configure")
        }
        backendDirectory = Mutex(options.backend)
        let handle = self.handle
        let configuration = StoreConfiguration(options)
        let store = try configuration.open()
        served = Mutex((store, configuration))
        options.log("database: \(store.summary.description)")
        options.log("request threads: \(Self.fastWorkers(options))")
        Self.logDamage(of: store, log: options.log)
        try Self.migrate(service, store: store, log: options.log)
        if let directory = options.importDirectory {
            do {
                let report = try store.importData(from: directory)
                options.log("imported \(report.rows) rows from \(directory)")
            } catch {
                throw EmulatorError("cannot import \(directory): \(error)")
            }
        }
        let embeddings = EmbeddingProviders(
            option: options.embeddings, environment: options.environment, transport: options.transport,
            log: options.log)
        self.embeddings = embeddings
        let engine = Engine(
            service: service, database: store.access, dialect: store.dialect, limits: options.limits,
            executionLimits: options.executionLimits, embeddings: embeddings.provider(for: service),
            transport: options.transport)
        Self.report(engine, database: store.summary.kind, log: options.log)
        let hub = SubscriptionHub(engine: engine, configuration: options.realtime, clock: options.clock)
        Self.connect(hub, to: store)
        let auth = try Self.openAuth(options)
        self.auth = auth
        authServer = Self.authServer(auth, options: options, originPolicy: originPolicy)
        responder = EmulatorResponder(
            engine: engine, version: Self.version, hub: hub, originPolicy: originPolicy, database: store.summary,
            console: options.console, auth: auth
        ) {
            request in
            do {
                switch request {
                case .clear:
                    guard let emulator = handle.emulator else {
                        return .failure(RequestError(status: .unavailable, message: "the emulator is stopping"))
                    }
                    try emulator.store.clear()
                    return .success("cleared every table")
                case .export(let path):
                    guard let emulator = handle.emulator else {
                        return .failure(RequestError(status: .unavailable, message: "the emulator is stopping"))
                    }
                    let file = try emulator.store.export(to: path, version: Emulator.version)
                    try emulator.auth?.export(to: path)
                    return .success("exported to \(file)")
                case .configure(let configuration):
                    guard let emulator = handle.emulator else {
                        return .failure(RequestError(status: .unavailable, message: "the emulator is stopping"))
                    }
                    do throws(EmulatorError) {
                        return .success(try emulator.configure(configuration))
                    } catch {
                        return .failure(error.requestError)
                    }
                }
            } catch {
                return .failure(RequestError(status: .internal, message: "internal error: \(error)"))
            }
        }
        var serverConfiguration = HTTPServer.Configuration(threadPoolSize: max(1, options.threads))
        serverConfiguration.requestLanes = RequestLanes.Configuration(
            fastWorkers: Self.fastWorkers(options), slowLaneCapacity: options.slowLaneCapacity)
        serverConfiguration.laneThreadStarted = { worker in SlowLanes.register(EngineSlowLane(worker)) }
        responder.embeddings.withLock { $0 = embeddings }
        let server = HTTPServer(
            host: options.host, port: options.port, configuration: serverConfiguration, responder: responder)
        self.server = server
        responder.grpcStatistics.withLock { $0 = { [weak server] in server?.grpcStatistics ?? GRPCStatistics() } }
        if let seed = options.seedFile {
            try self.validateSeed(fromFile: seed)
            try self.seedIfEmpty(fromFile: seed)
        }
        handle.emulator = self
    }

    deinit {
        stop()
    }

    /// The engine currently served.
    public var engine: Engine { responder.engine }

    /// Starts listening (and watching, when asked).
    public func start() throws(EmulatorError) {
        do {
            try server.start()
            try authServer?.start()
        } catch {
            throw EmulatorError("\(error)")
        }
        watch()
        scheduleIntegrityProbe()
    }

    /// Watches the current backend folder, when asked to watch and there is one, replacing any earlier watcher.
    private func watch() {
        guard options.watch, !stopped.load(ordering: .acquiring) else { return }
        let directory = backendDirectory.withLock { $0 }
        let watcher = directory.flatMap { BackendWatcher(directory: $0) { [weak self] in self?.reload() } }
        watcher?.start()
        let previous = self.watcher.withLock { current in
            defer { current = watcher }
            return current
        }
        previous?.stop()
    }

    /// The base URL, e.g. `http://127.0.0.1:9399`.
    public var url: String { "http://\(options.host):\(server.port)" }

    /// The bound port.
    public var port: UInt16 { server.port }

    /// Stops watching and serving, then exports when `exportOnExit` is set. Idempotent.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        watcher.withLock {
            $0?.stop()
            $0 = nil
        }
        nextProbe.withLock { $0?.cancel() }
        responder.hub.shutdown()
        // Requests still running in the database stop now, so the HTTP workers finish and the server can stop.
        store.beginClosing()
        server.stop()
        authServer?.stop()
        do {
            try store.close()
        } catch {
            options.log("warning: could not close the database cleanly: \(error)")
        }
        if let directory = options.exportOnExit, let failure = store.health.failure {
            options.log("error: no export to \(directory): the database \(failure.location) is damaged")
        } else if let directory = options.exportOnExit {
            do {
                let file = try store.export(to: directory, version: Self.version)
                try auth?.export(to: directory)
                options.log("exported the data to \(file)")
            } catch {
                options.log("error: export to \(directory) failed: \(error)")
            }
        }
    }

    /// Empties every table, keeping the schema.
    public func clear() throws(EmulatorError) {
        do {
            try store.clear()
            responder.hub.tablesChanged(engine.allTables)
        } catch {
            throw EmulatorError("clearing the data failed: \(error)")
        }
    }

    /// Runs an admin GraphQL document (no `@auth` checks), as seed files are run.
    public func executeAdmin(_ query: String, variables: JSONObject = [:]) -> EngineResponse {
        let response = engine.execute(
            EngineRequest(
                kind: .admin(query: query, operationName: nil, readOnly: false), variables: variables,
                enforceAuth: false))
        if let effect = response.mutation { responder.hub.mutationExecuted(effect) }
        return response
    }

    /// Runs a seed file, whatever the database holds (``seedIfEmpty(fromFile:)`` is what `--seed` does); fails
    /// when the response carries errors, naming the file and, where found, the failing mutation field's line and
    /// column (`dataconnect/seed_data.gql:3:3: duplicate key value ...`).
    public func seed(fromFile path: String) throws(EmulatorError) {
        let seed = try SeedFile(path: path)
        let response = executeAdmin(seed.text)
        let body = (try? JSONValue(parsing: response.body)) ?? .null
        if response.status != .ok {
            throw EmulatorError(
                "the seed file \(path) failed: \(body["error"]?["message"]?.stringValue ?? "\(response.status)")")
        }
        if let errors = body["errors"]?.arrayValue, !errors.isEmpty {
            let lines = seed.failureLines(errors)
            throw EmulatorError(
                "the seed file failed:" + (lines.count == 1 ? " " : "\n") + lines.joined(separator: "\n"))
        }
        options.log("seeded from \(path)")
    }

    /// Recompiles the backend; on success migrates additively and serves the new version, otherwise keeps
    /// serving the last good one and logs the diagnostics.
    public func reload() {
        guard let directory = backendDirectory.withLock({ $0 }) else { return }
        options.log("reloading \(directory)")
        do throws(EmulatorError) {
            try load(directory, expectedServiceID: nil)
            options.log("reloaded: serving the new schema and connectors")
        } catch {
            options.log(Self.reloadRefusal(error))
        }
    }

    /// The one line a refused reload logs: the first diagnostic (or the message), how many more, and that the last
    /// good version is still served.
    static func reloadRefusal(_ error: EmulatorError) -> String {
        guard let first = error.diagnostics.first else {
            return "error: \(error.message); still serving the last good version"
        }
        let more = error.diagnostics.count > 1 ? " (and \(error.diagnostics.count - 1) more)" : ""
        return "reload refused: \(first.description)\(more); still serving the last good version"
    }

    /// Whether a service is being served: a backend was given at start or configured since.
    public var isConfigured: Bool { backendDirectory.withLock { $0 != nil } }

    /// Loads (or reloads) the service in a `dataconnect` folder while running, as `POST /emulator/configure` does.
    ///
    /// The folder is compiled; when it has errors, the emulator keeps serving what it served and throws. Otherwise the
    /// database is migrated additively, the new service is served from now on (requests in flight finish on the old
    /// one, subscriptions of operations that changed are cancelled), and the folder becomes the one `reload()` and
    /// `--watch` follow.
    ///
    /// - Parameter request: The folder (`config_directory`), and optionally the service id it must declare.
    /// - Returns: A one-line description of what is served now.
    /// - Throws: ``EmulatorError`` when the request names no folder, asks for PostgreSQL, names a service the folder
    ///   does not declare, or the folder does not compile or migrate.
    @discardableResult
    public func configure(_ request: ConfigureRequest) throws(EmulatorError) -> String {
        if let connectionString = request.connectionString {
            try switchDatabase(to: connectionString)
            if request.configDirectory == nil, backendDirectory.withLock({ $0 }) == nil {
                let message = "serving from \(store.summary.description)"
                options.log(message)
                return message
            }
        }
        guard let directory = request.configDirectory ?? backendDirectory.withLock({ $0 }) else {
            throw EmulatorError(
                "POST /emulator/configure needs \"config_directory\": the folder holding dataconnect.yaml",
                status: .invalidArgument)
        }
        let serviceID = try load(directory, expectedServiceID: request.serviceID)
        backendDirectory.withLock { $0 = directory }
        watch()
        let message = "serving service \"\(serviceID)\" from \(directory)"
        options.log(message)
        return message
    }

    /// Compiles, checks, migrates and serves the backend in `directory`; returns its service id.
    @discardableResult
    private func load(_ directory: String, expectedServiceID: String?) throws(EmulatorError) -> String {
        let service = try Self.compile(directory, limits: options.limits, log: options.log)
        let serviceID = service.project.config.serviceId
        if let expectedServiceID, expectedServiceID != serviceID {
            throw EmulatorError(
                "service_id \"\(expectedServiceID)\" does not match serviceId \"\(serviceID)\" in \(service.project.configFile)",
                status: .invalidArgument)
        }
        try Self.migrate(service, store: store, log: options.log)
        let engine = Engine(
            service: service, database: store.access, dialect: store.dialect, limits: options.limits,
            executionLimits: options.executionLimits, embeddings: embeddings.provider(for: service),
            transport: options.transport)
        Self.report(engine, database: store.summary.kind, log: options.log)
        responder.replace(engine)
        return serviceID
    }

    /// The service served before any is configured: no tables, no connectors, an empty service id.
    static func unconfiguredService() -> CompiledService {
        let project = Project(
            directory: "", configFile: "", config: ServiceConfig(serviceId: "", location: ""), schemaSources: [],
            connectors: [])
        guard let service = ServiceCompiler.compile(project: project).service else {
            preconditionFailure("an empty project always compiles")
        }
        return service
    }

    /// Compiles a backend and runs the start checks: refuses it, with the diagnostics `dataconnect validate`
    /// prints, on any error (the schema, an operation's GraphQL, its CEL, or its compilation to SQL).
    static func compile(
        _ backend: String, limits: OperationLimits, log: @Sendable (String) -> Void
    ) throws(EmulatorError) -> CompiledService {
        let (service, diagnostics) = ServiceCompiler.compile(backendDirectory: backend, limits: limits)
        for diagnostic in diagnostics where diagnostic.severity != .error { log(diagnostic.description) }
        var errors = diagnostics.filter { $0.severity == .error }
        if let service, errors.isEmpty {
            let checks = StartChecks.diagnostics(
                for: service, dialect: StoreConfiguration.startCheckDialect, limits: limits)
            for diagnostic in checks where diagnostic.severity != .error { log(diagnostic.description) }
            errors = checks.filter { $0.severity == .error }
        }
        guard let service, errors.isEmpty else { throw EmulatorError(diagnostics: errors) }
        return service
    }

    /// Logs the operations the engine could not compile for the served database and answers with an error.
    ///
    /// On SQLite these are exactly what the start checks (``compile(_:limits:log:)``, which compile with the SQLite
    /// dialect) already refused or warned about, so nothing more is logged; another database may refuse more.
    static func report(_ engine: Engine, database: DatabaseKind, log: @Sendable (String) -> Void) {
        guard database != .sqlite else { return }
        for (connector, problems) in engine.issues.sorted(by: { $0.key < $1.key }) {
            for (operation, message) in problems.sorted(by: { $0.key < $1.key }) {
                log(
                    "warning: connector \(connector), operation \(operation): \(message) (on this database, calling it answers this error)"
                )
            }
        }
    }
}
