/// The signed-in user as the SDK sees it.
public struct AuthUser: Hashable, Sendable {
    /// The user id (`sub`).
    public var uid: String
    /// The email, when the user has one.
    public var email: String?
    /// Whether the user signed in anonymously.
    public var isAnonymous: Bool

    /// Creates a user.
    public init(uid: String, email: String? = nil, isAnonymous: Bool = false) {
        self.uid = uid
        self.email = email
        self.isAnonymous = isAnonymous
    }
}

/// Supplies Firebase ID tokens for `X-Firebase-Auth-Token` and reports who is signed in.
///
/// ```swift
/// let auth = EmulatorAuth()
/// auth.signIn(uid: "uid-alice")
/// let token = try await auth.token(forcingRefresh: false)  // a JWT, or nil when signed out
/// for await user in auth.userChanges { print(user?.uid ?? "signed out") }
/// ```
public protocol AuthTokenProvider: Sendable {
    /// The current user's ID token, or nil when nobody is signed in.
    ///
    /// - Parameter forcingRefresh: Whether to mint a fresh token even if the cached one is still valid.
    /// - Returns: The raw ID token (no `Bearer`), or nil when signed out.
    /// - Throws: When a token cannot be obtained.
    func token(forcingRefresh: Bool) async throws -> String?

    /// The signed-in user, then every change: a new sequence per call, so any number of consumers can listen.
    ///
    /// Each sequence first yields the current user, then one element per sign-in or sign-out.
    var userChanges: AsyncStream<AuthUser?> { get }

    /// Every new ID token from now on (a refresh, a sign-in, or `nil` at a sign-out): a new sequence per call.
    ///
    /// ``DataConnect`` sends each one on its open realtime streams, so that the server checks their
    /// subscriptions against the new claims. The default is a sequence that ends at once, for providers that do
    /// not report refreshes; subscriptions then learn of new claims when they restart.
    var tokenChanges: AsyncStream<String?> { get }
}

extension AuthTokenProvider {
    /// A sequence that ends at once: the provider does not report token refreshes.
    public var tokenChanges: AsyncStream<String?> {
        AsyncStream { $0.finish() }
    }
}
