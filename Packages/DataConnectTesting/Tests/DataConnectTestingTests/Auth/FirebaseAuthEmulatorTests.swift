import DataConnectEncoding
import DataConnectTestSupport
import DataConnectTesting
import DataConnectWire
import EmulatorHTTP
import FirebaseAuth
import Foundation
import Testing

/// Firebase Auth for Linux against the emulator's Auth API, in process and over its port: every call an app makes,
/// and the errors it gets.
@Suite struct FirebaseAuthEmulatorTests {
    static let modes: [TestEmulator.Mode] = [.inProcess, .live]

    /// An emulator serving the movies backend and the Auth API.
    static func emulator(_ mode: TestEmulator.Mode) throws -> TestEmulator {
        try TestEmulator(backend: try RepositoryPaths.moviesBackend(), mode: mode)
    }

    /// The Auth error code of `error`, read as apps read it.
    static func code(_ error: (any Error)?) -> AuthErrorCode? {
        guard let error else { return nil }
        let nsError = error as NSError
        return nsError.domain == AuthErrors.domain ? AuthErrorCode(rawValue: nsError.code) : nil
    }

    /// `email` unique to this call.
    static func email(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    @Test(arguments: modes) func signUpSignInAndOut(mode: TestEmulator.Mode) async throws {
        // given
        let emulator = try Self.emulator(mode)
        let auth = emulator.makeAuth()
        let email = Self.email("ada")

        // when
        let created = try await auth.createUser(withEmail: email, password: "secret-1")
        try auth.signOut()
        let signedOut = auth.currentUser
        let signedIn = try await auth.signIn(withEmail: email, password: "secret-1")
        let token = try await signedIn.user.getIDTokenResult()

        // then
        #expect(signedOut == nil)
        #expect(signedIn.user.uid == created.user.uid)
        #expect(auth.currentUser?.email == email)
        #expect(auth.currentUser?.isAnonymous == false)
        #expect(token.signInProvider == "password")
        #expect(token.claims["email"] as? String == email)
        #expect(token.claims["aud"] as? String == "demo-project")
        #expect(emulator.emulator.auth?.accounts().contains { $0.localId == created.user.uid } == true)
    }

    @Test(arguments: modes) func theServersRefusalsAreAuthErrorCodes(mode: TestEmulator.Mode) async throws {
        // given
        let emulator = try Self.emulator(mode)
        let auth = emulator.makeAuth()
        let email = Self.email("ben")
        _ = try await auth.createUser(withEmail: email, password: "secret-1")

        // when
        let taken = await #expect(throws: (any Error).self) {
            try await auth.createUser(withEmail: email, password: "secret-2")
        }
        let wrong = await #expect(throws: (any Error).self) {
            try await auth.signIn(withEmail: email, password: "not-it")
        }
        let missing = await #expect(throws: (any Error).self) {
            try await auth.signIn(withEmail: Self.email("nobody"), password: "secret-1")
        }
        let weak = await #expect(throws: (any Error).self) {
            try await auth.createUser(withEmail: Self.email("weak"), password: "12345")
        }
        let badEmail = await #expect(throws: (any Error).self) {
            try await auth.createUser(withEmail: "not-an-email", password: "secret-1")
        }

        // then
        #expect(Self.code(taken) == .emailAlreadyInUse)
        #expect(Self.code(wrong) == .wrongPassword)
        #expect(Self.code(missing) == .userNotFound)
        #expect(Self.code(weak) == .weakPassword)
        #expect(Self.code(badEmail) == .invalidEmail)
    }

    @Test(arguments: modes) func anonymousUsersUpgradeByLinkingAnEmail(mode: TestEmulator.Mode) async throws {
        // given
        let emulator = try Self.emulator(mode)
        let auth = emulator.makeAuth()
        let anonymous = try await auth.signInAnonymously().user
        let anonymousToken = try await anonymous.getIDTokenResult()

        // when
        let email = Self.email("cy")
        let linked = try await anonymous.link(
            with: EmailAuthProvider.credential(withEmail: email, password: "secret-1"))
        let token = try await linked.user.getIDTokenResult(forcingRefresh: true)

        // then: the same uid, no longer anonymous, and able to sign in with the email
        #expect(anonymousToken.signInProvider == "anonymous")
        #expect(linked.user.uid == anonymous.uid)
        #expect(linked.user.isAnonymous == false)
        #expect(token.claims["email"] as? String == email)
        try auth.signOut()
        #expect(try await auth.signIn(withEmail: email, password: "secret-1").user.uid == anonymous.uid)
    }

    @Test(arguments: modes) func customTokensSignIn(mode: TestEmulator.Mode) async throws {
        // given: a custom token as the Admin SDK makes it in emulator mode (unsigned)
        let emulator = try Self.emulator(mode)
        let auth = emulator.makeAuth()
        let customToken = AuthAdmin.unsignedCustomToken(uid: "uid-custom", claims: ["critic": true])

        // when
        let user = try await auth.signIn(withCustomToken: customToken).user
        let token = try await user.getIDTokenResult()

        // then
        #expect(user.uid == "uid-custom")
        #expect(token.signInProvider == "custom")
        #expect(token.claims["critic"] as? Bool == true)
    }

    @Test(arguments: modes) func profileEmailAndPasswordChanges(mode: TestEmulator.Mode) async throws {
        // given
        let emulator = try Self.emulator(mode)
        let auth = emulator.makeAuth()
        let email = Self.email("dee")
        let user = try await auth.createUser(withEmail: email, password: "secret-1").user

        // when
        let change = user.createProfileChangeRequest()
        change.displayName = "Dee"
        try await change.commitChanges()
        try await user.updatePassword(to: "secret-2")
        let newEmail = Self.email("dee-new")
        try await user.updateEmail(to: newEmail)
        try await user.reload()

        // then
        #expect(user.displayName == "Dee")
        #expect(user.email == newEmail)
        try auth.signOut()
        let again = try await auth.signIn(withEmail: newEmail, password: "secret-2").user
        #expect(again.uid == user.uid)
        #expect(again.displayName == "Dee")
        let reauthenticated = try await again.reauthenticate(
            with: EmailAuthProvider.credential(withEmail: newEmail, password: "secret-2"))
        #expect(reauthenticated.user.uid == user.uid)
    }

    @Test(arguments: modes) func emailVerificationAndPasswordResetUseTheEmulatorsCodes(
        mode: TestEmulator.Mode
    ) async throws {
        // given
        let emulator = try Self.emulator(mode)
        let auth = emulator.makeAuth()
        let email = Self.email("eve")
        let user = try await auth.createUser(withEmail: email, password: "secret-1").user
        func code(_ type: String) throws -> String {
            let codes = emulator.emulator.auth?.oobCodes() ?? []
            return try #require(codes.last { $0.email == email && $0.requestType == type }).oobCode
        }

        // when: the email is verified with the code the emulator kept
        try await user.sendEmailVerification()
        try await auth.applyActionCode(try code("VERIFY_EMAIL"))
        try await user.reload()
        let verified = try await user.getIDTokenResult(forcingRefresh: true)

        // and: a password reset
        try await auth.sendPasswordReset(withEmail: email)
        let resetCode = try code("PASSWORD_RESET")
        let checkedEmail = try await auth.verifyPasswordResetCode(resetCode)
        try await auth.confirmPasswordReset(withCode: resetCode, newPassword: "secret-2")

        // then
        #expect(user.isEmailVerified)
        #expect(verified.claims["email_verified"] as? Bool == true)
        #expect(checkedEmail == email)
        try auth.signOut()
        #expect(try await auth.signIn(withEmail: email, password: "secret-2").user.uid == user.uid)
        let stale = await #expect(throws: (any Error).self) {
            try await auth.confirmPasswordReset(withCode: resetCode, newPassword: "secret-3")
        }
        #expect(Self.code(stale) == .invalidActionCode)
    }

    @Test(arguments: modes) func claimsSetByAnAdminArriveWithTheNextRefresh(mode: TestEmulator.Mode) async throws {
        // given
        let emulator = try Self.emulator(mode)
        let auth = emulator.makeAuth()
        let user = try await auth.createUser(withEmail: Self.email("fay"), password: "secret-1").user
        let tokens = LockedList<String?>()
        let handle = auth.addIDTokenDidChangeListener { _, user in
            tokens.append(user?.uid)
        }
        defer { auth.removeIDTokenDidChangeListener(handle) }

        // when
        try emulator.setCustomClaims(["librarian": true], uid: user.uid)
        let before = try await user.getIDTokenResult()
        let after = try await user.getIDTokenResult(forcingRefresh: true)

        // then
        #expect(before.claims["librarian"] == nil)
        #expect(after.claims["librarian"] as? Bool == true)
        await HangGuard.wait { tokens.all.count >= 2 }
        #expect(tokens.all.last == user.uid, "the refresh reached the ID-token listeners")
    }

    @Test(arguments: modes) func aDisabledUserIsSignedOutAtTheNextRefresh(mode: TestEmulator.Mode) async throws {
        // given
        let emulator = try Self.emulator(mode)
        let auth = emulator.makeAuth()
        let email = Self.email("gus")
        let user = try await auth.createUser(withEmail: email, password: "secret-1").user
        let states = Recorder(auth.authStateChanges)
        _ = await states.wait(for: 1)

        // when
        try emulator.updateAuthUser(uid: user.uid, ["disableUser": true])
        let refresh = await #expect(throws: (any Error).self) { try await user.getIDToken(forcingRefresh: true) }
        let signIn = await #expect(throws: (any Error).self) {
            try await auth.signIn(withEmail: email, password: "secret-1")
        }

        // then
        #expect(Self.code(refresh) == .userDisabled)
        #expect(auth.currentUser == nil)
        let seen = await states.wait { $0.last.map { $0 == nil } ?? false }
        #expect(seen.last.map { $0 == nil } == true, "state listeners saw the sign-out")
        #expect(Self.code(signIn) == .userDisabled)
    }

    @Test(arguments: modes) func deletingTheUserSignsOut(mode: TestEmulator.Mode) async throws {
        // given
        let emulator = try Self.emulator(mode)
        let auth = emulator.makeAuth()
        let email = Self.email("hal")
        let user = try await auth.createUser(withEmail: email, password: "secret-1").user

        // when
        try await user.delete()
        let signIn = await #expect(throws: (any Error).self) {
            try await auth.signIn(withEmail: email, password: "secret-1")
        }

        // then
        #expect(auth.currentUser == nil)
        #expect(Self.code(signIn) == .userNotFound)
        #expect(emulator.emulator.auth?.accounts().contains { $0.localId == user.uid } == false)
    }
}

/// What an Admin SDK makes in emulator mode.
enum AuthAdmin {
    /// A custom token as the Admin SDK makes it for the emulator: an unsigned JWT with `uid` and `claims`.
    static func unsignedCustomToken(uid: String, claims: JSONObject) -> String {
        func encode(_ value: JSONValue) -> String { Base64.url.encode(value.serialized()) }
        let now = Int(Date().timeIntervalSince1970)
        let payload: JSONValue = [
            "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
            "iat": JSONValue(now), "exp": JSONValue(now + 3600), "iss": "firebase-auth-emulator@example.com",
            "sub": "firebase-auth-emulator@example.com", "uid": .string(uid), "claims": .object(claims),
        ]
        return encode(["alg": "none", "typ": "JWT"]) + "." + encode(payload) + "."
    }
}
