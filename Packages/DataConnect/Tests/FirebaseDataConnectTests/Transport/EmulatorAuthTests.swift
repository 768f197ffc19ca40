import DataConnectEncoding
import DataConnectWire
import Foundation
import Observation
import Synchronization
import Testing

@testable import FirebaseDataConnect

@Suite struct EmulatorAuthTests {
    private static let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)

    /// A settable clock.
    private final class TestClock: Sendable {
        private let date = Mutex(EmulatorAuthTests.fixedNow)
        var now: Date { date.withLock { $0 } }
        func advance(by seconds: TimeInterval) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    private func makeAuth(clock: TestClock = TestClock()) -> EmulatorAuth {
        EmulatorAuth(projectID: "demo") { clock.now }
    }

    /// Splits a JWT and decodes its base64url header and payload.
    private func decode(_ token: String) throws -> (header: JSONValue, payload: JSONValue, signature: Substring) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        func segment(_ text: Substring) throws -> JSONValue {
            // strict base64url: no padding, no `+` or `/`
            try JSONValue(parsing: try #require(Base64.url.decode(text)))
        }
        return (try segment(parts[0]), try segment(parts[1]), parts[2])
    }

    @Test func signedOutProviderHasNoTokenAndNoUser() async throws {
        // given
        let auth = makeAuth()

        // when
        let token = try await auth.token(forcingRefresh: false)

        // then
        #expect(token == nil)
        #expect(auth.currentUser == nil)
    }

    private func collect(_ stream: AsyncStream<AuthUser?>, count: Int) async -> [AuthUser?] {
        var values: [AuthUser?] = []
        for await value in stream.prefix(count) { values.append(value) }
        return values
    }

    @Test func passwordUserTokenCarriesTheStandardClaims() async throws {
        // given
        let auth = makeAuth()

        // when
        auth.signIn(uid: "uid-alice", email: "alice@example.com", emailVerified: true)
        let token = try await #require(auth.token(forcingRefresh: false))
        let (header, payload, signature) = try decode(token)

        // then
        #expect(header == ["alg": "none", "typ": "JWT"])
        #expect(signature.isEmpty)
        #expect(payload["sub"] == "uid-alice")
        #expect(payload["user_id"] == "uid-alice")
        #expect(payload["aud"] == "demo")
        #expect(payload["iss"] == "https://securetoken.google.com/demo")
        #expect(payload["email"] == "alice@example.com")
        #expect(payload["email_verified"] == true)
        #expect(payload["iat"]?.int64Value == 1_700_000_000)
        #expect(payload["exp"]?.int64Value == 1_700_003_600)
        #expect(payload["firebase"] == ["sign_in_provider": "password", "identities": [:]])
        #expect(auth.currentUser == AuthUser(uid: "uid-alice", email: "alice@example.com", isAnonymous: false))
    }

    @Test func anonymousUserHasTheAnonymousProviderAndNoEmail() async throws {
        // given
        let auth = makeAuth()

        // when
        auth.signIn(uid: "anon-1", anonymous: true)
        let payload = try decode(try await #require(auth.token(forcingRefresh: false))).payload

        // then
        #expect(payload["firebase"]?["sign_in_provider"] == "anonymous")
        #expect(payload["email"] == nil)
        #expect(payload["email_verified"] == false)
        #expect(auth.currentUser?.isAnonymous == true)
    }

    @Test func customClaimsAreAddedAtTheTopLevel() async throws {
        // given
        let auth = makeAuth()

        // when
        auth.signIn(uid: "admin-1", claims: ["role": "admin", "level": 3])
        let payload = try decode(try await #require(auth.token(forcingRefresh: false))).payload

        // then
        #expect(payload["role"] == "admin")
        #expect(payload["level"] == 3)
        #expect(payload["firebase"]?["sign_in_provider"] == "custom")
        #expect(payload["sub"] == "admin-1")
    }

    @Test func tokenIsCachedUntilForcedOrExpired() async throws {
        // given
        let clock = TestClock()
        let auth = makeAuth(clock: clock)
        auth.signIn(uid: "u1")
        let first = try await auth.token(forcingRefresh: false)

        // when
        clock.advance(by: 10)
        let cached = try await auth.token(forcingRefresh: false)
        let forced = try await auth.token(forcingRefresh: true)
        clock.advance(by: 3600)
        let renewed = try await auth.token(forcingRefresh: false)

        // then
        #expect(cached == first)
        #expect(try decode(try #require(forced)).payload["iat"]?.int64Value == 1_700_000_010)
        #expect(try decode(try #require(renewed)).payload["iat"]?.int64Value == 1_700_003_610)
    }

    @Test func signOutClearsUserAndToken() async throws {
        // given
        let auth = makeAuth()
        auth.signIn(uid: "u1")

        // when
        auth.signOut()

        // then
        #expect(auth.currentUser == nil)
        #expect(try await auth.token(forcingRefresh: true) == nil)
    }

    @Test func twoConsumersEachSeeEveryUserChange() async throws {
        // given
        let auth = makeAuth()
        let alice = AuthUser(uid: "uid-alice")
        let bob = AuthUser(uid: "uid-bob", isAnonymous: true)
        let first = auth.userChanges
        let second = auth.userChanges

        // when
        auth.signIn(uid: "uid-alice")
        auth.signIn(uid: "uid-bob", anonymous: true)
        auth.signOut()
        async let seenByFirst = collect(first, count: 4)
        async let seenBySecond = collect(second, count: 4)

        // then
        let expected: [AuthUser?] = [nil, alice, bob, nil]
        #expect(await seenByFirst == expected)
        #expect(await seenBySecond == expected)
    }

    @Test func consumerIsRemovedWhenItsTaskEnds() async throws {
        // given
        let auth = makeAuth()
        let started = AsyncStream<Void>.makeStream()
        let consumer = Task {
            for await _ in auth.userChanges { started.continuation.yield() }
        }
        var iterator = started.stream.makeAsyncIterator()
        _ = await iterator.next()
        #expect(auth.userChangesConsumerCount == 1)

        // when
        consumer.cancel()
        await consumer.value

        // then
        #expect(auth.userChangesConsumerCount == 0)
    }

    @Test func currentUserIsObservable() {
        // given
        let auth = makeAuth()
        let changed = Mutex(false)
        withObservationTracking {
            _ = auth.currentUser
        } onChange: {
            changed.withLock { $0 = true }
        }

        // when
        auth.signIn(uid: "u1")

        // then
        #expect(changed.withLock { $0 })
    }
}
