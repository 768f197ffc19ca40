import FirebaseCore
import Foundation
import Testing

@_spi(Testing) @testable import FirebaseAuth

@Suite struct PersistenceTests {
    @Test func signedInUserSurvivesANewInstance() async throws {
        // given
        let harness = try AuthHarness()
        var first: Auth? = harness.makeAuth()
        let result = try await first!.createUser(withEmail: "alice@example.com", password: "secret1")
        let change = result.user.createProfileChangeRequest()
        change.displayName = "Alice"
        try await change.commitChanges()
        let refreshToken = result.user.refreshToken
        first = nil

        // when
        let second = harness.makeAuth()

        // then
        let user = try #require(second.currentUser)
        #expect(user.uid == result.user.uid)
        #expect(user.email == "alice@example.com")
        #expect(user.displayName == "Alice")
        #expect(user.refreshToken == refreshToken)
        #expect(try await user.getIDToken() == result.user.record.tokens.idToken)
    }

    @Test func fileIsPrivateAndRemovedAtSignOut() async throws {
        // given
        let harness = try AuthHarness()
        let auth = harness.makeAuth()

        // when
        try await auth.signInAnonymously()

        // then
        let attributes = try FileManager.default.attributesOfItem(atPath: harness.userFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: harness.userFile.deletingLastPathComponent().path)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)

        // when
        try auth.signOut()

        // then
        #expect(!FileManager.default.fileExists(atPath: harness.userFile.path))
        #expect(harness.makeAuth().currentUser == nil)
    }

    @Test func inMemoryWritesNothing() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)

        try await auth.signInAnonymously()

        #expect(!FileManager.default.fileExists(atPath: harness.folder.path))
    }

    @Test func refreshedTokensArePersisted() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth()
        let user = try await auth.signInAnonymously().user

        let token = try await user.getIDToken(forcingRefresh: true)

        #expect(harness.makeAuth().currentUser?.record.tokens.idToken == token)
    }

    @Test func automaticPersistenceFollowsTheEnvironment() {
        #expect(
            AuthPersistence.automatic(environment: ["FIREBASE_AUTH_PERSISTENCE_DIRECTORY": "/tmp/x"])
                == .directory(URL(fileURLWithPath: "/tmp/x", isDirectory: true)))
        #expect(
            AuthPersistence.automatic(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/a"], program: "movies")
                == .directory(URL(fileURLWithPath: "/cfg/firebase-auth/movies", isDirectory: true)))
        #expect(
            AuthPersistence.automatic(environment: ["HOME": "/home/a"], program: "movies")
                == .directory(URL(fileURLWithPath: "/home/a/.config/firebase-auth/movies", isDirectory: true)))
        // Each program has its own sign-in by default.
        #expect(
            AuthPersistence.automatic(environment: ["HOME": "/home/a"])
                == .directory(
                    URL(
                        fileURLWithPath: "/home/a/.config/firebase-auth/\(ProcessInfo.processInfo.processName)",
                        isDirectory: true)))
    }
}
