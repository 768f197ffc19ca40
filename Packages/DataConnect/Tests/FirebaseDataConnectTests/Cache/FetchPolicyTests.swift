import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

/// Every fetch policy against every cache state, on both storages.
///
/// States: `hit` (a fresh cached result), `stale` (cached, past `maxAge`), `miss` (nothing cached), and each of
/// those with the server unreachable. Expected outcomes follow the `QueryFetchPolicy` documentation.
@Suite struct FetchPolicyTests {
    enum CacheState: String, CaseIterable, Sendable {
        case hit, stale, miss
    }

    enum Outcome: Equatable, CustomStringConvertible {
        /// Answered from the cache; whether marked stale.
        case cache(stale: Bool)
        /// Answered by the server.
        case server
        /// `data == nil`, `source == .cache`, no request.
        case cacheMiss
        /// Threw a server error.
        case failed

        var description: String {
            switch self {
            case .cache(let stale): stale ? "cache(stale)" : "cache"
            case .server: "server"
            case .cacheMiss: "miss"
            case .failed: "failed"
            }
        }
    }

    /// policy → [state: (server up, server down)]
    static let expected: [QueryFetchPolicy: [CacheState: (up: Outcome, down: Outcome)]] = [
        .preferCache: [
            .hit: (.cache(stale: false), .cache(stale: false)), .stale: (.server, .failed), .miss: (.server, .failed),
        ],
        .cacheOnly: [
            .hit: (.cache(stale: false), .cache(stale: false)), .stale: (.cache(stale: true), .cache(stale: true)),
            .miss: (.cacheMiss, .cacheMiss),
        ],
        .serverOnly: [.hit: (.server, .failed), .stale: (.server, .failed), .miss: (.server, .failed)],
        .staleIfOffline: [
            .hit: (.cache(stale: false), .cache(stale: false)), .stale: (.server, .cache(stale: true)),
            .miss: (.server, .failed),
        ],
    ]

    static let cases: [(CacheBackend, QueryFetchPolicy, CacheState, Bool)] = CacheBackend.allCases.flatMap { backend in
        [QueryFetchPolicy.preferCache, .cacheOnly, .serverOnly, .staleIfOffline].flatMap { policy in
            CacheState.allCases.flatMap { state in [(backend, policy, state, true), (backend, policy, state, false)] }
        }
    }

    @Test(arguments: cases)
    func policyMeetsCacheState(
        backend: CacheBackend, policy: QueryFetchPolicy, state: CacheState, serverUp: Bool
    )
        async throws
    {
        // given: a cache holding the given state (with maxAge 0, a result is stale once the clock moves)
        let connector = CachedConnector(backend, maxAge: state == .stale ? 0 : 3600)
        let ref = connector.listRef()
        if state != .miss {
            connector.transport.enqueue(CachedConnector.movies([("m1", "Alien")]))
            _ = try await ref.execute(fetchPolicy: .serverOnly)
            if state == .stale { connector.clock.advance(by: 1) }
        }
        connector.transport.clearRequests()
        if serverUp {
            connector.transport.enqueue(CachedConnector.movies([("m1", "Alien"), ("m2", "Arrival")]))
        } else {
            connector.transport.enqueue(failure: CachedConnector.unreachable)
        }

        // when
        let outcome: Outcome
        do {
            let result = try await ref.execute(fetchPolicy: policy)
            switch result.source {
            case .server:
                #expect(result.data?.movies.count == 2)
                outcome = .server
            case .cache:
                if let data = result.data {
                    #expect(data.movies.map(\.title) == ["Alien"])
                    #expect(result.cachedAt != nil)
                    outcome = .cache(stale: result.isStale)
                } else {
                    outcome = .cacheMiss
                }
            }
        } catch is DataConnectConnectionError {
            outcome = .failed
        }

        // then
        let want = try #require(Self.expected[policy]?[state])
        #expect(outcome == (serverUp ? want.up : want.down))
        let asked = !connector.transport.requests.isEmpty
        let fellBack = policy == .staleIfOffline && outcome == .cache(stale: true)
        #expect(asked == (outcome == .server || outcome == .failed || fellBack), "a request only when one was needed")
    }

    @Test(arguments: CacheBackend.allCases)
    func withoutCacheSettingsNothingIsCached(backend: CacheBackend) async throws {
        // given
        let transport = RecordingTransport(replies: [.success(CachedConnector.movies([("m1", "Alien")]))])
        let dataConnect = DataConnectFixtures.dataConnect(transport)
        let ref = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)
        // when
        _ = try await ref.execute(fetchPolicy: .serverOnly)
        let cached = try await ref.execute(fetchPolicy: .cacheOnly)
        // then
        #expect(cached.data == nil && cached.source == .cache)
    }

    @Test(arguments: CacheBackend.allCases)
    func eachSignedInUserHasTheirOwnCache(backend: CacheBackend) async throws {
        // given: alice's result cached
        let connector = CachedConnector(backend, maxAge: 3600)
        let auth = EmulatorAuth()
        connector.dataConnect.setAuthTokenProvider(auth)
        auth.signIn(uid: "alice")
        connector.transport.enqueue(CachedConnector.movies([("m1", "Alien")]))
        _ = try await connector.listRef().execute(fetchPolicy: .serverOnly)

        // when: bob signs in, then alice again
        auth.signIn(uid: "bob")
        let asBob = try await connector.listRef().execute(fetchPolicy: .cacheOnly)
        auth.signOut()
        let signedOut = try await connector.listRef().execute(fetchPolicy: .cacheOnly)
        auth.signIn(uid: "alice")
        let asAlice = try await connector.listRef().execute(fetchPolicy: .cacheOnly)

        // then
        #expect(asBob.data == nil)
        #expect(signedOut.data == nil)
        #expect(asAlice.data?.movies.map(\.title) == ["Alien"])
    }
}
