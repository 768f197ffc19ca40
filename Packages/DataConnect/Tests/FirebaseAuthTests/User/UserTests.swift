import FirebaseCore
import Foundation
import Testing

@_spi(Testing) @testable import FirebaseAuth

@Suite struct UserTests {
    private func signedIn(_ harness: AuthHarness) async throws -> (Auth, User) {
        let auth = harness.makeAuth(persistence: .inMemory)
        let user = try await auth.createUser(withEmail: "alice@example.com", password: "secret1").user
        return (auth, user)
    }

    @Test func linkUpgradesAnAnonymousUserWithAnEmailCredential() async throws {
        // given
        let harness = try AuthHarness()
        let auth = harness.makeAuth()
        let anonymous = try await auth.signInAnonymously().user

        // when
        let result = try await anonymous.link(
            with: EmailAuthProvider.credential(withEmail: "anna@example.com", password: "secret1"))

        // then
        #expect(result.user === anonymous)
        #expect(anonymous.isAnonymous == false)
        #expect(anonymous.email == "anna@example.com")
        #expect(anonymous.providerData.map(\.providerID) == ["password"])
        #expect(harness.makeAuth().currentUser?.isAnonymous == false)
        try auth.signOut()
        #expect(try await auth.signIn(withEmail: "anna@example.com", password: "secret1").user.uid == anonymous.uid)
    }

    @Test func linkingALinkedProviderFails() async throws {
        let harness = try AuthHarness()
        let (auth, user) = try await signedIn(harness)
        defer { withExtendedLifetime(auth) {} }

        await #expect {
            try await user.link(with: EmailAuthProvider.credential(withEmail: "x@example.com", password: "secret1"))
        } throws: { authCode($0) == .providerAlreadyLinked }
    }

    @Test func profileChangeSetsAndRemovesValues() async throws {
        let harness = try AuthHarness()
        let (auth, user) = try await signedIn(harness)
        defer { withExtendedLifetime(auth) {} }

        let change = user.createProfileChangeRequest()
        change.displayName = "Alice"
        change.photoURL = URL(string: "https://example.com/alice.png")
        try await change.commitChanges()
        #expect(user.displayName == "Alice")
        #expect(user.photoURL == URL(string: "https://example.com/alice.png"))

        let removal = user.createProfileChangeRequest()
        removal.displayName = nil
        try await removal.commitChanges()
        #expect(user.displayName == nil)
        #expect(user.photoURL == URL(string: "https://example.com/alice.png"))
    }

    @Test func updatePasswordAndEmail() async throws {
        let harness = try AuthHarness()
        let (auth, user) = try await signedIn(harness)

        try await user.updatePassword(to: "better-secret")
        try await (user as any EmailUpdating).updateEmail(to: "alice@new.example.com")
        try auth.signOut()

        let again = try await auth.signIn(withEmail: "alice@new.example.com", password: "better-secret")
        #expect(again.user.uid == user.uid)
    }

    @Test func weakPasswordIsRejected() async throws {
        let harness = try AuthHarness()
        let (auth, user) = try await signedIn(harness)
        defer { withExtendedLifetime(auth) {} }

        await #expect {
            try await user.updatePassword(to: "123")
        } throws: { authCode($0) == .weakPassword }
    }

    @Test func reauthenticateKeepsTheUserAndRejectsAnother() async throws {
        let harness = try AuthHarness()
        let (auth, user) = try await signedIn(harness)
        defer { withExtendedLifetime(auth) {} }
        _ = harness.fake.addAccount(email: "bob@example.com", password: "secret1")

        let result = try await user.reauthenticate(
            with: EmailAuthProvider.credential(withEmail: "alice@example.com", password: "secret1"))
        #expect(result.user === user)

        await #expect {
            try await user.reauthenticate(
                with: EmailAuthProvider.credential(withEmail: "bob@example.com", password: "secret1"))
        } throws: { authCode($0) == .userMismatch }
    }

    @Test func reloadReadsTheServersState() async throws {
        let harness = try AuthHarness()
        let (auth, user) = try await signedIn(harness)
        harness.fake.addOobCode("verify-1", type: "VERIFY_EMAIL", email: "alice@example.com")
        try await user.sendEmailVerification()

        try await auth.applyActionCode("verify-1")
        #expect(user.isEmailVerified == false)
        try await user.reload()

        #expect(user.isEmailVerified)
    }

    @Test func deleteRemovesTheAccountAndSignsOut() async throws {
        let harness = try AuthHarness()
        let (auth, user) = try await signedIn(harness)

        try await user.delete()

        #expect(auth.currentUser == nil)
        #expect(harness.fake.account(user.uid) == nil)
    }

    @Test func userInfoProperties() async throws {
        let harness = try AuthHarness()
        let (auth, user) = try await signedIn(harness)
        defer { withExtendedLifetime(auth) {} }

        #expect(user.providerID == "firebase")
        #expect(user.phoneNumber == nil)
        #expect(user.refreshToken?.hasPrefix("refresh-") == true)
        #expect(user.metadata.lastSignInDate == harness.clock.now)
        #expect(user.providerData.first?.email == "alice@example.com")
    }
}

/// Reaches the deprecated `updateEmail(to:)` through a protocol, so the test compiles without a deprecation warning.
protocol EmailUpdating {
    func updateEmail(to email: String) async throws
}

extension User: EmailUpdating {}
