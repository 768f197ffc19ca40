import FirebaseAuth
import FirebaseCore

/// The token source of every ``DataConnect`` not given another: Firebase Auth's signed-in user of the same app.
///
/// As upstream, an app signs in with `FirebaseAuth` and writes no token code: each request carries the current
/// user's ID token (refreshed by Auth before it expires), a sign-in or sign-out restarts the live subscriptions,
/// and each refreshed token goes to the open realtime streams, where the server checks the subscriptions against
/// its claims. The `Auth` instance is looked up when first needed (`Auth.auth(app:)`), so an app that never signs
/// in reads nothing.
///
/// ```swift
/// FirebaseApp.configure()
/// Auth.auth().useEmulator(withHost: "127.0.0.1", port: 9399)
/// try await Auth.auth().signIn(withEmail: "ada@example.com", password: "secret-1")
/// let movies = try await DataConnect.moviesConnector.listMyFavoritesQuery.execute()  // sent as Ada
/// ```
public final class FirebaseAuthTokenProvider: AuthTokenProvider {
    private enum Source {
        /// `Auth.auth(app:)`, looked up when first needed.
        case app(FirebaseApp)
        /// An instance given.
        case instance(Auth)
    }

    private let source: Source

    /// Creates a provider reading the signed-in user of `app`'s `Auth` instance.
    ///
    /// - Parameter app: The app, usually the ``DataConnect``'s.
    public init(app: FirebaseApp) {
        source = .app(app)
    }

    /// Creates a provider reading the signed-in user of `auth`, e.g. an instance with persistence of its own.
    ///
    /// - Parameter auth: The Auth instance.
    public init(auth: Auth) {
        source = .instance(auth)
    }

    /// The `Auth` instance: the one given, else the app's.
    public var auth: Auth {
        switch source {
        case .app(let app): Auth.auth(app: app)
        case .instance(let auth): auth
        }
    }

    /// The signed-in user's ID token, or nil when nobody is signed in.
    ///
    /// - Parameter forcingRefresh: Whether to ask the Secure Token service for a new token even if the one held is
    ///   still valid.
    /// - Returns: The ID token, or nil when signed out.
    /// - Throws: Auth's error when a needed refresh fails (a refresh refused for a disabled or deleted user signs
    ///   the user out as well).
    public func token(forcingRefresh: Bool) async throws -> String? {
        guard let user = auth.currentUser else { return nil }
        return try await user.getIDToken(forcingRefresh: forcingRefresh)
    }

    /// The signed-in user, then every sign-in, sign-out and user change (Auth's state listener).
    public var userChanges: AsyncStream<AuthUser?> {
        let states = auth.authStateChanges
        return AsyncStream { continuation in
            let task = Task {
                for await user in states {
                    continuation.yield(
                        user.map { AuthUser(uid: $0.uid, email: $0.email, isAnonymous: $0.isAnonymous) })
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Every new ID token (Auth's ID-token listener): a refresh, a sign-in, or nil at a sign-out.
    public var tokenChanges: AsyncStream<String?> {
        let changes = auth.idTokenChanges
        return AsyncStream { continuation in
            let task = Task {
                for await user in changes {
                    if let user {
                        // The token the listener announced: held by the user, so no request is made.
                        guard let token = try? await user.getIDToken(forcingRefresh: false) else { continue }
                        continuation.yield(token)
                    } else {
                        continuation.yield(nil)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
