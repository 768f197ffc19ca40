import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

/// Variables in the shape generated code gives them: an optional variable set through the builder closure.
struct BuiltVariables: OperationVariable {
    var genre: String
    @OptionalVariable var title: String?
    @OptionalVariable var minRating: Int?

    init(genre: String, _ optionalVars: ((inout BuiltVariables) -> Void)? = nil) {
        self.genre = genre
        if let optionalVars { optionalVars(&self) }
    }
}

/// What identifies a ref and its client cache entry: the bytes the variables encode to, never `==` alone.
@Suite struct VariablesIdentityTests {
    let alien = CachedConnector.movies([("m1", "Alien")])

    private func ref(
        _ dataConnect: DataConnect, _ variables: BuiltVariables
    ) -> QueryRefObservation<MovieList, BuiltVariables> {
        dataConnect.query(name: "searchMovies", variables: variables, resultsDataType: MovieList.self)
    }

    @Test(arguments: CacheBackend.allCases)
    func variablesBuiltDifferentlyThatSendTheSameBytesShareOneRefAndOneCacheEntry(
        backend: CacheBackend
    )
        async throws
    {
        // given: the same values, assigned in another order
        let connector = CachedConnector(backend, maxAge: 3600)
        connector.transport.enqueue(alien)
        let first = BuiltVariables(genre: "Sci-Fi") {
            $0.title = "Alien"
            $0.minRating = 4
        }
        let second = BuiltVariables(genre: "Sci-Fi") {
            $0.minRating = 4
            $0.title = "Alien"
        }

        // when
        let firstRef = ref(connector.dataConnect, first)
        _ = try await firstRef.execute(fetchPolicy: .serverOnly)
        let secondRef = ref(connector.dataConnect, second)
        let cached = try await secondRef.execute(fetchPolicy: .cacheOnly)

        // then
        #expect(first == second && first.hashValue == second.hashValue)
        #expect(firstRef === secondRef)
        #expect(cached.source == .cache && cached.data?.movies.first?.title == "Alien")
        #expect(connector.transport.requests.count == 1)
    }

    @Test(arguments: CacheBackend.allCases)
    func anUnsetVariableAndOneSetToNilSendDifferentBytesAndAreNeitherEqualNorShared(
        backend: CacheBackend
    )
        async throws
    {
        // given
        let connector = CachedConnector(backend, maxAge: 3600)
        connector.transport.enqueue(alien)
        let unset = BuiltVariables(genre: "Sci-Fi")
        let null = BuiltVariables(genre: "Sci-Fi") { $0.title = nil }

        // when
        _ = try await ref(connector.dataConnect, unset).execute(fetchPolicy: .serverOnly)
        let other = try await ref(connector.dataConnect, null).execute(fetchPolicy: .cacheOnly)

        // then
        let sent = try #require(connector.transport.requests.first?.variables)
        #expect(sent["title"] == nil)
        #expect(try OperationCodec.encode(null).get() == ["genre": "Sci-Fi", "title": .null])
        #expect(unset != null)
        #expect(ref(connector.dataConnect, unset) !== ref(connector.dataConnect, null))
        #expect(other.data == nil, "a separate cache entry, not filled yet")
    }
}
