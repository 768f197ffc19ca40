import DataConnectTesting
import Foundation
import Testing

@testable import FirebaseDataConnect

/// ``DataConnect`` and its refs against the emulator serving `Backend/movies`, reached in-process.
@Suite struct DataConnectEmulatorTests {
    struct CreateMovieVariables: OperationVariable {
        var title: String
        var releaseYear: Int
        var genre: String
        var rating: Int
    }

    struct MovieKey: Codable, Hashable, Sendable {
        var id: String
    }

    struct CreateMovieData: Decodable, Sendable {
        var movie_insert: MovieKey
    }

    struct GetMovieByKeyVariables: OperationVariable {
        var key: MovieKey
    }

    struct GetMovieByKeyData: Decodable, Sendable {
        var movie: MovieList.Movie?
    }

    struct CurrentUserData: Decodable, Sendable {
        struct User: Decodable, Sendable {
            var id: String
            var username: String
        }

        var user: User?
    }

    let emulator: TestEmulator
    let dataConnect: DataConnect

    init() throws {
        let backend = try RepositoryPaths.moviesBackend()
        emulator = try TestEmulator.inProcess(backend: backend, seedFile: backend + "/seed_data.gql")
        dataConnect = emulator.dataConnect(connector: "movies")
    }

    @Test func createdMovieIsFoundByKeyAndByGenre() async throws {
        // given
        let genre = "Test-\(UUID().uuidString)"
        let create = dataConnect.mutation(
            name: "createMovie",
            variables: CreateMovieVariables(title: "Moon", releaseYear: 2009, genre: genre, rating: 4),
            resultsDataType: CreateMovieData.self)

        // when
        let created = try #require(try await create.execute().data?.movie_insert)
        let byKey = try await dataConnect.query(
            name: "getMovieByKey", variables: GetMovieByKeyVariables(key: created),
            resultsDataType: GetMovieByKeyData.self
        ).execute()
        let byGenre = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: genre), resultsDataType: MovieList.self)
        let listed = try await byGenre.execute()

        // then
        #expect(byKey.data?.movie == MovieList.Movie(id: created.id, title: "Moon"))
        #expect(byKey.source == .server)
        #expect(listed.data?.movies == [MovieList.Movie(id: created.id, title: "Moon")])
        #expect(byGenre.data == listed.data)
    }

    @Test func seededGenreListsItsMovies() async throws {
        let result = try await dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self
        ).execute()

        #expect(result.data?.movies.count == 15)
        #expect(result.data?.movies.contains { $0.title == "Alien" } == true)
    }

    @Test func userQueryFailsSignedOutAndSucceedsSignedIn() async throws {
        // given
        let auth = EmulatorAuth()
        dataConnect.setAuthTokenProvider(auth)
        let ref = dataConnect.query(
            name: "getCurrentUser", variables: NoVariables(), resultsDataType: CurrentUserData.self)

        // when
        let signedOut = await #expect(throws: DataConnectServerError.self) { try await ref.execute() }
        auth.signIn(uid: "uid-alice", email: "alice@example.com", emailVerified: true)
        let signedIn = try await ref.execute()

        // then
        #expect(signedOut?.code == .unauthenticated)
        #expect(signedOut?.httpStatus == 401)
        #expect(signedIn.data?.user?.id == "uid-alice")
        #expect(signedIn.data?.user?.username == "alice")
        #expect(ref.lastError == nil)
    }
}
