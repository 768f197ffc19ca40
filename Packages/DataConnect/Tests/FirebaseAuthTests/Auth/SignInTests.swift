import FirebaseCore
import Foundation
import Testing

@_spi(Testing) @testable import FirebaseAuth

@Suite struct SignInTests {
    @Test func createUserSignsTheNewUserIn() async throws {
        // given
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)

        // when
        let result = try await auth.createUser(withEmail: "alice@example.com", password: "secret1")

        // then
        #expect(auth.currentUser === result.user)
        #expect(result.user.email == "alice@example.com")
        #expect(result.user.isAnonymous == false)
        #expect(result.user.providerData.map(\.providerID) == ["password"])
        #expect(result.additionalUserInfo?.isNewUser == true)
        #expect(result.additionalUserInfo?.providerID == "password")
        #expect(result.user.metadata.creationDate == harness.clock.now)
    }

    @Test func signInWithPasswordFindsTheAccount() async throws {
        let harness = try AuthHarness()
        let uid = harness.fake.addAccount(email: "bob@example.com", password: "secret1")
        let auth = harness.makeAuth(persistence: .inMemory)

        let result = try await auth.signIn(withEmail: "bob@example.com", password: "secret1")

        #expect(result.user.uid == uid)
        #expect(auth.currentUser?.uid == uid)
        #expect(result.additionalUserInfo?.isNewUser == false)
    }

    @Test func signInAnonymouslyMakesAnAnonymousUserOnce() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)

        let first = try await auth.signInAnonymously()
        let second = try await auth.signInAnonymously()

        #expect(first.user.isAnonymous)
        #expect(first.user.email == nil)
        #expect(second.user === first.user)
        #expect(harness.server.requests.filter { $0.target.contains("signUp") }.count == 1)
    }

    @Test func customTokenSignIn() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)

        let result = try await auth.signIn(withCustomToken: "custom:server-made-uid")

        #expect(result.user.uid == "server-made-uid")
        #expect(result.additionalUserInfo?.isNewUser == true)
        #expect(try await result.user.getIDTokenResult().signInProvider == "custom")
    }

    @Test func googleCredentialSignIn() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)

        let credential = GoogleAuthProvider.credential(withIDToken: "google:g-123:gina@example.com", accessToken: "at")
        let result = try await auth.signIn(with: credential)

        #expect(result.user.email == "gina@example.com")
        #expect(result.user.providerData.map(\.providerID) == ["google.com"])
        #expect(result.additionalUserInfo?.providerID == "google.com")
        #expect(credential.provider == GoogleAuthProvider.id)
    }

    @Test func emailCredentialSignIn() async throws {
        let harness = try AuthHarness()
        let uid = harness.fake.addAccount(email: "carol@example.com", password: "secret1")
        let auth = harness.makeAuth(persistence: .inMemory)

        let result = try await auth.signIn(
            with: EmailAuthProvider.credential(withEmail: "carol@example.com", password: "secret1"))

        #expect(result.user.uid == uid)
    }

    @Test func signOutClearsTheCurrentUser() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        try await auth.signInAnonymously()

        try auth.signOut()

        #expect(auth.currentUser == nil)
    }

    @Test func completionHandlerFormsCallBack() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        let results = Recorder<String>()

        auth.signInAnonymously { result, error in
            results.append(result?.user.uid ?? "error: \(String(describing: error))")
        }
        let uid = await results.wait(for: 1).first

        #expect(uid == auth.currentUser?.uid)
    }

    @Test func authOfAppIsOnePerApp() throws {
        let harness = try AuthHarness()

        let first = Auth.auth(app: harness.app, persistence: .inMemory)
        let second = Auth.auth(app: harness.app)

        #expect(first === second)
        #expect(first.app === harness.app)
    }
}
