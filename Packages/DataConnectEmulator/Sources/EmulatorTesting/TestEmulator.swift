import DataConnectEmulator
import DataConnectEngine
import DataConnectWire

/// An emulator for full-stack tests, with a fresh database (SQLite in memory, or a PostgreSQL schema): on a free
/// port, or in-process only.
///
/// Start one per test suite, ``reset()`` between tests. A ``Mode/live`` emulator serves HTTP on a free port:
/// point the code under test at ``url`` (or at ``host`` and ``port`` for `useEmulator(host:port:)`). An
/// ``Mode/inProcess`` one opens no socket: requests go straight to its ``responder`` (with
/// `import DataConnectTesting`, through the SDK's in-process transport).
///
/// ```swift
/// import DataConnectTesting
/// import Testing
///
/// @Suite struct MovieTests {
///     let emulator: TestEmulator
///
///     init() throws {
///         emulator = try TestEmulator(backend: "Backend/movies", seedFile: "Backend/movies/seed_data.gql")
///     }
///
///     @Test func listsMovies() async throws {
///         // call your app code against emulator.url, e.g. connector.useEmulator(port: emulator.port)
///     }
/// }
/// ```
public final class TestEmulator: Sendable {
    /// How a test emulator is reached.
    public enum Mode: Sendable {
        /// Requests are handed to ``TestEmulator/responder`` in the test's process; no port is opened.
        case inProcess
        /// The emulator serves HTTP on a free loopback port, for tests whose subject is HTTP itself.
        case live
    }

    /// The emulator.
    public let emulator: Emulator
    /// The seed file run at start and after each reset.
    public let seedFile: String?
    /// How the emulator is reached.
    public let mode: Mode
    /// The PostgreSQL schema the emulator serves from, when it runs on PostgreSQL.
    public let postgreSQLSchema: TestPostgreSQLSchema?

    /// Compiles the backend and seeds a fresh database; a live emulator also starts serving.
    ///
    /// - Parameters:
    ///   - backend: The folder holding `dataconnect.yaml`.
    ///   - seedFile: An admin GraphQL file to run at start and after each ``reset()``.
    ///   - mode: On a free port (``Mode/live``, the default) or without a socket (``Mode/inProcess``).
    ///   - database: SQLite in memory (the default), or a fresh schema in the test process's PostgreSQL cluster
    ///     (``TestPostgreSQLSchema``), dropped with the emulator. In a suite marked `.onBothDatabases` (see
    ///     ``TestDatabaseTrait``), pass `try TestDatabase.required()` to serve from the running test's database.
    ///   - log: Where the emulator's messages go (nowhere by default).
    /// - Throws: ``EmulatorError`` when the backend does not compile, the seed fails, no port can be bound, or the
    ///   PostgreSQL cluster cannot be started.
    public init(
        backend: String, seedFile: String? = nil, mode: Mode = .live, database: TestDatabase = .sqlite,
        log: @escaping @Sendable (String) -> Void = { _ in }
    )
        throws(EmulatorError)
    {
        switch database {
        case .sqlite:
            postgreSQLSchema = nil
        case .postgreSQL:
            do {
                postgreSQLSchema = try TestPostgreSQLSchema()
            } catch {
                throw EmulatorError("cannot create a PostgreSQL schema for the test: \(error)")
            }
        }
        emulator = try Emulator(
            options: Emulator.Options(
                backend: backend, port: 0, postgreSQL: postgreSQLSchema?.connectionString, seedFile: seedFile,
                readers: 2, threads: 2, log: log))
        self.seedFile = seedFile
        self.mode = mode
        if mode == .live { try emulator.start() }
    }

    /// An emulator reached without a socket: ``init(backend:seedFile:mode:log:)`` with ``Mode/inProcess``.
    public static func inProcess(
        backend: String, seedFile: String? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(EmulatorError) -> TestEmulator {
        try TestEmulator(backend: backend, seedFile: seedFile, mode: .inProcess, log: log)
    }

    /// The responder that answers every request, in-process or behind the port.
    public var responder: EmulatorResponder { emulator.responder }

    deinit {
        emulator.stop()
    }

    /// `http://127.0.0.1:<port>`; the port is 0 in-process.
    public var url: String { emulator.url }
    /// `127.0.0.1`.
    public var host: String { emulator.options.host }
    /// The port the emulator listens on; 0 in-process, where nothing listens.
    public var port: Int { Int(emulator.port) }
    /// The service id from `dataconnect.yaml`.
    public var serviceID: String { emulator.engine.service.project.config.serviceId }

    /// The URL of a connector method, e.g. `connectorURL("movies", "executeQuery")`.
    public func connectorURL(_ connector: String, _ method: String) -> String {
        "\(url)/v1/projects/demo/locations/us-central1/services/\(serviceID)/connectors/\(connector):\(method)"
    }

    /// The URL of a service method, e.g. `serviceURL("executeGraphql")`.
    public func serviceURL(_ method: String) -> String {
        "\(url)/v1/projects/demo/locations/us-central1/services/\(serviceID):\(method)"
    }

    /// Empties every table and runs the seed file again.
    public func reset() throws(EmulatorError) {
        try emulator.clear()
        if let seedFile { try emulator.seed(fromFile: seedFile) }
    }

    /// Runs an admin GraphQL document directly (no HTTP, no `@auth`).
    public func executeAdmin(_ query: String, variables: JSONObject = [:]) -> JSONValue {
        let response = emulator.executeAdmin(query, variables: variables)
        return (try? JSONValue(parsing: response.body)) ?? .null
    }

    /// Stops serving. Also done when the value is released.
    public func stop() {
        emulator.stop()
    }

    /// An unsigned Firebase ID token as the Auth emulator issues them, for `X-Firebase-Auth-Token`.
    ///
    /// - Parameters:
    ///   - uid: The user id (`sub`).
    ///   - email: An optional email claim.
    ///   - emailVerified: The `email_verified` claim.
    ///   - anonymous: Whether the sign-in provider is `anonymous`.
    public static func token(
        uid: String, email: String? = nil, emailVerified: Bool = false, anonymous: Bool = false
    ) -> String {
        var claims: JSONObject = [
            "sub": .string(uid), "user_id": .string(uid), "email_verified": .bool(emailVerified),
            "firebase": ["sign_in_provider": .string(anonymous ? "anonymous" : "password")],
        ]
        if let email { claims["email"] = .string(email) }
        return AuthContext.unsignedToken(claims: claims)
    }
}
