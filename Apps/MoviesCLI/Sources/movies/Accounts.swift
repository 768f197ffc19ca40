import FirebaseAuth
import FirebaseCore
import Foundation
import MoviesCLICore
import MoviesModels

/// The signed-in user of `movies`: Firebase Auth of the default app, on the emulator's Auth API.
///
/// The connector takes its token from the same `Auth` instance (FirebaseDataConnect's default token provider), so
/// signing in here is all the commands need; the user persists in Firebase Auth's own `user.json`.
struct Accounts: Sendable {
    let auth: Auth

    /// Creates (at the first call in the process) the default app's `Auth`, kept where ``SignInLocation`` says and
    /// pointed at the emulator at `address`.
    ///
    /// Must run before anything else asks for the app's `Auth` (the connector does so at its first request), as
    /// the persistence is only taken when the instance is created.
    ///
    /// - Parameters:
    ///   - address: The emulator, which serves the Auth API on the Data Connect port.
    ///   - environment: The process environment, for `MOVIES_CONFIG_DIR`.
    init(address: EmulatorAddress, environment: [String: String]) {
        FirebaseApp.configure()
        guard let app = FirebaseApp.app() else { preconditionFailure("FirebaseApp.configure() registers the app") }
        let persistence: AuthPersistence =
            SignInLocation.root(environment: environment).map { .directory($0) }
            ?? .automatic(environment: environment, program: "movies")
        auth = Auth.auth(app: app, persistence: persistence)
        auth.useEmulator(withHost: address.host, port: address.port)
    }

    /// Whether someone is signed in (read from disk at start; no request).
    var isSignedIn: Bool { auth.currentUser != nil }

    /// Creates an account, signs in with it and sets its display name to `name`, if given.
    ///
    /// - Returns: The new user's uid.
    func signUp(email: String, password: String, name: String?) async throws -> String {
        let user = try await auth.createUser(withEmail: email, password: password).user
        if let name {
            let change = user.createProfileChangeRequest()
            change.displayName = name
            try await change.commitChanges()
        }
        return user.uid
    }

    /// Signs in with an email and password.
    func signIn(email: String, password: String) async throws {
        _ = try await auth.signIn(withEmail: email, password: password)
    }

    /// Signs out locally.
    ///
    /// - Returns: Whether someone was signed in.
    func signOut() throws -> Bool {
        let wasSignedIn = isSignedIn
        try auth.signOut()
        return wasSignedIn
    }

    /// The signed-in user with the claims of its ID token (refreshed first when it is about to expire).
    ///
    /// - Throws: ``MoviesFailure/notSignedIn`` when nobody is signed in; Auth's error when a needed refresh fails.
    func whoami() async throws -> SignedInUser {
        guard let user = auth.currentUser else { throw MoviesFailure.notSignedIn }
        let token = try await user.getIDTokenResult()
        return SignedInUser(
            uid: user.uid, email: user.email, displayName: user.displayName, isEmailVerified: user.isEmailVerified,
            signInProvider: token.signInProvider, claims: SignedInUser.customClaims(from: token.claims))
    }
}
