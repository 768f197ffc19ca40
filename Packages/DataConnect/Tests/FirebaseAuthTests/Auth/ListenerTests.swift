import FirebaseCore
import Foundation
import Testing

@_spi(Testing) @testable import FirebaseAuth

@Suite struct ListenerTests {
    @Test func stateListenerSeesSignInAndSignOutUntilRemoved() async throws {
        // given
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        let states = Recorder<String?>()
        let handle = auth.addStateDidChangeListener { _, user in states.append(user?.uid) }

        // when
        let user = try await auth.signInAnonymously().user
        _ = try await user.getIDToken(forcingRefresh: true)  // a new token is not a state change
        try auth.signOut()
        let seen = await states.wait(for: 3)
        auth.removeStateDidChangeListener(handle)
        try await auth.signInAnonymously()

        // then
        #expect(seen == [nil, user.uid, nil])
        #expect(await states.wait(for: 3) == [nil, user.uid, nil])
    }

    @Test func idTokenListenerSeesEveryNewToken() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        let tokens = Recorder<String?>()
        let handle = auth.addIDTokenDidChangeListener { _, user in tokens.append(user?.record.tokens.idToken) }

        let user = try await auth.signInAnonymously().user
        let first = user.record.tokens.idToken
        let second = try await user.getIDToken(forcingRefresh: true)
        try auth.signOut()
        let seen = await tokens.wait(for: 4)
        auth.removeIDTokenDidChangeListener(handle)

        #expect(seen == [nil, first, second, nil])
    }

    @Test func authStateChangesIsASequenceOfUsers() async throws {
        // given
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        let collected = Task {
            var uids: [String?] = []
            for await user in auth.authStateChanges {
                uids.append(user?.uid)
                if uids.count == 3 { break }
            }
            return uids
        }

        // when
        let started = Recorder<Bool>()
        auth.addStateDidChangeListener { _, _ in started.append(true) }
        _ = await started.wait(for: 1)
        let user = try await auth.signInAnonymously().user
        try auth.signOut()

        // then
        #expect(await collected.value == [nil, user.uid, nil])
    }

    @Test func idTokenChangesAndUpstreamsSequenceName() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        let user = try await auth.signInAnonymously().user

        var tokens = auth.idTokenChanges.makeAsyncIterator()
        var states = auth.authDidChangeSequence().makeAsyncIterator()

        #expect(await tokens.next()??.uid == user.uid)
        #expect(await states.next()??.uid == user.uid)
    }
}
