import DataConnectTestSupport
import DataConnectTesting
import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

/// `subscribe()` over the WebSocket stream against an emulator on a port (the stream needs a socket).
@Suite struct RealtimeEmulatorTests {
    let emulator: TestEmulator
    let dataConnect: DataConnect

    init() throws {
        let backend = try RepositoryPaths.moviesBackend()
        emulator = try TestEmulator(backend: backend, seedFile: backend + "/seed_data.gql")
        dataConnect = DataConnect(
            app: DataConnectFixtures.makeApp(), connectorConfig: DataConnectFixtures.config,
            settings: DataConnectSettings(cacheSettings: CacheSettings(storage: .memory, maxAge: 3600)),
            environment: [:])
        dataConnect.useEmulator(host: emulator.host, port: emulator.port)
    }

    func createMovie(_ title: String, genre: String) async throws {
        let ref = dataConnect.mutation(
            name: "createMovie",
            variables: NewMovieVariables(title: title, releaseYear: 2040, genre: genre, rating: 2),
            resultsDataType: CacheObservationTests.AnyValueData.self)
        _ = try await ref.execute()
    }

    /// The push arrives. Its latency is not judged here, since tests share a busy machine; the emulator's
    /// mutation-to-event latency is measured by `make bench-realtime`.
    @Test func aMutationReachesTheSubscriber() async throws {
        // given: a subscriber that has its first result
        let ref = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Noir"), resultsDataType: MovieList.self)
        let values = Recorder(try await ref.subscribe())
        let first = await values.wait(for: 1)
        #expect((try? first.first?.get())?.data?.movies.isEmpty == true)

        // when: another client inserts a movie of that genre
        try await createMovie("The Third Cache", genre: "Noir")
        let seen = await values.wait(for: 2)

        // then
        #expect((try? seen.last?.get())?.data?.movies.map(\.title) == ["The Third Cache"])
        #expect(ref.data?.movies.count == 1, "the push fed the ref")
    }

    @Test func aMutationThatChangesNothingSubscribedSendsNothing() async throws {
        // given
        let ref = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Noir"), resultsDataType: MovieList.self)
        let values = Recorder(try await ref.subscribe())
        _ = await values.wait(for: 1)

        // when: a movie of another genre is added, in the same table; then one of the genre, as a marker
        try await createMovie("Unrelated", genre: "Comedy")
        try await createMovie("The Marker", genre: "Noir")
        let seen = await values.wait(for: 2)

        // then: the push after the first result is the marker's, so the first mutation sent nothing
        #expect((try? seen.last?.get())?.data?.movies.map(\.title) == ["The Marker"])
        #expect(values.all.count == 2, "titles seen: \(values.all.map { try? $0.get().data?.movies.map(\.title) })")
    }

    @Test func cancellingTheConsumerEndsTheServerSubscription() async throws {
        // given
        let ref = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Noir"), resultsDataType: MovieList.self)
        let stream = try await ref.subscribe()
        let consumer = Task { for await _ in stream {} }
        let hub = emulator.emulator.responder.hub
        await HangGuard.wait { hub.subscriberCount > 0 }
        #expect(hub.subscriberCount == 1)

        // when
        consumer.cancel()

        // then
        await HangGuard.wait { hub.subscriberCount == 0 }
        #expect(hub.subscriberCount == 0)
    }
}
