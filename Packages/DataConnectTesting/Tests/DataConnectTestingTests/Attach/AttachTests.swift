import DataConnectTesting
import FirebaseDataConnect
import FirebaseDataConnectGenerated
import Foundation
import Testing

/// The checked-in generated movies SDK, driven through its shared accessor `DataConnect.moviesConnector`, against
/// emulators attached with `TestEmulator.attach`.
@Suite struct AttachTests {
    let emulator: TestEmulator
    let movies = DataConnect.moviesConnector

    init() throws {
        emulator = try MoviesBackend.emulator()
    }

    @Test func aQueryThroughTheGeneratedConnectorIsAnsweredByTheAttachedEmulator() async throws {
        // when
        let result = try await emulator.attach {
            try await movies.listMoviesByGenreQuery.execute(genre: "Sci-Fi")
        }

        // then
        #expect(result.source == .server)
        #expect(result.data.movies.count == 15)
        #expect(result.data.movies.contains { $0.title == "Alien" })
    }

    /// Fails unless `attach` is honoured: without it the shared connector sends the mutation to its own endpoint
    /// (production, or whatever `useEmulator` last said), and this emulator never sees the movie.
    @Test func aMutationThroughTheSharedConnectorLandsInTheAttachedEmulator() async throws {
        // given
        let title = "Attached \(UUID().uuidString)"

        // when
        let created = try await emulator.attach {
            try await movies.createMovieMutation.execute(
                title: title, releaseYear: 1995, genre: MoviesBackend.uniqueGenre(), rating: 5)
        }

        // then
        #expect(created.source == .server)
        #expect(MoviesBackend.count(titled: title, in: emulator) == 1)
    }

    @Test func aRefCreatedInsideAttachKeepsTheEmulatorAfterAttachReturns() async throws {
        // given
        let genre = MoviesBackend.uniqueGenre()
        let ref = await emulator.attach { movies.listMoviesByGenreQuery.ref(genre: genre) }
        _ = try await emulator.attach {
            try await movies.createMovieMutation.execute(title: "Late", releaseYear: 2001, genre: genre, rating: 3)
        }

        // when: used outside the scope, from another task
        let result = try await Task.detached { try await ref.execute(fetchPolicy: .serverOnly) }.value

        // then
        #expect(result.data.movies.map(\.title) == ["Late"])
    }

    @Test func anObservedRefPublishesTheNewListAfterAMutation() async throws {
        try await emulator.attach {
            // given: an observed list of a genre with one movie, executed once
            let genre = MoviesBackend.uniqueGenre()
            _ = try await movies.createMovieMutation.execute(title: "Heat", releaseYear: 1995, genre: genre, rating: 5)
            let ref = movies.listMoviesByGenreQuery.ref(genre: genre)
            let published = Recorder(ref.results)
            _ = try await ref.execute()

            // when: another movie of that genre is inserted through the same connector
            _ = try await movies.createMovieMutation.execute(title: "Ronin", releaseYear: 1998, genre: genre, rating: 4)
            let seen = await published.wait(for: 2)

            // then: the insert made the cached list stale; the SDK refetched it and published the new list
            #expect(seen.map { $0.data.movies.map(\.title).sorted() } == [["Heat"], ["Heat", "Ronin"]])
            #expect(seen.map(\.source) == [.server, .server])
        }
    }

    @Test func aSignInInsideAttachSignsInTheStandInOnly() async throws {
        // given
        let auth = EmulatorAuth()
        auth.signIn(uid: "uid-alice", email: "alice@example.com", emailVerified: true)

        // when
        let signedIn = try await emulator.attach {
            movies.setAuthTokenProvider(auth)
            return try await movies.getCurrentUserQuery.execute()
        }
        let other = try MoviesBackend.emulator()
        let anotherScope = await #expect(throws: DataConnectServerError.self) {
            try await other.attach { try await movies.getCurrentUserQuery.execute() }
        }

        // then
        #expect(signedIn.data.user?.username == "alice")
        #expect(anotherScope?.code == .unauthenticated, "another scope starts signed out")
        #expect(
            DataConnect.dataConnect(connectorConfig: MoviesConnector.connectorConfig).authTokenProvider
                is FirebaseAuthTokenProvider)
    }

    @Test func aSignedOutUserOperationIsRefusedAsUnauthenticated() async throws {
        // when
        let error = await #expect(throws: DataConnectServerError.self) {
            try await emulator.attach { try await movies.upsertUserMutation.execute(username: "nobody") }
        }

        // then
        #expect(error?.code == .unauthenticated)
        #expect(error?.httpStatus == 401)
    }

    @Test(arguments: [TestEmulator.Mode.inProcess, .live])
    func subscribeThroughTheGeneratedConnectorSeesAMutation(mode: TestEmulator.Mode) async throws {
        let emulator = try MoviesBackend.emulator(mode)
        try await emulator.attach {
            // given: a subscriber that has its first result
            let genre = MoviesBackend.uniqueGenre()
            let ref = movies.listMoviesByGenreQuery.ref(genre: genre)
            let updates = Recorder(try await ref.subscribe())
            let first = await updates.wait(for: 1)
            #expect((try? first.first?.get())?.data.movies.isEmpty == true)

            // when
            _ = try await movies.createMovieMutation.execute(title: "Heat", releaseYear: 1995, genre: genre, rating: 5)
            let seen = await updates.wait { values in
                values.contains { (try? $0.get())?.data.movies.map(\.title) == ["Heat"] }
            }

            // then
            #expect(seen.contains { (try? $0.get())?.data.movies.map(\.title) == ["Heat"] }, "\(seen.count) updates")
            #expect(emulator.responder.hub.subscriberCount == 1)
        }
    }
}

/// Two attachments at once, as parallel suites are: neither sees the other's data, cache or sign-in.
@Suite struct ConcurrentAttachTests {
    let movies = DataConnect.moviesConnector

    @Test(.timeLimit(.minutes(10)))  // a hang guard only: the barriers release on any failure
    func twoConcurrentAttachmentsShareNeitherDataNorCache() async throws {
        // given: two emulators, and one genre both lists ask for (so both refs have the same cache key)
        let (first, second) = (try MoviesBackend.emulator(), try MoviesBackend.emulator())
        let genre = MoviesBackend.uniqueGenre("Isolation")
        let bothCreated = Barrier(parties: 2)
        let firstListed = Barrier(parties: 2)

        // when: both insert; the first lists (and caches, fresh for 30 s) its genre; then the second lists it
        async let inFirst = first.attach { () async throws -> OperationResult<ListMoviesByGenreQuery.Data> in
            do {
                _ = try await movies.createMovieMutation.execute(
                    title: "Only in first", releaseYear: 2001, genre: genre, rating: 1)
                await bothCreated.arrive()
                let listed = try await movies.listMoviesByGenreQuery.execute(genre: genre)
                await firstListed.arrive()
                return listed
            } catch {
                await bothCreated.breakDown()
                await firstListed.breakDown()
                throw error
            }
        }
        async let inSecond = second.attach { () async throws -> OperationResult<ListMoviesByGenreQuery.Data> in
            do {
                _ = try await movies.createMovieMutation.execute(
                    title: "Only in second", releaseYear: 2002, genre: genre, rating: 2)
                await bothCreated.arrive()
                await firstListed.arrive()
                return try await movies.listMoviesByGenreQuery.execute(genre: genre)
            } catch {
                await bothCreated.breakDown()
                await firstListed.breakDown()
                throw error
            }
        }
        let (firstResult, secondResult) = try await (inFirst, inSecond)

        // then: each saw its own movie only; the second was not answered from the first's cache
        #expect(firstResult.data.movies.map(\.title) == ["Only in first"])
        #expect(secondResult.data.movies.map(\.title) == ["Only in second"])
        #expect(secondResult.source == .server)
        #expect(MoviesBackend.count(titled: "Only in second", in: first) == 0)
        #expect(MoviesBackend.count(titled: "Only in first", in: second) == 0)
    }
}

/// Two suites that Swift Testing runs in parallel, each with an emulator of its own, asking the shared connector
/// for the same genre: each lists only what it created.
enum ParallelSuites {
    static let genre = MoviesBackend.uniqueGenre("Parallel")

    static func createAndList(_ title: String, on emulator: TestEmulator) async throws -> [String] {
        try await emulator.attach {
            let movies = DataConnect.moviesConnector
            _ = try await movies.listMoviesByGenreQuery.execute(genre: genre)
            _ = try await movies.createMovieMutation.execute(title: title, releaseYear: 2003, genre: genre, rating: 3)
            return try await movies.listMoviesByGenreQuery.execute(fetchPolicy: .serverOnly, genre: genre).data
                .movies.map(\.title)
        }
    }

    @Suite struct First {
        @Test func listsOnlyItsOwnMovie() async throws {
            let emulator = try MoviesBackend.emulator()
            #expect(try await ParallelSuites.createAndList("First's movie", on: emulator) == ["First's movie"])
        }
    }

    @Suite struct Second {
        @Test func listsOnlyItsOwnMovie() async throws {
            let emulator = try MoviesBackend.emulator()
            #expect(try await ParallelSuites.createAndList("Second's movie", on: emulator) == ["Second's movie"])
        }
    }
}
