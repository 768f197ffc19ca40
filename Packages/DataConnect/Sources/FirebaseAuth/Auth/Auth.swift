import FirebaseCore
import Foundation
import Synchronization

/// The entry point of Firebase Auth: one instance per ``FirebaseApp``, as upstream.
///
/// `Auth` signs users in and out against the Identity Toolkit REST API (or the Auth emulator), keeps the signed-in
/// ``User`` in ``currentUser``, persists it between launches (see ``AuthPersistence``), refreshes its ID token
/// before expiry, and tells listeners and async sequences about every change.
///
/// ```swift
/// FirebaseApp.configure()
/// let auth = Auth.auth()
/// auth.useEmulator(withHost: "127.0.0.1", port: 9099)
/// let result = try await auth.createUser(withEmail: "alice@example.com", password: "secret1")
/// let token = try await result.user.getIDToken()
/// try auth.signOut()
/// ```
public final class Auth: Sendable {
    struct State {
        var currentUser: User?
        var languageCode: String?
        var emulatorHostAndPort: String?
        var appCheck: (any AppCheckTokenProvider)?
        var transport: any AuthTransport
        var stateListeners: [Int: @Sendable (Auth, User?) -> Void] = [:]
        var tokenListeners: [Int: @Sendable (Auth, User?) -> Void] = [:]
        var nextListenerID = 0
        var refreshTask: Task<Void, Never>?
    }

    /// How long before expiry an ID token is refreshed, as upstream (`kTokenRefreshHeadStart`).
    static let tokenRefreshHeadStart: TimeInterval = 5 * 60

    /// How long the background refresh waits after a failed attempt.
    static let refreshRetryInterval: TimeInterval = 60

    private static let instances = Mutex<[String: Auth]>([:])

    /// The app this instance belongs to.
    public let app: FirebaseApp?

    let environment: AuthEnvironment
    let state: Mutex<State>
    let store: UserStore?
    /// Listeners are called in order on this queue (upstream uses the main queue).
    let callbackQueue = DispatchQueue(label: "FirebaseAuth.listeners")

    /// The instance for the default app.
    ///
    /// The default app must be configured first (`FirebaseApp.configure()`), as upstream.
    ///
    /// - Returns: The default app's `Auth`.
    public static func auth() -> Auth {
        guard let app = FirebaseApp.app() else {
            preconditionFailure(
                "The default FirebaseApp instance must be configured before the default Auth instance can be "
                    + "initialized. Call FirebaseApp.configure() first.")
        }
        return auth(app: app)
    }

    /// The instance for `app`, created at the first call with the signed-in user read back from disk.
    ///
    /// - Parameter app: The app.
    /// - Returns: The app's `Auth`; the same object at every call.
    public static func auth(app: FirebaseApp) -> Auth {
        auth(app: app, persistence: .automatic())
    }

    /// The instance for `app`, kept in `persistence` when this call creates it.
    ///
    /// `persistence` is ignored when the instance exists already.
    ///
    /// ```swift
    /// let auth = Auth.auth(app: FirebaseApp.app()!, persistence: .inMemory)
    /// ```
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - persistence: Where the signed-in user is kept.
    /// - Returns: The app's `Auth`.
    public static func auth(app: FirebaseApp, persistence: AuthPersistence) -> Auth {
        instances.withLock { instances in
            if let existing = instances[app.name], existing.app === app { return existing }
            var environment = AuthEnvironment.live()
            environment.persistence = persistence
            let auth = Auth(app: app, environment: environment)
            instances[app.name] = auth
            return auth
        }
    }

    /// Creates an instance outside the per-app registry, with its own environment.
    ///
    /// - Parameters:
    ///   - app: The app whose options (API key, app ID, project ID) are used.
    ///   - environment: The clock, hosts, persistence and transport.
    @_spi(Testing) public init(app: FirebaseApp, environment: AuthEnvironment) {
        self.app = app
        self.environment = environment
        if case .directory(let root) = environment.persistence {
            store = UserStore(
                root: root, appName: app.name, projectID: app.options.projectID ?? FirebaseOptions.demoProjectID)
        } else {
            store = nil
        }
        var initial = State(transport: environment.transport)
        if let host = environment.processEnvironment["FIREBASE_AUTH_EMULATOR_HOST"], !host.isEmpty {
            initial.emulatorHostAndPort = host
        }
        state = Mutex(initial)
        if let record = store?.load() {
            let user = User(record: record, auth: self)
            state.withLock { $0.currentUser = user }
            scheduleRefresh(for: user)
        }
    }

    deinit {
        state.withLock { $0.refreshTask?.cancel() }
    }

    /// The signed-in user, or `nil`.
    public var currentUser: User? {
        state.withLock { $0.currentUser }
    }

    /// The language of emails and SMS the server sends, sent as `X-Firebase-Locale`.
    public var languageCode: String? {
        get { state.withLock { $0.languageCode } }
        set { state.withLock { $0.languageCode = newValue } }
    }

    /// Sets ``languageCode`` to the process's preferred language.
    public func useAppLanguage() {
        languageCode = Locale.preferredLanguages.first
    }

    /// The App Check token source; its tokens are sent as `X-Firebase-AppCheck`.
    public var appCheck: (any AppCheckTokenProvider)? {
        get { state.withLock { $0.appCheck } }
        set { state.withLock { $0.appCheck = newValue } }
    }

    /// How requests are sent: URLSession by default. Replace it to route requests in-process.
    public var transport: any AuthTransport {
        get { state.withLock { $0.transport } }
        set { state.withLock { $0.transport = newValue } }
    }

    /// Sends every request to the Auth emulator at `host:port`, as upstream.
    ///
    /// URLs become `http://host:port/identitytoolkit.googleapis.com/v1/accounts:<method>?key=<API key>` and
    /// `http://host:port/securetoken.googleapis.com/v1/token?key=<API key>`. Without an API key in the options the
    /// SDK sends `fake-api-key` (the emulator wants a key, whatever its value). `FIREBASE_AUTH_EMULATOR_HOST`
    /// (`host:port`) does the same at creation.
    ///
    /// ```swift
    /// Auth.auth().useEmulator(withHost: "127.0.0.1", port: 9099)
    /// ```
    ///
    /// - Parameters:
    ///   - host: The emulator's host; IPv6 addresses are bracketed.
    ///   - port: The emulator's port.
    public func useEmulator(withHost host: String, port: Int) {
        let formattedHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        state.withLock { $0.emulatorHostAndPort = "\(formattedHost):\(port)" }
    }

    /// The emulator's `host:port`, or `nil` when requests go to production.
    public var emulatorHostAndPort: String? {
        state.withLock { $0.emulatorHostAndPort }
    }

    /// The emulator's host (without brackets), or `nil` when requests go to production.
    public var emulatorHost: String? {
        guard let hostAndPort = emulatorHostAndPort, let colon = hostAndPort.lastIndex(of: ":") else { return nil }
        return String(hostAndPort[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }

    /// The emulator's port, or `nil` when requests go to production.
    public var emulatorPort: Int? {
        guard let hostAndPort = emulatorHostAndPort, let colon = hostAndPort.lastIndex(of: ":") else { return nil }
        return Int(hostAndPort[hostAndPort.index(after: colon)...])
    }

    /// Signs out: clears ``currentUser``, removes the stored user and tells listeners.
    ///
    /// Local only, as upstream: the refresh token is not revoked.
    ///
    /// - Throws: Never on Linux (upstream throws keychain errors).
    public func signOut() throws {
        setCurrentUser(nil)
    }

    // MARK: Internals shared with User

    /// The backend configured with the current options, emulator, language, App Check and transport.
    func backend() -> AuthBackend {
        let options = app?.options
        return state.withLock { state in
            AuthBackend(
                apiKey: options?.apiKey, appID: options?.googleAppID ?? FirebaseOptions.demoAppID,
                bundleID: options?.bundleID, languageCode: state.languageCode,
                emulatorHostAndPort: state.emulatorHostAndPort, endpoints: environment.endpoints,
                appCheck: state.appCheck, transport: state.transport)
        }
    }

    /// Makes `user` the signed-in user (or signs out with `nil`), persists it and notifies listeners.
    func setCurrentUser(_ user: User?) {
        let (previous, stateListeners, tokenListeners) = state.withLock { state in
            let previous = state.currentUser
            state.currentUser = user
            state.refreshTask?.cancel()
            state.refreshTask = nil
            return (previous, Array(state.stateListeners.values), Array(state.tokenListeners.values))
        }
        if let user {
            try? store?.save(user.record)
            scheduleRefresh(for: user)
        } else {
            store?.remove()
        }
        if previous?.uid != user?.uid || (previous == nil) != (user == nil) {
            notify(stateListeners, user)
        }
        if previous !== user {
            notify(tokenListeners, user)
        }
    }

    /// Persists `user` after a change and, when its tokens changed, notifies ID-token listeners.
    func userDidChange(_ user: User, tokensChanged: Bool) {
        let (isCurrent, listeners) = state.withLock { ($0.currentUser === user, Array($0.tokenListeners.values)) }
        guard isCurrent else { return }
        try? store?.save(user.record)
        if tokensChanged {
            scheduleRefresh(for: user)
            notify(listeners, user)
        }
    }

    /// Signs out when `uid` is still the signed-in user: after the server rejected its refresh token.
    func signOutByForce(uid: String) {
        guard currentUser?.uid == uid else { return }
        setCurrentUser(nil)
    }

    func notify(_ listeners: [@Sendable (Auth, User?) -> Void], _ user: User?) {
        guard !listeners.isEmpty else { return }
        callbackQueue.async {
            for listener in listeners { listener(self, user) }
        }
    }

    /// Starts the background refresh: wake 5 minutes before expiry, refresh, and again after each new token.
    func scheduleRefresh(for user: User) {
        let task = Task { [weak self, weak user] in
            var retry = false
            while !Task.isCancelled {
                guard let self, let user, self.currentUser === user else { return }
                let expiry = user.record.tokens.expirationDate
                let untilHeadStart = expiry.timeIntervalSince(environment.now()) - Self.tokenRefreshHeadStart
                let delay = retry ? Self.refreshRetryInterval : untilHeadStart
                if delay > 0 {
                    do { try await environment.sleep(.milliseconds(Int64(delay * 1000))) } catch { return }
                }
                guard !Task.isCancelled, currentUser === user else { return }
                do {
                    // A new token schedules the next refresh and cancels this task.
                    _ = try await user.getIDToken(forcingRefresh: false)
                    retry = false
                } catch {
                    retry = true
                }
            }
        }
        state.withLock { state in
            state.refreshTask?.cancel()
            state.refreshTask = task
        }
    }
}
