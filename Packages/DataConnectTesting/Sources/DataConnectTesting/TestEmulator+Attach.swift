import FirebaseAuth
import FirebaseCore
import FirebaseDataConnect
import Foundation
import Synchronization

extension TestEmulator {
    /// Runs `body` with every shared `DataConnect` instance, the generated connectors' included, sending its work
    /// to this emulator, with a client cache and a sign-in of its own.
    ///
    /// Generated code reaches the service through one process-wide instance per connector
    /// (`DataConnect.moviesConnector`), which tests cannot construct or repoint without affecting each other.
    /// Inside `body` and every task it starts (child tasks and `Task { }`, not `Task.detached`), each such instance
    /// hands its work to a stand-in made for this call on first use: same connector, settings and caller type, a
    /// new app with the same options, a fresh cache with the same cache settings (a persistent cache lives in a
    /// temporary folder removed when `attach` returns), and the original app's Firebase Auth user as its token
    /// source (as the original's default) until the test sets another provider. So:
    ///
    /// - queries, mutations, `subscribe()` and the cache of refs created inside `body` go to this emulator, and
    ///   keep doing so when the ref is used later, from another task or after `attach` returns;
    /// - app code that signs in with `Auth.auth()` is seen by the generated connectors, as in the app: point that
    ///   `Auth` at this emulator with ``connect(_:)`` (it is the process's, so sign-ins through it are not
    ///   per-scope);
    /// - `setAuthTokenProvider(_:)` on a shared instance or a generated connector inside `body` signs in the
    ///   stand-in only; `useEmulator(host:port:)` is ignored;
    /// - two `attach` calls, nested or concurrent (suites run in parallel), never share an emulator, a cache or
    ///   a sign-in;
    /// - refs created before `attach` keep their instance, so create refs inside `body`.
    ///
    /// In-process (``TestEmulator/inProcess(backend:seedFile:log:)``) operations go through
    /// ``InProcessTransport`` and subscriptions through ``InProcessSubscriptionTransport``, without a socket; a live
    /// emulator is reached over HTTP and the WebSocket stream on its port.
    ///
    /// ```swift
    /// let emulator = try TestEmulator.inProcess(backend: "Backend/movies", seedFile: "Backend/movies/seed_data.gql")
    /// try await emulator.attach {
    ///     let movies = DataConnect.moviesConnector
    ///     let created = try await movies.createMovieMutation.execute(
    ///         title: "Heat", releaseYear: 1995, genre: "Crime", rating: 5)
    ///     let listed = try await movies.listMoviesByGenreQuery.execute(genre: "Crime")
    ///     #expect(listed.data?.movies.map(\.id).contains(created.data?.movie_insert.id) == true)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, which `body` runs on.
    ///   - body: The test code.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func attach<Value>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
    ) async rethrows -> Value {
        let attachment = EmulatorAttachment(emulator: self)
        do {
            let value = try await DataConnect.$substitution.withValue(
                attachment, operation: body, isolation: isolation)
            await attachment.end()
            return value
        } catch {
            await attachment.end()
            throw error
        }
    }
}

/// The stand-ins of one ``TestEmulator/attach(isolation:_:)`` call: one per shared instance used inside it.
///
/// A test suite makes one per test, so making one is cheap: no random id, no path, no Firebase Auth lookup of its
/// own. Its name is this process's random prefix and a number (unique across processes and within this one); the
/// folder of persistent caches is worked out, and removed at the end, only when a stand-in has such a cache.
final class EmulatorAttachment: DataConnectSubstitution {
    private struct StandIn {
        /// Held so that its identity is not reused while the attachment lives.
        let original: DataConnect
        let standIn: DataConnect
    }

    /// `attach-<8 random hex digits>`, drawn once per process.
    private static let processPrefix = "attach-\(UUID().uuidString.prefix(8))"
    /// How many attachments this process has made.
    private static let made = Atomic<Int>(0)

    private let emulator: TestEmulator
    private let name: String
    private let standIns = Mutex<[ObjectIdentifier: StandIn]>([:])
    /// Whether a stand-in has a persistent cache, in ``cacheDirectory``.
    private let hasPersistentCache = Atomic<Bool>(false)

    init(emulator: TestEmulator) {
        self.emulator = emulator
        name = "\(Self.processPrefix)-\(Self.made.add(1, ordering: .relaxed).newValue)"
    }

    /// The folder of the stand-ins' persistent caches.
    private var cacheDirectory: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("dataconnect-\(name)").path
    }

    func substitute(for dataConnect: DataConnect) -> DataConnect? {
        standIns.withLock { standIns in
            let key = ObjectIdentifier(dataConnect)
            if let existing = standIns[key] { return existing.standIn }
            let made = makeStandIn(for: dataConnect, number: standIns.count + 1)
            standIns[key] = StandIn(original: dataConnect, standIn: made)
            return made
        }
    }

    /// A new instance like `original`, reaching this emulator, on an app of its own.
    private func makeStandIn(for original: DataConnect, number: Int) -> DataConnect {
        let appName = "\(name)-\(number)"
        FirebaseApp.configure(name: appName, options: original.app.options)
        guard let app = FirebaseApp.app(name: appName) else {
            preconditionFailure("FirebaseApp.configure(name:options:) registers the app")
        }
        let settings = DataConnectSettings(
            host: original.settings.host, port: original.settings.port, sslEnabled: original.settings.sslEnabled,
            cacheSettings: original.settings.cacheSettings.map(ownCache))
        let standIn: DataConnect
        switch emulator.mode {
        case .inProcess:
            standIn = DataConnect(
                app: app, connectorConfig: original.connectorConfig, settings: settings,
                callerSDKType: original.callerSDKType, transport: emulator.transport,
                subscriptionTransport: emulator.subscriptionTransport)
        case .live:
            let endpoint = ServiceEndpoint(host: emulator.host, port: emulator.port, sslEnabled: false)
            standIn = DataConnect(
                app: app, connectorConfig: original.connectorConfig, settings: settings,
                callerSDKType: original.callerSDKType,
                transport: URLSessionTransport(configuration: .init(endpoint: endpoint)))
            // Realtime subscriptions open the WebSocket stream to the emulator's port.
            standIn.useEmulator(host: emulator.host, port: emulator.port)
        }
        // The user app code signs in with `Auth.auth(app:)` of the original's app, as the original would.
        standIn.setAuthTokenProvider(FirebaseAuthTokenProvider(auth: OriginalAuth.of(original.app)))
        return standIn
    }

    /// The same cache settings, with a persistent cache in this attachment's own folder.
    private func ownCache(_ settings: CacheSettings) -> CacheSettings {
        switch settings.storage {
        case .memory:
            return settings
        case .persistent:
            hasPersistentCache.store(true, ordering: .relaxed)
            return CacheSettings(
                storage: .persistent, maxAge: settings.maxAge, maxSize: settings.maxSize, directory: cacheDirectory)
        }
    }

    /// Removes the stand-ins' apps and persistent caches.
    func end() async {
        let apps = standIns.withLock { $0.values.map(\.standIn.app) }
        for app in apps { _ = await app.delete() }
        if hasPersistentCache.load(ordering: .relaxed) { try? FileManager.default.removeItem(atPath: cacheDirectory) }
    }
}

/// The Firebase Auth instance of each original app, looked up once per process.
///
/// `Auth.auth(app:)` returns the same instance for an app every time, but works out its default persistence (a copy
/// of the environment, a folder name) on every call before looking the instance up: about 90 µs on the benchmark
/// machine (`make bench-testsuite`), paid twice by each stand-in (for the user and token changes it watches) and on
/// every token request. The instance holds its app, so the app's identity is not reused while it is kept here.
enum OriginalAuth {
    private static let instances = Mutex<[ObjectIdentifier: Auth]>([:])

    /// `Auth.auth(app: app)`, looked up the first time only.
    static func of(_ app: FirebaseApp) -> Auth {
        let key = ObjectIdentifier(app)
        if let known = instances.withLock({ $0[key] }) { return known }
        let auth = Auth.auth(app: app)
        instances.withLock { $0[key] = auth }
        return auth
    }
}
