import Foundation
import Synchronization

/// A signed-in Firebase user: profile, provider data and tokens.
///
/// As upstream, a class; unlike upstream, `Sendable`, guarding its state with a lock. The ID token refreshes
/// itself when asked for within 5 minutes of expiry, and in the background while the user is signed in.
///
/// ```swift
/// guard let user = Auth.auth().currentUser else { return }
/// print(user.uid, user.email ?? "anonymous")
/// let token = try await user.getIDToken()
/// ```
public final class User: UserInfo, Sendable {
    private struct Context {
        weak var auth: Auth?
        var refresh: Task<UserRecord.Tokens, any Error>?
    }

    /// Server errors of a refresh that sign the user out, as upstream.
    static let signOutCodes: Set<Int> = [
        AuthErrorCode.userDisabled.rawValue, AuthErrorCode.userNotFound.rawValue,
        AuthErrorCode.userTokenExpired.rawValue, AuthErrorCode.invalidUserToken.rawValue,
    ]

    /// The Firebase user ID.
    public let uid: String

    private let state: Mutex<UserRecord>
    private let context: Mutex<Context>

    init(record: UserRecord, auth: Auth) {
        uid = record.uid
        state = Mutex(record)
        context = Mutex(Context(auth: auth))
    }

    /// A copy of the user's state.
    var record: UserRecord {
        state.withLock { $0 }
    }

    /// `firebase`, as upstream.
    public var providerID: String { "firebase" }

    /// The email.
    public var email: String? { state.withLock { $0.email } }

    /// The display name.
    public var displayName: String? { state.withLock { $0.displayName } }

    /// The photo URL.
    public var photoURL: URL? { state.withLock { $0.photoURL }.flatMap(URL.init(string:)) }

    /// The phone number.
    public var phoneNumber: String? { state.withLock { $0.phoneNumber } }

    /// Whether the email is verified.
    public var isEmailVerified: Bool { state.withLock { $0.emailVerified } }

    /// Whether the user signed in anonymously and has linked no provider since.
    public var isAnonymous: Bool { state.withLock { $0.isAnonymous } }

    /// The linked providers.
    public var providerData: [any UserInfo] {
        state.withLock { $0.providers }.map(ProviderUserInfoEntry.init)
    }

    /// Creation and last sign-in dates.
    public var metadata: UserMetadata {
        state.withLock { UserMetadata(lastSignInDate: $0.lastSignInDate, creationDate: $0.creationDate) }
    }

    /// The refresh token.
    public var refreshToken: String? { state.withLock { $0.tokens.refreshToken } }

    /// The tenant ID (multi-tenancy is not supported on Linux: always `nil`).
    public var tenantID: String? { nil }

    var auth: Auth? {
        context.withLock { $0.auth }
    }

    // MARK: Tokens

    /// The ID token, refreshed first when within 5 minutes of expiry.
    ///
    /// ```swift
    /// request.setValue("Bearer \(try await user.getIDToken())", forHTTPHeaderField: "Authorization")
    /// ```
    ///
    /// - Returns: The JWT.
    /// - Throws: The refresh's errors; ``AuthErrorCode/userDisabled``, ``AuthErrorCode/userNotFound``,
    ///   ``AuthErrorCode/userTokenExpired`` and ``AuthErrorCode/invalidUserToken`` also sign the user out.
    public func getIDToken() async throws -> String {
        try await getIDToken(forcingRefresh: false)
    }

    /// The ID token, refreshed when `forcingRefresh` or within 5 minutes of expiry.
    ///
    /// - Parameter forcingRefresh: Whether to refresh even a fresh token.
    /// - Returns: The JWT.
    /// - Throws: As ``getIDToken()``.
    public func getIDToken(forcingRefresh: Bool) async throws -> String {
        let auth = try requireAuth()
        let tokens = state.withLock { $0.tokens }
        let remaining = tokens.expirationDate.timeIntervalSince(auth.environment.now())
        if !forcingRefresh && remaining > Auth.tokenRefreshHeadStart {
            return tokens.idToken
        }
        return try await refreshTokens().idToken
    }

    /// The ID token and its claims.
    ///
    /// - Returns: The decoded token.
    /// - Throws: As ``getIDToken()``, or ``AuthErrorCode/malformedJWT``.
    public func getIDTokenResult() async throws -> AuthTokenResult {
        try await getIDTokenResult(forcingRefresh: false)
    }

    /// The ID token and its claims, refreshed when `forcingRefresh` or close to expiry.
    ///
    /// - Parameter forcingRefresh: Whether to refresh even a fresh token.
    /// - Returns: The decoded token.
    /// - Throws: As ``getIDToken()``, or ``AuthErrorCode/malformedJWT``.
    public func getIDTokenResult(forcingRefresh: Bool) async throws -> AuthTokenResult {
        try AuthTokenResult(token: try await getIDToken(forcingRefresh: forcingRefresh))
    }

    /// ``getIDToken()`` with a completion handler.
    ///
    /// - Parameter completion: Called with the token or the error.
    public func getIDToken(completion: (@Sendable (String?, (any Error)?) -> Void)?) {
        getIDTokenForcingRefresh(false, completion: completion)
    }

    /// ``getIDToken(forcingRefresh:)`` with a completion handler.
    ///
    /// - Parameters:
    ///   - forceRefresh: Whether to refresh even a fresh token.
    ///   - completion: Called with the token or the error.
    public func getIDTokenForcingRefresh(
        _ forceRefresh: Bool, completion: (@Sendable (String?, (any Error)?) -> Void)?
    ) {
        Task {
            do {
                completion?(try await getIDToken(forcingRefresh: forceRefresh), nil)
            } catch {
                completion?(nil, error)
            }
        }
    }

    /// Refreshes the tokens at the secure token service; concurrent callers share one request.
    func refreshTokens() async throws -> UserRecord.Tokens {
        let task = context.withLock { context in
            if let running = context.refresh { return running }
            let task = Task { try await self.performRefresh() }
            context.refresh = task
            return task
        }
        defer {
            context.withLock { context in
                if context.refresh == task { context.refresh = nil }
            }
        }
        return try await task.value
    }

    private func performRefresh() async throws -> UserRecord.Tokens {
        let auth = try requireAuth()
        let refreshToken = state.withLock { $0.tokens.refreshToken }
        let answer: SecureTokenAnswer
        do {
            answer = try await auth.backend().refresh(refreshToken)
        } catch let error as NSError where Self.signOutCodes.contains(error.code) && error.domain == AuthErrors.domain {
            auth.signOutByForce(uid: uid)
            throw error
        }
        guard let idToken = answer.idToken ?? answer.accessToken else {
            throw AuthErrors.error(.internalError, message: "The secure token service sent no ID token.")
        }
        let tokens = UserRecord.Tokens(
            idToken: idToken, refreshToken: answer.refreshToken ?? refreshToken,
            expirationDate: auth.environment.now().addingTimeInterval(answer.expiresIn?.value ?? 3600))
        state.withLock { $0.tokens = tokens }
        auth.userDidChange(self, tokensChanged: true)
        return tokens
    }

    /// Replaces the tokens with those of a sign-in answer, when it has them.
    func applyTokens(idToken: String?, refreshToken: String?, expiresIn: Seconds?, now: Date) -> Bool {
        guard let idToken else { return false }
        state.withLock { record in
            record.tokens = UserRecord.Tokens(
                idToken: idToken, refreshToken: refreshToken ?? record.tokens.refreshToken,
                expirationDate: now.addingTimeInterval(expiresIn?.value ?? 3600))
        }
        return true
    }

    /// Changes the state under the lock.
    func mutate(_ change: (inout UserRecord) -> Void) {
        state.withLock { change(&$0) }
    }

    func requireAuth() throws -> Auth {
        guard let auth else {
            throw AuthErrors.error(.internalError, message: "The Auth instance of this user was released.")
        }
        return auth
    }
}
