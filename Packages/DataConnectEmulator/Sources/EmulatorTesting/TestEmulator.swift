import DataConnectEmulator
import DataConnectEngine
import DataConnectWire

/// An emulator for full-stack tests: in-process, on a free port, with a fresh in-memory database.
///
/// Start one per test suite, ``reset()`` between tests, and point the code under test at ``url``
/// (or at ``host`` and ``port`` for `useEmulator(host:port:)`).
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
    /// The running emulator.
    public let emulator: Emulator
    /// The seed file run at start and after each reset.
    public let seedFile: String?

    /// Compiles the backend, seeds a fresh in-memory database and starts serving on a free port.
    ///
    /// - Parameters:
    ///   - backend: The folder holding `dataconnect.yaml`.
    ///   - seedFile: An admin GraphQL file to run at start and after each ``reset()``.
    ///   - log: Where the emulator's messages go (nowhere by default).
    /// - Throws: ``EmulatorError`` when the backend does not compile or the seed fails.
    public init(
        backend: String, seedFile: String? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
    )
        throws(EmulatorError)
    {
        emulator = try Emulator(
            options: Emulator.Options(backend: backend, port: 0, seedFile: seedFile, readers: 2, threads: 2, log: log))
        self.seedFile = seedFile
        try emulator.start()
    }

    deinit {
        emulator.stop()
    }

    /// `http://127.0.0.1:<port>`.
    public var url: String { emulator.url }
    /// `127.0.0.1`.
    public var host: String { emulator.options.host }
    /// The port the emulator listens on.
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
