import DataConnectWire
import Foundation
import Synchronization
import Testing

@testable import FirebaseDataConnect

/// Inside a `DataConnect.substitution` scope a shared instance hands its refs and sign-in to a stand-in.
@Suite struct DataConnectSubstitutionTests {
    /// Substitutes one instance with one stand-in, counting how often it was asked.
    final class OneStandIn: DataConnectSubstitution {
        let original: DataConnect
        let standIn: DataConnect
        let asked = Atomic(0)

        init(original: DataConnect, standIn: DataConnect) {
            self.original = original
            self.standIn = standIn
        }

        func substitute(for dataConnect: DataConnect) -> DataConnect? {
            asked.add(1, ordering: .relaxed)
            return dataConnect === original ? standIn : nil
        }
    }

    /// An instance like a shared one: no injected transport.
    private func sharedLike() -> DataConnect {
        DataConnect(app: DataConnectFixtures.makeApp(), connectorConfig: DataConnectFixtures.config, environment: [:])
    }

    private func listRef(_ dataConnect: DataConnect) -> QueryRefObservation<MovieList, GenreVariables> {
        dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
    }

    @Test func refsCreatedInsideTheScopeBelongToTheStandInAndKeepItAfterwards() async throws {
        // given
        let original = sharedLike()
        let transport = RecordingTransport(replies: [
            .success(GraphQLResponse(data: ["movies": [["id": "m1", "title": "Alien"]]])),
            .success(GraphQLResponse(data: ["movie_insert": ["id": "m2"]])),
        ])
        let standIn = DataConnectFixtures.dataConnect(transport)
        let substitution = OneStandIn(original: original, standIn: standIn)

        // when: a ref made inside the scope, executed after it ended; a mutation made and run inside it
        let ref = DataConnect.$substitution.withValue(substitution) { listRef(original) }
        let result = try await ref.execute()
        try await DataConnect.$substitution.withValue(substitution) {
            _ = try await original.mutation(
                name: "createMovie", variables: NoVariables(), resultsDataType: CreateReviewData.self
            ).execute()
        }

        // then
        #expect(ref.dataConnect === standIn)
        #expect(result.data?.movies.map(\.title) == ["Alien"])
        #expect(transport.requests.map(\.operationName) == ["listMoviesByGenre", "createMovie"])
        #expect(listRef(original).dataConnect === original, "outside the scope nothing changes")
    }

    @Test func aSignInInsideTheScopeReachesTheStandInOnly() {
        // given
        let original = sharedLike()
        let standIn = DataConnectFixtures.dataConnect(RecordingTransport())
        let auth = EmulatorAuth()

        // when
        let insideProvider = DataConnect.$substitution.withValue(OneStandIn(original: original, standIn: standIn)) {
            original.setAuthTokenProvider(auth)
            return original.authTokenProvider
        }

        // then
        #expect(insideProvider as? EmulatorAuth === auth)
        #expect(standIn.authTokenProvider as? EmulatorAuth === auth)
        #expect(original.authTokenProvider is FirebaseAuthTokenProvider, "the original keeps Firebase Auth's user")
    }

    @Test func useEmulatorInsideTheScopeIsIgnored() {
        // given
        let original = sharedLike()
        let standIn = DataConnectFixtures.dataConnect(RecordingTransport())
        let before = original.endpoint

        // when
        DataConnect.$substitution.withValue(OneStandIn(original: original, standIn: standIn)) {
            original.useEmulator(host: "10.0.0.1", port: 1234)
        }

        // then
        #expect(original.endpoint == before)
    }

    @Test func anInstanceWithAnInjectedTransportIsNeverSubstituted() {
        // given
        let injected = DataConnectFixtures.dataConnect(RecordingTransport())
        let substitution = OneStandIn(original: injected, standIn: sharedLike())

        // when
        let ref = DataConnect.$substitution.withValue(substitution) { listRef(injected) }

        // then
        #expect(ref.dataConnect === injected)
        #expect(substitution.asked.load(ordering: .relaxed) == 0)
    }
}
