import DataConnectEncoding
import DataConnectWire
import Foundation
import Observation
import Synchronization

/// An auth provider for the emulator: signs in as any uid and mints the unsigned ID tokens the emulator accepts.
///
/// Tokens are JWTs with the header `{"alg":"none","typ":"JWT"}` and an empty signature, carrying the claims
/// `sub`, `user_id`, `iat`, `exp`, `aud`, `iss`, `email`, `email_verified`, `firebase.sign_in_provider`
/// (`password`, `anonymous` or `custom`) and any custom claims. Production services reject them.
///
/// ``currentUser`` is observable (`withObservationTracking`, `Observations`), and ``userChanges`` gives each
/// consumer its own async sequence.
///
/// ```swift
/// let auth = EmulatorAuth(projectID: "demo")
/// auth.signIn(uid: "uid-alice", email: "alice@example.com", emailVerified: true)
/// let token = try await auth.token(forcingRefresh: false)
/// auth.signOut()
/// ```
@Observable
public final class EmulatorAuth: AuthTokenProvider, Sendable {
    private struct Session {
        var user: AuthUser
        var claims: JSONObject
        var token: String
        var expiry: Date
    }

    private struct State {
        var session: Session?
        var consumers: [Int: AsyncStream<AuthUser?>.Continuation] = [:]
        var tokenConsumers: [Int: AsyncStream<String?>.Continuation] = [:]
        var nextConsumerID = 0
    }

    /// The project id, used for the `aud` and `iss` claims.
    @ObservationIgnored public let projectID: String
    /// How long a minted token is valid (`exp - iat`).
    @ObservationIgnored public let tokenLifetime: TimeInterval
    @ObservationIgnored private let now: @Sendable () -> Date
    @ObservationIgnored private let state = Mutex(State())

    /// Creates a signed-out provider.
    ///
    /// - Parameters:
    ///   - projectID: The project id for `aud` and `iss`; the emulator's default is `demo`.
    ///   - tokenLifetime: Seconds between `iat` and `exp`; a token is re-minted once it has expired.
    ///   - now: The clock, replaceable in tests.
    public init(
        projectID: String = "demo", tokenLifetime: TimeInterval = 3600, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.projectID = projectID
        self.tokenLifetime = tokenLifetime
        self.now = now
    }

    deinit {
        let (consumers, tokenConsumers) = state.withLock { ($0.consumers.values, $0.tokenConsumers.values) }
        for consumer in consumers { consumer.finish() }
        for consumer in tokenConsumers { consumer.finish() }
    }

    /// The signed-in user, or nil; observable.
    public var currentUser: AuthUser? {
        access(keyPath: \.currentUser)
        return state.withLock { $0.session?.user }
    }

    /// Signs in as `uid`, replacing any earlier user, and notifies observers and ``userChanges`` consumers.
    ///
    /// - Parameters:
    ///   - uid: The user id (`sub` and `user_id`).
    ///   - email: The `email` claim, if any.
    ///   - emailVerified: The `email_verified` claim.
    ///   - anonymous: Whether `firebase.sign_in_provider` is `anonymous`.
    ///   - claims: Custom claims added at the top level of the token; `firebase.sign_in_provider` becomes
    ///     `custom` when there are any and the user is not anonymous.
    public func signIn(
        uid: String, email: String? = nil, emailVerified: Bool = false, anonymous: Bool = false,
        claims: JSONObject = [:]
    ) {
        let provider = anonymous ? "anonymous" : (claims.isEmpty ? "password" : "custom")
        var tokenClaims: JSONObject = claims
        tokenClaims["sub"] = .string(uid)
        tokenClaims["user_id"] = .string(uid)
        tokenClaims["aud"] = .string(projectID)
        tokenClaims["iss"] = .string("https://securetoken.google.com/\(projectID)")
        if let email { tokenClaims["email"] = .string(email) }
        tokenClaims["email_verified"] = .bool(emailVerified)
        tokenClaims["firebase"] = ["sign_in_provider": .string(provider), "identities": .object([:])]
        let user = AuthUser(uid: uid, email: email, isAnonymous: anonymous)
        let issuedAt = now()
        let session = Session(
            user: user, claims: tokenClaims, token: Self.mint(tokenClaims, issuedAt: issuedAt, lifetime: tokenLifetime),
            expiry: issuedAt.addingTimeInterval(tokenLifetime))
        update(session)
    }

    /// Signs out and notifies observers and ``userChanges`` consumers.
    public func signOut() {
        update(nil)
    }

    /// The current user's token, re-minted when forced or expired; nil when signed out.
    public func token(forcingRefresh: Bool) async throws -> String? {
        let issuedAt = now()
        return state.withLock { state -> String? in
            guard var session = state.session else { return nil }
            if forcingRefresh || issuedAt >= session.expiry {
                session.token = Self.mint(session.claims, issuedAt: issuedAt, lifetime: tokenLifetime)
                session.expiry = issuedAt.addingTimeInterval(tokenLifetime)
                state.session = session
                for consumer in state.tokenConsumers.values { consumer.yield(session.token) }
            }
            return session.token
        }
    }

    /// The current user, then every sign-in and sign-out; one independent sequence per call.
    ///
    /// The sequence ends when the consumer's task is cancelled or the provider is released.
    public var userChanges: AsyncStream<AuthUser?> {
        let (stream, continuation) = AsyncStream<AuthUser?>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state -> Int in
            let id = state.nextConsumerID
            state.nextConsumerID += 1
            state.consumers[id] = continuation
            continuation.yield(state.session?.user)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.consumers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Every token minted from now on (a forced or expired refresh, a sign-in), and `nil` at each sign-out; one
    /// independent sequence per call.
    ///
    /// The sequence ends when the consumer's task is cancelled or the provider is released.
    public var tokenChanges: AsyncStream<String?> {
        let (stream, continuation) = AsyncStream<String?>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state -> Int in
            let id = state.nextConsumerID
            state.nextConsumerID += 1
            state.tokenConsumers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.tokenConsumers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many ``userChanges`` sequences are being consumed.
    public var userChangesConsumerCount: Int {
        state.withLock { $0.consumers.count }
    }

    private func update(_ session: Session?) {
        withMutation(keyPath: \.currentUser) {
            state.withLock { state in
                state.session = session
                for consumer in state.consumers.values { consumer.yield(session?.user) }
                for consumer in state.tokenConsumers.values { consumer.yield(session?.token) }
            }
        }
    }

    /// Builds `base64url(header).base64url(claims).` with `iat` and `exp` set.
    static func mint(_ claims: JSONObject, issuedAt: Date, lifetime: TimeInterval) -> String {
        var claims = claims
        let iat = Int64(issuedAt.timeIntervalSince1970)
        claims["iat"] = JSONValue(iat)
        claims["exp"] = JSONValue(iat + Int64(lifetime))
        let header: JSONValue = ["alg": "none", "typ": "JWT"]
        return Base64.url.encode(header.serialized()) + "." + Base64.url.encode(JSONValue.object(claims).serialized())
            + "."
    }
}
