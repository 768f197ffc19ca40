import FirebaseCore
import Foundation
import Testing

@_spi(Testing) @testable import FirebaseAuth

@Suite struct TokenRefreshTests {
    private func tokenRequests(_ harness: AuthHarness) -> Int {
        harness.server.requests.filter { $0.target.hasPrefix("/v1/token") }.count
    }

    @Test func getIDTokenRefreshesWithinFiveMinutesOfExpiry() async throws {
        // given: a token valid for an hour
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        let user = try await auth.signInAnonymously().user
        let first = try await user.getIDToken()

        // when: 10 minutes left
        harness.clock.advance(by: 3000)
        let stillFirst = try await user.getIDToken()

        // then
        #expect(stillFirst == first)
        #expect(tokenRequests(harness) == 0)

        // when: 4 minutes 59 seconds left
        harness.clock.advance(by: 301)
        let second = try await user.getIDToken()

        // then
        #expect(second != first)
        #expect(tokenRequests(harness) == 1)
        #expect(try await user.getIDTokenResult().expirationDate == harness.clock.now.addingTimeInterval(3600))
    }

    @Test func backgroundTaskRefreshesBeforeExpiryAndListenersSeeTheToken() async throws {
        // given
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        let signedInAt = harness.clock.now
        let user = try await auth.signInAnonymously().user
        let tokens = Recorder<String?>()
        auth.addIDTokenDidChangeListener { _, user in tokens.append(user?.record.tokens.idToken) }
        _ = await tokens.wait(for: 1)

        // when: the refresh task sleeps until 5 minutes before expiry
        #expect(await harness.clock.waitForSleepers(1))
        #expect(harness.clock.sleepers() == [signedInAt.addingTimeInterval(3300)])
        harness.clock.advance(by: 3300)

        // then
        let seen = await tokens.wait(for: 2)
        #expect(seen.count == 2)
        #expect(seen.last != seen.first)
        #expect(tokenRequests(harness) == 1)
        #expect(user.record.tokens.expirationDate == signedInAt.addingTimeInterval(3300 + 3600))
        #expect(await harness.clock.waitForSleepers(1))
        #expect(harness.clock.sleepers() == [signedInAt.addingTimeInterval(3300 + 3300)])
    }

    @Test(arguments: ["USER_DISABLED", "USER_NOT_FOUND", "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN"])
    func refreshRejectedByTheServerSignsOut(_ message: String) async throws {
        // given
        let harness = try AuthHarness()
        let auth = harness.makeAuth()
        let states = Recorder<String?>()
        auth.addStateDidChangeListener { _, user in states.append(user?.uid) }
        let user = try await auth.signInAnonymously().user
        harness.fake.failNext("token", with: message)

        // when
        await #expect(throws: (any Error).self) {
            try await user.getIDToken(forcingRefresh: true)
        }

        // then
        #expect(auth.currentUser == nil)
        #expect(await states.wait(for: 3) == [nil, user.uid, nil])
        #expect(!FileManager.default.fileExists(atPath: harness.userFile.path))
    }

    @Test func transientRefreshFailureKeepsTheUser() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        let user = try await auth.signInAnonymously().user
        harness.fake.failNext("token", with: "TOO_MANY_ATTEMPTS_TRY_LATER")

        await #expect {
            try await user.getIDToken(forcingRefresh: true)
        } throws: { authCode($0) == .tooManyRequests }

        #expect(auth.currentUser === user)
    }

    @Test func tokenResultDecodesTheClaims() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        let user = try await auth.createUser(withEmail: "alice@example.com", password: "secret1").user

        let result = try await user.getIDTokenResult(forcingRefresh: false)

        #expect(result.signInProvider == "password")
        #expect(result.claims["sub"] as? String == user.uid)
        #expect(result.claims["email"] as? String == "alice@example.com")
        #expect(result.issuedAtDate == harness.clock.now)
        #expect(result.authDate == harness.clock.now)
        #expect(result.expirationDate == harness.clock.now.addingTimeInterval(3600))
    }

    @Test func signOutStopsTheBackgroundRefresh() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        try await auth.signInAnonymously()
        #expect(await harness.clock.waitForSleepers(1))

        try auth.signOut()
        harness.clock.advance(by: 7200)

        #expect(harness.clock.sleepers().isEmpty)
        #expect(tokenRequests(harness) == 0)
    }
}
