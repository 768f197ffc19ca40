import DataConnectTesting
import DataConnectWire
import Foundation
import Synchronization
import Testing

@testable import FirebaseDataConnect

/// A transport that forwards to the live one and counts requests per operation.
final class CountingTransport: Transport {
    private let inner: any Transport
    private let counts = Mutex<[String: Int]>([:])

    init(_ inner: any Transport) { self.inner = inner }

    func execute(_ request: OperationRequest) async throws(TransportError) -> GraphQLResponse {
        counts.withLock { $0[request.operationName, default: 0] += 1 }
        return try await inner.execute(request)
    }

    func count(_ operation: String) -> Int { counts.withLock { $0[operation] ?? 0 } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}

struct Catalogue: Decodable, Sendable {
    struct Movie: Decodable, Sendable, Identifiable, Hashable {
        var id: String
        var title: String
        var genre: String
        var releaseYear: Int
        static func == (lhs: Movie, rhs: Movie) -> Bool { lhs.id == rhs.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }
    var movies: [Movie]
}

struct MovieTitle: Decodable, Sendable {
    struct Movie: Decodable, Sendable {
        var id: String
        var title: String
    }
    var movie: Movie?
}

struct KeyVariables: OperationVariable {
    struct Key: Encodable, Hashable, Sendable { var id: String }
    var key: Key
}

struct RenameVariables: OperationVariable {
    var id: String
    var title: String
}

struct IDVariables: OperationVariable { var id: String }

struct NewMovieVariables: OperationVariable {
    var title: String
    var releaseYear: Int
    var genre: String
    var rating: Int
}

struct NameVariables: OperationVariable { var name: String }

struct MutationKeys: Decodable, Sendable {}

/// The cache against the emulator, reached in-process: observed queries recorded as value sequences.

/// A ref's ``QueryRefObservation/results`` sequence is registered when it is read, so a ``Recorder`` made before a
/// mutation sees everything the mutation publishes; and the cache republishes before the mutation returns.
@Suite(.serialized) struct CacheObservationTests {
    let emulator: TestEmulator
    let transport: CountingTransport
    let dataConnect: DataConnect

    init() throws {
        let backend = try RepositoryPaths.moviesBackend()
        emulator = try TestEmulator.inProcess(backend: backend, seedFile: backend + "/seed_data.gql")
        transport = CountingTransport(emulator.transport)
        dataConnect = DataConnect(
            app: DataConnectFixtures.makeApp(), connectorConfig: DataConnectFixtures.config,
            settings: DataConnectSettings(cacheSettings: CacheSettings(storage: .memory, maxAge: 3600)),
            transport: transport, subscriptionTransport: emulator.subscriptionTransport)
    }

    func mutate<Variables: OperationVariable>(_ name: String, _ variables: Variables) async throws -> JSONValue? {
        let ref = dataConnect.mutation(name: name, variables: variables, resultsDataType: AnyValueData.self)
        return try await ref.execute().data?.value
    }

    struct AnyValueData: Decodable, Sendable {
        var value: JSONValue
        init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }
    }

    @Test func anUpdateChangesTheListAndTheDetailWithoutRefetchingTheDetail() async throws {
        // given: the catalogue and one movie's detail, both observed
        let list = dataConnect.query(name: "listMovies", variables: NoVariables(), resultsDataType: Catalogue.self)
        _ = try await list.execute(fetchPolicy: .serverOnly)
        let movie = try #require(list.data?.movies.first)
        let detail = dataConnect.query(
            name: "getMovieByKey", variables: KeyVariables(key: .init(id: movie.id)), resultsDataType: MovieTitle.self)
        _ = try await detail.execute(fetchPolicy: .serverOnly)
        let listTitles = Recorder(list.results)
        let detailTitles = Recorder(detail.results)

        // when: the movie is renamed
        _ = try await mutate("updateMovie", RenameVariables(id: movie.id, title: "Renamed Classic"))

        // then: the list was refetched once and the detail republished from the cache
        let detailValues = await detailTitles.wait(for: 1)
        let listValues = await listTitles.wait(for: 1)
        #expect(detailValues.map { $0.data?.movie?.title } == ["Renamed Classic"])
        #expect(detailValues.first?.source == .cache)
        #expect(listValues.map { $0.data?.movies.first { $0.id == movie.id }?.title } == ["Renamed Classic"])
        #expect(transport.count("listMovies") == 2)
        #expect(transport.count("getMovieByKey") == 1, "the detail is not refetched")
    }

    @Test func aDeleteRemovesTheRowFromTheListWithoutARefetch() async throws {
        // given
        let list = dataConnect.query(name: "listMovies", variables: NoVariables(), resultsDataType: Catalogue.self)
        _ = try await list.execute(fetchPolicy: .serverOnly)
        let before = try #require(list.data?.movies)
        let victim = before[3]
        let values = Recorder(list.results)

        // when
        _ = try await mutate("deleteMovie", IDVariables(id: victim.id))

        // then
        let published = await values.wait(for: 1)
        #expect(published.count == 1)
        #expect(published.first?.data?.movies.map(\.id) == before.filter { $0.id != victim.id }.map(\.id))
        #expect(published.first?.source == .cache)
        #expect(transport.count("listMovies") == 1)
    }

    @Test func anInsertMakesTheObservedListRefetchAndShowIt() async throws {
        // given
        let list = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
        _ = try await list.execute(fetchPolicy: .serverOnly)
        let count = try #require(list.data?.movies.count)
        let values = Recorder(list.results)

        // when
        _ = try await mutate(
            "createMovie", NewMovieVariables(title: "Cache Odyssey", releaseYear: 2031, genre: "Sci-Fi", rating: 4))

        // then
        let published = await values.wait(for: 1)
        #expect(published.first?.data?.movies.count == count + 1)
        #expect(published.first?.data?.movies.contains { $0.title == "Cache Odyssey" } == true)
        #expect(published.first?.source == .server)
        #expect(transport.count("listMoviesByGenre") == 2)
    }

    @Test func aMutationDoesNotRefetchASubscribedQueryItMadeStale() async throws {
        // given: a subscribed list (the larger, so it would be refetched first) and an observed one of another genre
        let subscribed = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
        let pushes = Recorder(try await subscribed.subscribe())
        _ = await pushes.wait(for: 1)
        let observed = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Comedy"), resultsDataType: MovieList.self)
        _ = try await observed.execute(fetchPolicy: .serverOnly)
        let count = try #require(observed.data?.movies.count)
        #expect(try #require(subscribed.data?.movies.count) > count)
        let values = Recorder(observed.results)

        // when: a movie of the observed genre is added, which makes both lists stale and changes the observed one
        _ = try await mutate(
            "createMovie", NewMovieVariables(title: "Laugh Cache", releaseYear: 2032, genre: "Comedy", rating: 3))

        // then: the observed list was refetched; the subscribed one, whose result the server pushes when it changes,
        // was not (it would have gone first)
        let published = await values.wait(for: 1)
        #expect(published.first?.data?.movies.count == count + 1)
        #expect(transport.count("listMoviesByGenre") == 2, "the observed list's execute and its refetch")
        #expect(pushes.all.count == 1, "the subscribed list did not change")
    }

    @Test func anUnrelatedMutationPublishesNothing() async throws {
        // given
        let list = dataConnect.query(name: "listMovies", variables: NoVariables(), resultsDataType: Catalogue.self)
        _ = try await list.execute(fetchPolicy: .serverOnly)
        let values = Recorder(list.results)

        // when: an actor is created, then the list is fetched from the server as a marker
        _ = try await mutate("createActor", NameVariables(name: "Nobody In Particular"))
        let engine = try #require(dataConnect.cacheEngine(uid: nil))
        let stillFresh = try engine.isFresh(list.cacheKey)
        _ = try await list.execute(fetchPolicy: .serverOnly)

        // then: nothing was republished or refetched before the marker
        let published = await values.wait { $0.contains { $0.source == .server } }
        #expect(stillFresh, "the list was not made stale")
        #expect(published.map(\.source) == [.server])
        #expect(transport.count("listMovies") == 2)
    }

    @Test func aSortedSectionedObservationRegroupsAfterAnInsertAndADelete() async throws {
        // given: the catalogue sorted by title and grouped by genre
        let list = dataConnect.query(name: "listMovies", variables: NoVariables(), resultsDataType: Catalogue.self)
        _ = try await list.execute(fetchPolicy: .serverOnly)
        let byGenre = list.results(\.movies, sortedBy: \.title).sectioned(by: \.genre)
        let snapshots = Recorder(byGenre.updates)
        let initial = try #require(await snapshots.wait(for: 1).first)
        let sciFi = try #require(initial.sections.firstIndex { $0.key == "Sci-Fi" })

        // when: a Sci-Fi movie that sorts first is added, then a movie of a new genre, then the first is deleted
        let added = try await mutate(
            "createMovie", NewMovieVariables(title: "AAA First Contact", releaseYear: 2030, genre: "Sci-Fi", rating: 3))
        let addedID = try #require(added?["movie_insert"]?["id"]?.stringValue)
        _ = await snapshots.wait(for: 2)
        _ = try await mutate(
            "createMovie", NewMovieVariables(title: "Zither", releaseYear: 2030, genre: "Zzz Documentary", rating: 3))
        _ = await snapshots.wait(for: 3)
        _ = try await mutate("deleteMovie", IDVariables(id: addedID))
        let all = await snapshots.wait(for: 4)

        // then: each snapshot's change indices are the difference from the previous one
        try #require(all.count == 4)
        #expect(all[1].changes == SectionedChanges(insertions: [SectionedIndex(section: sciFi, item: 0)]))
        #expect(all[1].sections[sciFi].first?.title == "AAA First Contact")
        #expect(all[2].changes == SectionedChanges(insertedSections: [all[2].sections.count - 1]))
        #expect(all[2].sections.last?.key == "Zzz Documentary")
        #expect(all[3].changes == SectionedChanges(deletions: [SectionedIndex(section: sciFi, item: 0)]))
        #expect(all[3].sections[sciFi].map(\.id) == initial.sections[sciFi].map(\.id))
        for (previous, next) in zip(all, all.dropFirst()) {
            #expect(next.changes == SectionedChanges(from: previous.sections, to: next.sections))
        }
    }
}
