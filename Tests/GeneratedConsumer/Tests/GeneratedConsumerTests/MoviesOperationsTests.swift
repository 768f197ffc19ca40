import DataConnectTesting
import FirebaseDataConnect
import FirebaseDataConnectGenerated
import Foundation
import Testing

/// The shared seeded movies emulator and the auth provider `DataConnect.moviesConnector` uses in these tests.
enum MoviesFixture {
    private static let started = SharedEmulators { database in
        try TestEmulator(backend: RepositoryPaths.movies, seedFile: RepositoryPaths.moviesSeed, database: database)
    }
    static let auth = EmulatorAuth()

    @discardableResult
    static func connect() throws -> TestEmulator {
        let emulator = try started.get()
        DataConnect.moviesConnector.useEmulator(host: emulator.host, port: emulator.port)
        DataConnect.moviesConnector.setAuthTokenProvider(auth)
        auth.signOut()
        return emulator
    }

    static func signInNewUser() -> String {
        let uid = "uid-\(UUID().uuidString.prefix(12).lowercased())"
        auth.signIn(uid: uid, email: "\(uid)@example.com", emailVerified: true)
        return uid
    }
}

/// A text no other test uses, e.g. a genre or title only this test's rows carry.
private func unique(_ prefix: String) -> String { "\(prefix) \(UUID().uuidString.prefix(8))" }

/// Every operation of `DataConnect.moviesConnector`, through the generated API, against a live emulator.
@Suite(.onBothDatabases, .serialized) struct MoviesOperationsTests {
    let movies = DataConnect.moviesConnector

    init() throws {
        try MoviesFixture.connect()
    }

    /// Creates a movie through `createMovie` and returns its id.
    private func createMovie(
        _ title: String, year: Int = 2001, genre: String = "Test", rating: Int = 3
    ) async throws -> UUID {
        let result = try await movies.createMovieMutation.execute(
            title: title, releaseYear: year, genre: genre, rating: rating)
        return try #require(result.data).movie_insert.id
    }

    // MARK: - Movies

    @Test func createMovieIsReadBackByIdKeyTitleGenreAndInTheList() async throws {
        // given
        let title = unique("Moon")
        let genre = unique("Genre")

        // when
        let id = try await createMovie(title, year: 2009, genre: genre, rating: 4)
        let byId = try await movies.getMovieByIdQuery.execute(id: id)
        let byKey = try await movies.getMovieByKeyQuery.execute(key: MovieKey(id: id))
        let byGenre = try await movies.listMoviesByGenreQuery.execute(genre: genre)
        let all = try await movies.listMoviesQuery.execute()

        // then
        let movie = try #require(byId.data.movie)
        #expect(movie.id == id)
        #expect(movie.title == title)
        #expect(movie.releaseYear == 2009)
        #expect(movie.genre == genre)
        #expect(movie.rating == 4)
        #expect(movie.aspectratio == .WIDESCREEN, "the schema default")
        #expect(movie.isClassic == false)
        #expect(movie.description == nil)
        #expect(movie.director == nil)
        #expect(movie.metadata == nil)
        #expect(movie.mainActors.isEmpty && movie.supportingActors.isEmpty && movie.cast.isEmpty)
        #expect(movie.reviews.isEmpty)
        #expect(movie.reviewStats.first?._count ?? 0 == 0)
        #expect(movie.favorites.first?._count ?? 0 == 0)
        #expect(byKey.data.movie?.title == title)
        #expect(byKey.data.movie?.movieKey.id == id)
        #expect(byGenre.data.movies.map(\.id) == [id])
        let listed = try #require(all.data.movies.first { $0.id == id })
        #expect(listed.title == title && listed.genre == genre && listed.releaseYear == 2009 && listed.rating == 4)
        #expect(listed.aspectratio == .WIDESCREEN)
        #expect(byId.source == .server)
        #expect(try await movies.getMovieByKeyQuery.execute(key: MovieKey(id: UUID())).data.movie == nil)
        #expect(try await movies.getMovieByIdQuery.execute(id: UUID()).data.movie == nil)
    }

    @Test func getMovieByTitlePicksTheMostRecentMovieWithThatTitle() async throws {
        // given: two movies with the same title
        let title = unique("Remake")
        _ = try await createMovie(title, year: 1990)
        let newer = try await createMovie(title, year: 2020, rating: 5)

        // when
        let found = try await movies.getMovieByTitleQuery.execute(title: title)
        let missing = try await movies.getMovieByTitleQuery.execute(title: unique("Nothing"))

        // then
        #expect(found.data.movie?.id == newer)
        #expect(found.data.movie?.releaseYear == 2020)
        #expect(found.data.movie?.rating == 5)
        #expect(missing.data.movie == nil)
    }

    @Test func createMovieWithMetadataRoundTripsEveryOptionalVariable() async throws {
        // given
        let title = unique("Arrival II")
        let tag = unique("tag")
        let releaseDate = try LocalDate(year: 2030, month: 11, day: 11)
        let extras = try AnyValue(codableValue: ["rated": "PG-13", "award": "best score"])

        // when
        let created = try await movies.createMovieWithMetadataMutation.execute(
            title: title, releaseYear: 2030, genre: "Sci-Fi", rating: 5
        ) {
            $0.aspectratio = .ACADEMY
            $0.tags = [tag, "sequel"]
            $0.releaseDate = releaseDate
            $0.durationHours = 1.75
            $0.budget = 123_456_789_012_345
            $0.extras = extras
        }
        let id = try #require(created.data).movie_insert.id
        let read = try await movies.getMovieByIdQuery.execute(id: id)
        let byTag = try await movies.listMoviesByTagQuery.execute(tag: tag)

        // then
        let movie = try #require(read.data.movie)
        #expect(movie.aspectratio == .ACADEMY)
        #expect(movie.tags == [tag, "sequel"])
        let metadata = try #require(movie.metadata)
        #expect(metadata.releaseDate == releaseDate)
        #expect(metadata.durationHours == 1.75)
        #expect(metadata.budget == 123_456_789_012_345, "beyond 2^53: Int64 travels as a string")
        #expect(metadata.boxOffice == nil)
        #expect(metadata.language == nil)
        #expect(metadata.extras == extras)
        #expect(try metadata.extras?.decodeValue([String: String].self) == ["rated": "PG-13", "award": "best score"])
        #expect(byTag.data.movies.map(\.id) == [id])
        #expect(byTag.data.movies.first?.tags == [tag, "sequel"])

        // when: no trailing closure, every optional variable unset
        let plain = try await movies.createMovieWithMetadataMutation.execute(
            title: unique("Plain"), releaseYear: 2001, genre: "Drama", rating: 2)
        let plainID = plain.data.movie_insert.id
        let plainMovie = try #require(try await movies.getMovieByIdQuery.execute(id: plainID).data.movie)

        // then
        #expect(plainMovie.aspectratio == .WIDESCREEN && plainMovie.tags == nil)
        #expect(plainMovie.metadata.map { $0.releaseDate == nil && $0.budget == nil && $0.extras == nil } == true)
    }

    @Test func updateMovieWritesOnlySetVariablesAndExplicitNullClears() async throws {
        // given
        let id = try await createMovie(unique("Draft"), year: 2000, genre: "Drama", rating: 2)
        let newTitle = unique("Final")

        // when: some optional variables set
        let updated = try await movies.updateMovieMutation.execute(id: id) {
            $0.title = newTitle
            $0.description = "A synopsis."
            $0.aspectratio = .ANAMORPHIC
            $0.tags = ["edited"]
        }
        let afterUpdate = try #require(try await movies.getMovieByIdQuery.execute(id: id).data.movie)
        // when: description set to an explicit null, everything else unset
        _ = try await movies.updateMovieMutation.execute(id: id) { $0.description = nil }
        let afterNull = try #require(try await movies.getMovieByIdQuery.execute(id: id).data.movie)

        // then
        #expect(updated.data.movie_update?.id == id)
        #expect(afterUpdate.title == newTitle)
        #expect(afterUpdate.description == "A synopsis.")
        #expect(afterUpdate.aspectratio == .ANAMORPHIC)
        #expect(afterUpdate.tags == ["edited"])
        #expect(afterUpdate.genre == "Drama" && afterUpdate.releaseYear == 2000 && afterUpdate.rating == 2)
        #expect(afterNull.description == nil, "null clears the column")
        #expect(afterNull.title == newTitle, "unset variables leave their columns alone")
        #expect(afterNull.aspectratio == .ANAMORPHIC)
        #expect(afterNull.tags == ["edited"])
        let unknown = try await movies.updateMovieMutation.execute(id: UUID()) { $0.title = "Nobody" }
        #expect(unknown.data.movie_update == nil)
    }

    @Test func bumpMovieRatingRaisesTheRatingByOne() async throws {
        // given
        let id = try await createMovie(unique("Sleeper"), rating: 3)

        // when
        let bumped = try await movies.bumpMovieRatingMutation.execute(id: id)
        _ = try await movies.bumpMovieRatingMutation.execute(id: id)
        let movie = try await movies.getMovieByIdQuery.execute(id: id).data.movie

        // then
        #expect(bumped.data.movie_update?.id == id)
        #expect(movie?.rating == 5)
    }

    @Test func deleteMovieRemovesTheMovieAndItsLinks() async throws {
        // given: a movie with a cast member and a favorite
        let id = try await createMovie(unique("Doomed"))
        let actor = try #require(try await movies.createActorMutation.execute(name: unique("Extra")).data)
        _ = try await movies.addActorToMovieMutation.execute(movieId: id, actorId: actor.actor_insert.id, role: "main")

        // when
        let deleted = try await movies.deleteMovieMutation.execute(id: id)
        let again = try await movies.deleteMovieMutation.execute(id: id)
        let read = try await movies.getMovieByIdQuery.execute(id: id)
        let actorAfter = try await movies.getActorByIdQuery.execute(id: actor.actor_insert.id)

        // then
        #expect(deleted.data.movie_delete?.id == id)
        #expect(again.data.movie_delete == nil)
        #expect(read.data.movie == nil)
        #expect(actorAfter.data.actor?.movies.isEmpty == true, "the cast link went with the movie")
    }

    @Test func markClassicsBeforeFlagsOnlyOlderMovies() async throws {
        // given
        let old = try await createMovie(unique("Silent"), year: 1895)
        let recent = try await createMovie(unique("Talkie"), year: 2040)
        _ = MoviesFixture.signInNewUser()

        // when
        let marked = try await movies.markClassicsBeforeMutation.execute(year: 1896)

        // then
        #expect(marked.data.movie_updateMany >= 1)
        #expect(try await movies.getMovieByIdQuery.execute(id: old).data.movie?.isClassic == true)
        #expect(try await movies.getMovieByIdQuery.execute(id: recent).data.movie?.isClassic == false)
    }

    @Test func userLevelOperationsAreRefusedSignedOut() async throws {
        // given
        let id = try await createMovie(unique("Open"))
        MoviesFixture.auth.signOut()

        // when
        let mark = await #expect(throws: DataConnectServerError.self) {
            try await movies.markClassicsBeforeMutation.execute(year: 3000)
        }
        let me = await #expect(throws: DataConnectServerError.self) {
            try await movies.getCurrentUserQuery.execute()
        }
        let review = await #expect(throws: DataConnectServerError.self) {
            try await movies.addReviewMutation.execute(movieId: id, rating: 1, text: "anonymous")
        }

        // then
        #expect(mark?.code == .unauthenticated)
        #expect(mark?.httpStatus == 401)
        #expect(me?.code == .unauthenticated)
        #expect(review?.code == .unauthenticated)
        #expect(try await movies.getMovieByIdQuery.execute(id: id).data.movie?.isClassic == false)
    }

    @Test func deleteUnratedMoviesDeletesTheMovieWhoseRatingWasSetToNull() async throws {
        // given: two movies, one with its rating cleared by an explicit null
        let unrated = try await createMovie(unique("Unrated"))
        let rated = try await createMovie(unique("Rated"))
        _ = try await movies.updateMovieMutation.execute(id: unrated) { $0.rating = nil }
        #expect(try await movies.getMovieByIdQuery.execute(id: unrated).data.movie?.rating == nil)
        _ = MoviesFixture.signInNewUser()

        // when
        let result = try await movies.deleteUnratedMoviesMutation.execute()

        // then
        #expect(result.data.movie_deleteMany >= 1)
        #expect(try await movies.getMovieByIdQuery.execute(id: unrated).data.movie == nil)
        #expect(try await movies.getMovieByIdQuery.execute(id: rated).data.movie?.rating == 3)
    }

    // MARK: - Lists

    @Test func searchMoviesAppliesOnlyTheFiltersThatAreSet() async throws {
        // given: three movies in a genre of their own
        let genre = unique("Search")
        let word = unique("Zyx").replacingOccurrences(of: " ", with: "")
        let alpha = try await createMovie("Alpha \(word)", year: 2001, genre: genre, rating: 5)
        let beta = try await createMovie("Beta", year: 2005, genre: genre, rating: 3)
        let gamma = try await createMovie("Gamma", year: 2010, genre: genre, rating: 4)
        func search(_ filters: @escaping @MainActor (inout SearchMoviesQuery.Variables) -> Void) async throws -> [UUID]
        {
            try await movies.searchMoviesQuery.execute(filters).data.movies.map(\.id)
        }

        // when / then: rating DESC, then title
        #expect(try await search { $0.genre = genre } == [alpha, gamma, beta])
        #expect(
            try await search {
                $0.genre = genre; $0.minYear = 2004
            } == [gamma, beta])
        #expect(
            try await search {
                $0.genre = genre; $0.maxYear = 2005; $0.minRating = 4
            } == [alpha])
        #expect(
            try await search {
                $0.genre = genre; $0.limit = 2
            } == [alpha, gamma])
        #expect(try await search { $0.title = word } == [alpha])
        #expect(
            try await search {
                $0.genre = genre; $0.excludedGenres = [genre]
            } == [])
        let everything = try await movies.searchMoviesQuery.execute().data.movies
        #expect(everything.contains { $0.id == beta }, "no filter set: the whole catalogue")
        #expect(everything.first?.rating == 5)
    }

    @Test func listMoviesPagedOrdersAndPagesWithoutOverlap() async throws {
        // given: the catalogue as it is now (nothing else runs meanwhile)
        let paged = movies.listMoviesPagedQuery
        let whole = try await paged.execute {
            $0.orderByRating = .DESC; $0.limit = 10
        }.data.movies

        // when
        let first = try await paged.execute {
            $0.orderByRating = .DESC; $0.limit = 5
        }.data.movies
        let second = try await paged.execute {
            $0.orderByRating = .DESC; $0.limit = 5; $0.offset = 5
        }.data.movies
        let byYear = try await paged.execute { $0.orderByReleaseYear = .ASC }.data.movies
        let defaults = try await paged.execute().data.movies

        // then
        #expect(whole.count == 10)
        #expect((first + second).map(\.id) == whole.map(\.id))
        let ratings = whole.compactMap(\.rating)
        #expect(ratings == ratings.sorted(by: >))
        #expect(byYear.count == 20, "limit defaults to 20")
        let years = byYear.compactMap(\.releaseYear)
        #expect(years == years.sorted())
        #expect(defaults.count == 20)
    }

    @Test func listMoviesByTagOrdersByYearAndSkipsOtherTags() async throws {
        // given
        let tag = unique("heist")
        let later = try await movies.createMovieWithMetadataMutation.execute(
            title: unique("Later"), releaseYear: 2012, genre: "Crime", rating: 3
        ) { $0.tags = [tag] }.data.movie_insert.id
        let earlier = try await movies.createMovieWithMetadataMutation.execute(
            title: unique("Earlier"), releaseYear: 1999, genre: "Crime", rating: 3
        ) { $0.tags = ["other", tag] }.data.movie_insert.id

        // when
        let tagged = try await movies.listMoviesByTagQuery.execute(tag: tag)

        // then
        #expect(tagged.data.movies.map(\.id) == [earlier, later])
        #expect(tagged.data.movies.first?.tags == ["other", tag])
    }

    @Test func directorsAndTheirMoviesComeFromTheSeed() async throws {
        // when
        let directors = try await movies.listDirectorsQuery.execute()
        let byDirector = try await movies.listMoviesByDirectorQuery.execute(name: "James Cameron")
        let nobody = try await movies.listMoviesByDirectorQuery.execute(name: unique("Nobody"))

        // then
        let names = directors.data.people.map(\.name)
        #expect(names == names.sorted())
        let cameron = try #require(directors.data.people.first { $0.name == "James Cameron" })
        #expect(cameron.birthYear == 1954)
        #expect(cameron.movies_on_director.compactMap(\.releaseYear) == [1984, 1986, 1991, 1997])
        #expect(byDirector.data.movies.compactMap(\.releaseYear) == [1984, 1986, 1991, 1997])
        #expect(byDirector.data.movies.map(\.id) == cameron.movies_on_director.map(\.id))
        #expect(nobody.data.movies.isEmpty)
    }

    @Test func listGenreStatsAggregatesPerGenre() async throws {
        // given
        let genre = unique("Stats")
        _ = try await createMovie(unique("One"), year: 1990, genre: genre, rating: 2)
        _ = try await createMovie(unique("Two"), year: 2000, genre: genre, rating: 5)

        // when
        let stats = try await movies.listGenreStatsQuery.execute()

        // then
        let row = try #require(stats.data.movies.first { $0.genre == genre })
        #expect(row._count == 2)
        #expect(row.rating_avg == 3.5)
        #expect(row.releaseYear_min == 1990)
        #expect(row.releaseYear_max == 2000)
        let genres = stats.data.movies.compactMap(\.genre)
        #expect(genres == genres.sorted())
    }

    @Test func getCatalogueStatsCountsNewRows() async throws {
        // given
        let before = try #require(try await movies.getCatalogueStatsQuery.execute().data)

        // when: one movie, one user, one review
        let id = try await createMovie(unique("Counted"), rating: 1)
        _ = MoviesFixture.signInNewUser()
        _ = try await movies.upsertUserMutation.execute(username: unique("counter"))
        _ = try await movies.addReviewMutation.execute(movieId: id, rating: 1, text: "Counted.")
        let after = try #require(try await movies.getCatalogueStatsQuery.execute().data)

        // then
        #expect(after.movieTotals.first?._count == (before.movieTotals.first?._count ?? 0) + 1)
        #expect(after.userTotals.first?._count == (before.userTotals.first?._count ?? 0) + 1)
        #expect(after.reviewTotals.first?._count == (before.reviewTotals.first?._count ?? 0) + 1)
        #expect(after.reviewTotals.first?.rating_min == 1)
        #expect(after.movieTotals.first?.releaseYear_min ?? 0 <= 2001)
    }

    // MARK: - Actors

    @Test func actorsAreCastThroughAddActorToMovie() async throws {
        // given
        let movie = try await createMovie(unique("Blade Runner"))
        let birthDate = try LocalDate(year: 1944, month: 1, day: 23)
        let lead = try #require(
            try await movies.createActorMutation.execute(name: unique("Rutger")) {
                $0.birthDate = birthDate
                $0.imageUrl = "https://example.com/r.jpg"
            }.data
        ).actor_insert.id
        let support = try #require(try await movies.createActorMutation.execute(name: unique("Sean")).data)
            .actor_insert.id

        // when
        let linked = try await movies.addActorToMovieMutation.execute(movieId: movie, actorId: lead, role: "main")
        _ = try await movies.addActorToMovieMutation.execute(movieId: movie, actorId: support, role: "supporting")
        let read = try #require(try await movies.getMovieByIdQuery.execute(id: movie).data.movie)
        let actor = try #require(try await movies.getActorByIdQuery.execute(id: lead).data.actor)

        // then
        #expect(linked.data.movieActor_upsert.movieId == movie)
        #expect(linked.data.movieActor_upsert.actorId == lead)
        #expect(read.mainActors.map(\.actor.id) == [lead])
        #expect(read.mainActors.first?.actor.imageUrl == "https://example.com/r.jpg")
        #expect(read.supportingActors.map(\.actor.id) == [support])
        #expect(Set(read.cast.map(\.id)) == [lead, support])
        #expect(actor.birthDate == birthDate)
        #expect(actor.movies.map(\.id) == [movie])
        #expect(actor.leadRoles.map(\.id) == [movie])
        #expect(actor.roles.map(\.role) == ["main"])
        #expect(actor.roles.first?.movie.id == movie)

        // when: cast again in another role
        _ = try await movies.addActorToMovieMutation.execute(movieId: movie, actorId: lead, role: "supporting")
        let recast = try #require(try await movies.getActorByIdQuery.execute(id: lead).data.actor)

        // then: the upsert replaced the role
        #expect(recast.leadRoles.isEmpty)
        #expect(recast.roles.map(\.role) == ["supporting"])
    }

    @Test func listActorsSortsByNameAndHonoursTheLimit() async throws {
        // given
        let name = unique("Zz Actor")
        let birthDate = try LocalDate(year: 1970, month: 2, day: 3)
        let id = try #require(
            try await movies.createActorMutation.execute(name: name) { $0.birthDate = birthDate }.data
        ).actor_insert.id

        // when
        let two = try await movies.listActorsQuery.execute { $0.limit = 2 }
        let byDefault = try await movies.listActorsQuery.execute()
        let all = try await movies.listActorsQuery.execute { $0.limit = 10_000 }

        // then
        #expect(two.data.actors.count == 2)
        #expect(byDefault.data.actors.count <= 50)
        #expect(two.data.actors.map(\.id) == Array(byDefault.data.actors.prefix(2)).map(\.id))
        let names = all.data.actors.map(\.name)
        #expect(names == names.sorted())
        #expect(all.data.actors.first { $0.id == id }?.birthDate == birthDate)
        #expect(try await movies.getActorByIdQuery.execute(id: UUID()).data.actor == nil)
    }

    // MARK: - Users, reviews and favorites

    @Test func upsertUserCreatesThenRenamesTheSignedInUser() async throws {
        // given
        let uid = MoviesFixture.signInNewUser()
        let first = unique("neo")
        let second = unique("thomas")
        let before = try await movies.getCurrentUserQuery.execute()

        // when
        let created = try await movies.upsertUserMutation.execute(username: first)
        let afterCreate = try await movies.getCurrentUserQuery.execute()
        _ = try await movies.upsertUserMutation.execute(username: second)
        let afterRename = try await movies.getCurrentUserQuery.execute()

        // then
        #expect(before.data.user == nil, "signed in, but no profile yet")
        #expect(created.data.user_upsert.id == uid)
        #expect(afterCreate.data.user?.id == uid)
        #expect(afterCreate.data.user?.username == first)
        #expect(afterRename.data.user?.username == second)
        #expect(afterRename.data.user?.favorites.isEmpty == true)
        #expect(afterRename.data.user?.reviews.isEmpty == true)
    }

    @Test func reviewMutationsWriteAndRemoveTheSignedInUsersReview() async throws {
        // given
        let title = unique("Reviewed")
        let movie = try await createMovie(title)
        let uid = MoviesFixture.signInNewUser()
        let username = unique("critic")
        _ = try await movies.upsertUserMutation.execute(username: username)

        // when: add
        let added = try await movies.addReviewMutation.execute(movieId: movie, rating: 4, text: "Good.")
        let mine = try await movies.listMyReviewsQuery.execute().data.reviews
        let onMovie = try #require(try await movies.getMovieByIdQuery.execute(id: movie).data.movie)
        let recent = try await movies.listRecentReviewsQuery.execute { $0.limit = 1000 }.data.reviews
        let me = try #require(try await movies.getCurrentUserQuery.execute().data.user)

        // then
        #expect(added.data.review_upsert.movieId == movie)
        #expect(added.data.review_upsert.userId == uid)
        #expect(mine.map(\.movieId) == [movie])
        #expect(mine.first?.rating == 4 && mine.first?.text == "Good.")
        #expect(mine.first?.movie.title == title)
        #expect(onMovie.reviews.map(\.user.id) == [uid])
        #expect(onMovie.reviews.first?.user.username == username)
        #expect(onMovie.reviewStats.first?._count == 1)
        #expect(onMovie.reviewStats.first?.rating_avg == 4)
        let recentOne = try #require(recent.first { $0.movie.id == movie })
        #expect(recentOne.user.username == username)
        #expect(recentOne.text == "Good.")
        #expect(me.reviews.map(\.movie.id) == [movie])

        // when: update
        let updated = try await movies.updateReviewMutation.execute(movieId: movie, rating: 2, text: "Meh.")
        let afterUpdate = try await movies.listMyReviewsQuery.execute().data.reviews

        // then
        #expect(updated.data.review_update?.movieId == movie)
        #expect(afterUpdate.first?.rating == 2 && afterUpdate.first?.text == "Meh.")

        // when: delete
        let deleted = try await movies.deleteReviewMutation.execute(movieId: movie)
        let afterDelete = try await movies.listMyReviewsQuery.execute().data.reviews
        let updateMissing = try await movies.updateReviewMutation.execute(movieId: movie, rating: 1, text: "?")

        // then
        #expect(deleted.data.review_delete?.movieId == movie)
        #expect(afterDelete.isEmpty)
        #expect(updateMissing.data.review_update == nil, "no review to update")
    }

    @Test func updateMyReviewTextChangesOnlyTheText() async throws {
        // given: the signed-in user's review
        let movie = try await createMovie(unique("Rewritten"))
        let uid = MoviesFixture.signInNewUser()
        _ = try await movies.upsertUserMutation.execute(username: unique("writer"))
        _ = try await movies.addReviewMutation.execute(movieId: movie, rating: 2, text: "Meh.")

        // when
        let result = try await movies.updateMyReviewTextMutation.execute(movieId: movie, text: "Actually fine.")
        let after = try await movies.listMyReviewsQuery.execute().data.reviews

        // then
        #expect(result.data.review_update?.movieId == movie)
        #expect(result.data.review_update?.userId == uid)
        #expect(after.first?.rating == 2 && after.first?.text == "Actually fine.")
    }

    @Test func updateMyReviewTextFailsItsCheckWithoutAReview() async throws {
        // given
        let movie = try await createMovie(unique("Unreviewed"))
        _ = MoviesFixture.signInNewUser()

        // when
        let error = await #expect(throws: DataConnectOperationError.self) {
            try await movies.updateMyReviewTextMutation.execute(movieId: movie, text: "?")
        }

        // then
        #expect(error?.response?.errors.first?.message == "no review of yours")
        #expect(error?.response?.errors.first?.code == "PERMISSION_DENIED")
    }

    @Test func listHighlyReviewedMoviesDefaultsToFiveStars() async throws {
        // given: one movie reviewed 5, one reviewed 3
        let top = try await createMovie(unique("Top"))
        let fair = try await createMovie(unique("Fair"))
        _ = MoviesFixture.signInNewUser()
        _ = try await movies.upsertUserMutation.execute(username: unique("rater"))
        _ = try await movies.addReviewMutation.execute(movieId: top, rating: 5, text: "Top.")
        _ = try await movies.addReviewMutation.execute(movieId: fair, rating: 3, text: "Fair.")

        // when
        let byDefault = try await movies.listHighlyReviewedMoviesQuery.execute().data.movies.map(\.id)
        let fromThree = try await movies.listHighlyReviewedMoviesQuery.execute { $0.minRating = 3 }.data.movies

        // then
        #expect(byDefault.contains(top))
        #expect(!byDefault.contains(fair))
        #expect(fromThree.contains { $0.id == top } && fromThree.contains { $0.id == fair })
        let titles = fromThree.map(\.title)
        #expect(titles == titles.sorted())
    }

    @Test func favoritesAreAddedLookedUpAndRemoved() async throws {
        // given
        let title = unique("Favorite")
        let movie = try await createMovie(title)
        let uid = MoviesFixture.signInNewUser()
        _ = try await movies.upsertUserMutation.execute(username: unique("fan"))
        let before = try await movies.getMyFavoriteQuery.execute(movieId: movie)

        // when
        let added = try await movies.addFavoritedMovieMutation.execute(movieId: movie)
        _ = try await movies.addFavoritedMovieMutation.execute(movieId: movie)
        let found = try await movies.getMyFavoriteQuery.execute(movieId: movie)
        let me = try await movies.getCurrentUserQuery.execute()
        let onMovie = try await movies.getMovieByIdQuery.execute(id: movie)
        let removed = try await movies.deleteFavoritedMovieMutation.execute(movieId: movie)
        let after = try await movies.getMyFavoriteQuery.execute(movieId: movie)

        // then
        #expect(before.data.favoriteMovie == nil)
        #expect(added.data.favoriteMovie_upsert.userId == uid)
        #expect(added.data.favoriteMovie_upsert.movieId == movie)
        #expect(found.data.favoriteMovie?.movie.title == title)
        #expect(me.data.user?.favorites.map(\.movie.id) == [movie], "marking twice is harmless")
        #expect(onMovie.data.movie?.favorites.first?._count == 1)
        #expect(removed.data.favoriteMovie_delete?.movieId == movie)
        #expect(after.data.favoriteMovie == nil)
    }

    // MARK: - Refs and fetch policies

    @Test func refsExecuteWithEveryFetchPolicy() async throws {
        // given
        let genre = unique("Refs")
        let create = movies.createMovieMutation.ref(title: unique("Ref"), releaseYear: 2003, genre: genre, rating: 4)
        let id = try #require(try await create.execute().data).movie_insert.id
        let ref = movies.listMoviesByGenreQuery.ref(genre: genre)

        // when
        let cached = try await ref.execute(fetchPolicy: .cacheOnly)
        let fetched = try await ref.execute()
        let fresh = try await ref.execute(fetchPolicy: .serverOnly)

        // then
        #expect(cached.data == nil)
        #expect(cached.source == .cache)
        #expect(fetched.source == .server)
        #expect(fetched.data.movies.map(\.id) == [id])
        #expect(fresh.source == .server)
        #expect(fresh.data.movies.map(\.id) == [id])
        #expect(ref.data?.movies.map(\.id) == [id])
        #expect(ref.source == .server)
        #expect(ref.lastError == nil)
        #expect(movies.listMoviesByGenreQuery.ref(genre: genre) == ref, "equal variables give equal refs")
    }
}
