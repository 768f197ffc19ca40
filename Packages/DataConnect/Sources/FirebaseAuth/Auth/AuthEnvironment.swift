import Foundation

/// What ``Auth`` reaches outside itself: the clock, sleeping, the hosts, persistence and the network.
///
/// `Auth.auth(app:)` uses ``live(environment:)``; tests pass their own to drive time and point the hosts at a
/// stand-in server.
///
/// ```swift
/// var environment = AuthEnvironment.live()
/// environment.now = { clock.now }
/// environment.sleep = { try await clock.sleep(for: $0) }
/// let auth = Auth(app: app, environment: environment)
/// ```
@_spi(Testing) public struct AuthEnvironment: Sendable {
    /// The current time; token expiry is computed from it.
    public var now: @Sendable () -> Date
    /// Suspends the background refresh for a duration.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// The production hosts (ignored while an emulator is set).
    public var endpoints: AuthEndpoints
    /// Where the user is kept.
    public var persistence: AuthPersistence
    /// How requests are sent.
    public var transport: any AuthTransport
    /// The process environment, read for `FIREBASE_AUTH_EMULATOR_HOST`.
    public var processEnvironment: [String: String]

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - now: The clock.
    ///   - sleep: The sleep function.
    ///   - endpoints: The hosts.
    ///   - persistence: Where the user is kept.
    ///   - transport: The transport.
    ///   - processEnvironment: The environment variables.
    public init(
        now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void,
        endpoints: AuthEndpoints, persistence: AuthPersistence, transport: any AuthTransport,
        processEnvironment: [String: String]
    ) {
        self.now = now
        self.sleep = sleep
        self.endpoints = endpoints
        self.persistence = persistence
        self.transport = transport
        self.processEnvironment = processEnvironment
    }

    /// The wall clock, `Task.sleep`, Google's hosts, ``AuthPersistence/automatic(environment:)`` and URLSession.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The live environment.
    public static func live(environment: [String: String] = ProcessInfo.processInfo.environment) -> AuthEnvironment {
        AuthEnvironment(
            now: Date.init, sleep: { try await Task.sleep(for: $0) }, endpoints: .production,
            persistence: .automatic(environment: environment), transport: URLSessionAuthTransport(),
            processEnvironment: environment)
    }
}
