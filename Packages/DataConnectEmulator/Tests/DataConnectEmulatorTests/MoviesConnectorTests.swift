import DataConnectWire
import EmulatorTesting
import Testing

/// Every operation of `Backend/movies/connector` over HTTP, against the seeded data: status, shape, values and
/// the `extensions.dataConnect` entity ids the connector emits because `connector.yaml` enables `clientCache`.
@Suite(.onBothDatabases) struct MoviesConnectorTests {
    let emulator: TestEmulator
    let client: EmulatorClient

    init() throws {
        emulator = try Backend.movies.start()
        client = EmulatorClient(emulator, connector: "movies")
    }

    // MARK: Seeded rows the tests look at

    static let starWars = "252ff53a-a807-5c12-840b-96bff4798d7b"
    static let starWarsID = "252ff53aa8075c12840b96bff4798d7b"
    static let empireStrikesBack = "058241b9-b5df-51c2-b74c-e94c4a70c781"
    static let harrisonFord = "61016af0-2d8c-5b95-b5b0-c96404e0e9b7"
    static let harrisonFordID = "61016af02d8c5b95b5b0c96404e0e9b7"
    static let someLikeItHot = "96f1fac8-2890-507a-a279-d6ad73e4c1f1"
    static let alice = TestEmulator.token(uid: "uid-alice", email: "alice@example.com")
    static let newcomer = TestEmulator.token(uid: "uid-zoe", email: "zoe@example.com")

    /// The operations the tests below call, by name; ``everyDeclaredOperationIsCovered()`` keeps it honest.
    static let covered: Set<String> = [
        "listMovies", "getMovieByKey", "listMoviesByGenre", "getMovieById", "getMovieByTitle", "searchMovies",
        "listMoviesPaged", "listMoviesByTag", "listMoviesByDirector", "listHighlyReviewedMovies", "listGenreStats",
        "getCatalogueStats", "listActors", "getActorById", "listDirectors", "listRecentReviews", "getCurrentUser",
        "listMyReviews", "getMyFavorite",
        "createMovie", "createMovieWithMetadata", "updateMovie", "bumpMovieRating", "deleteMovie", "markClassicsBefore",
        "deleteUnratedMovies", "createActor", "addActorToMovie", "upsertUser", "addReview", "updateReview",
        "updateMyReviewText", "deleteReview", "addFavoritedMovie", "deleteFavoritedMovie",
    ]

    @Test func everyDeclaredOperationIsCovered() throws {
        // given
        let declared = try declaredOperations(inConnectorFolder: Backend.movies.directory + "/connector")

        // then
        #expect(
            declared == Self.covered,
            "not covered: \(declared.subtracting(Self.covered)); stale: \(Self.covered.subtracting(declared))")
    }

    // MARK: Queries

    @Test func listMoviesReturnsTheWholeCatalogueWithAnEntityIdPerRow() async throws {
        // when
        let result = try await client.query("listMovies")

        // then
        let movies = try #require(expectData(result)["movies"]?.arrayValue)
        #expect(movies.count == 79)
        let starWars = try #require(movies.first { $0["id"]?.stringValue == Self.starWarsID })
        #expect(
            starWars == [
                "id": .string(Self.starWarsID), "title": "Star Wars", "genre": "Sci-Fi", "releaseYear": 1977,
                "rating": 5, "aspectratio": "ANAMORPHIC",
            ])
        let list = try #require(result.property(at: ["movies"]))
        #expect(list["action"] == "LIST")
        #expect(strings(list["entityIds"]).count == 79)
        #expect(strings(list["entityIds"]).contains("Movie/\(Self.starWarsID)"))
    }

    @Test func getMovieByKeyFindsOneMovieFromAKeyObject() async throws {
        // when
        let result = try await client.query("getMovieByKey", ["key": ["id": .string(Self.starWars)]])

        // then
        #expect(expectData(result) == ["movie": ["id": .string(Self.starWarsID), "title": "Star Wars"]])
        #expect(
            result.property(at: ["movie"]) == [
                "path": ["movie"], "entityId": .string("Movie/\(Self.starWarsID)"), "action": "GET",
            ])
    }

    @Test func getMovieByKeyAnswersNullForAMissingMovie() async throws {
        // when
        let result = try await client.query("getMovieByKey", ["key": ["id": "00000000-0000-4000-8000-000000000000"]])

        // then
        #expect(expectData(result) == ["movie": nil])
        #expect(result.dataConnect.isEmpty)
    }

    @Test func listMoviesByGenreFiltersOnEquality() async throws {
        // when
        let result = try await client.query("listMoviesByGenre", ["genre": "Crime"])

        // then
        let titles = Set(strings(column(expectData(result)["movies"], "title")))
        #expect(titles == ["Pulp Fiction", "Catch Me If You Can", "Goodfellas", "The Departed"])
    }

    @Test func getMovieByIdReturnsEveryRelationWithNestedEntityIds() async throws {
        // when
        let result = try await client.query("getMovieById", ["id": .string(Self.starWars)])

        // then
        let movie = try #require(expectData(result)["movie"])
        #expect(movie["title"] == "Star Wars")
        #expect(movie["tags"] == ["space", "rebellion", "hero's journey"])
        #expect(movie["isClassic"] == true)
        #expect(movie["createdAt"] == "2024-05-01T12:00:00Z")
        #expect(movie["director"] == ["id": "46a078b6289e5e479bf662094aef6ecd", "name": "George Lucas"])
        let metadata = try #require(movie["metadata"])
        #expect(metadata["releaseDate"] == "1977-05-25")
        #expect(metadata["durationHours"]?.doubleValue == 2.02)
        #expect(metadata["budget"] == "11000000", "Int64 travels as a string")
        #expect(metadata["boxOffice"] == "775000000")
        #expect(metadata["language"] == "en")
        #expect(metadata["extras"] == ["oscars": 6, "alsoKnownAs": ["Star Wars: Episode IV – A New Hope"]])
        #expect(
            Set(strings(column(column(movie["mainActors"], "actor"), "name"))) == [
                "Harrison Ford", "Mark Hamill", "Carrie Fisher",
            ])
        #expect(movie["supportingActors"] == [])
        #expect(movie["cast"]?.arrayValue?.count == 3)
        #expect(column(movie["reviews"], "reviewDate") == ["2024-10-09", "2024-07-03", "2024-03-06"], "newest first")
        #expect(movie["reviews"]?[0]?["user"] == ["id": "uid-fatima", "username": "fatima"])
        #expect(movie["reviewStats"]?[0]?["_count"] == 3)
        #expect(approximately(movie["reviewStats"]?[0]?["rating_avg"]?.doubleValue, 14.0 / 3.0, tolerance: 1e-12))
        #expect(movie["favorites"] == [["_count": 1]])

        // then: entity ids for the movie, its singular relations and its lists, by path
        #expect(result.property(at: ["movie"])?["entityId"] == .string("Movie/\(Self.starWarsID)"))
        #expect(result.property(at: ["movie", "director"])?["entityId"] == "Person/46a078b6289e5e479bf662094aef6ecd")
        #expect(
            result.property(at: ["movie", "metadata"])?["entityId"] == "MovieMetadata/1217de0a58885fe4b7f8695474ba422b")
        #expect(strings(result.property(at: ["movie", "mainActors"])?["entityIds"]).count == 3)
        #expect(result.property(at: ["movie", "mainActors"])?["action"] == "LIST")
        #expect(
            result.property(at: ["movie", "mainActors", 0, "actor"])?["entityId"]?.stringValue?.hasPrefix("Actor/")
                == true)
        #expect(
            strings(result.property(at: ["movie", "reviews"])?["entityIds"]) == [
                "Review/\(Self.starWarsID)/uid-fatima", "Review/\(Self.starWarsID)/uid-dmitri",
                "Review/\(Self.starWarsID)/uid-hana",
            ])
        #expect(result.property(at: ["movie", "reviewStats"]) == nil, "aggregate rows are not entities")
        #expect(result.property(at: ["movie", "supportingActors"]) == nil, "an empty list has no entity ids")
    }

    @Test func getMovieByTitlePicksTheFirstRowAndSpreadsTheFragment() async throws {
        // when
        let result = try await client.query("getMovieByTitle", ["title": "Alien"])

        // then
        let movie = try #require(expectData(result)["movie"])
        #expect(movie.objectKeys == ["id", "title", "genre", "releaseYear", "rating", "imageUrl", "description"])
        #expect(movie["releaseYear"] == 1979)
        #expect(movie["description"] == "A cargo crew answers a distress call and brings back a killer.")
    }

    @Test func searchMoviesDropsTheFiltersWhoseVariablesAreAbsent() async throws {
        // when
        let narrowed = try await client.query("searchMovies", ["title": "Alien", "minYear": 1980])
        let unfiltered = try await client.query("searchMovies")
        let excluding = try await client.query("searchMovies", ["excludedGenres": ["Sci-Fi", "Drama"], "limit": 500])

        // then
        #expect(strings(column(expectData(narrowed)["movies"], "title")) == ["Aliens"])
        #expect(expectData(unfiltered)["movies"]?.arrayValue?.count == 79)
        let genres = Set(strings(column(expectData(excluding)["movies"], "genre")))
        #expect(!genres.contains("Sci-Fi") && !genres.contains("Drama") && !genres.isEmpty)
        let ratings = column(expectData(unfiltered)["movies"], "rating").compactMap(\.intValue)
        #expect(ratings == ratings.sorted(by: >), "ordered by rating, highest first")
    }

    @Test func listMoviesPagedPagesWithoutOverlap() async throws {
        // when
        let first = try await client.query("listMoviesPaged", ["orderByRating": "ASC", "limit": 3, "offset": 0])
        let second = try await client.query("listMoviesPaged", ["orderByRating": "ASC", "limit": 3, "offset": 3])

        // then
        let page1 = try #require(expectData(first)["movies"]?.arrayValue)
        let page2 = try #require(expectData(second)["movies"]?.arrayValue)
        #expect(page1.count == 3 && page2.count == 3)
        #expect(Set(strings(column(.array(page1), "id"))).isDisjoint(with: strings(column(.array(page2), "id"))))
        let ratings = column(.array(page1 + page2), "rating").compactMap(\.intValue)
        #expect(ratings == ratings.sorted(), "lowest rating first, across pages")
        #expect(ratings.first == 3)
    }

    @Test func listMoviesByTagMatchesAListElement() async throws {
        // when
        let result = try await client.query("listMoviesByTag", ["tag": "time travel"])

        // then
        let movies = expectData(result)["movies"]
        #expect(
            strings(column(movies, "title")) == ["The Terminator", "Back to the Future", "Terminator 2: Judgment Day"])
        #expect(column(movies, "tags").allSatisfy { strings($0).contains("time travel") })
    }

    @Test func listMoviesByDirectorFiltersThroughTheForwardRelation() async throws {
        // when
        let result = try await client.query("listMoviesByDirector", ["name": "James Cameron"])

        // then
        #expect(
            strings(column(expectData(result)["movies"], "title")) == [
                "The Terminator", "Aliens", "Terminator 2: Judgment Day", "Titanic",
            ])
    }

    @Test func listHighlyReviewedMoviesUsesTheVariableDefault() async throws {
        // when
        let byDefault = try await client.query("listHighlyReviewedMovies")
        let lenient = try await client.query("listHighlyReviewedMovies", ["minRating": 2])

        // then
        let titles = strings(column(expectData(byDefault)["movies"], "title"))
        #expect(titles.count == 18)
        #expect(titles.prefix(3) == ["Alien", "Casablanca", "Catch Me If You Can"])
        #expect((expectData(lenient)["movies"]?.arrayValue?.count ?? 0) > titles.count)
    }

    @Test func listGenreStatsGroupsByThePlainField() async throws {
        // when
        let result = try await client.query("listGenreStats")

        // then
        let groups = try #require(expectData(result)["movies"]?.arrayValue)
        #expect(
            strings(column(.array(groups), "genre")) == [
                "Action", "Animation", "Comedy", "Crime", "Drama", "Fantasy", "Horror", "Romance", "Sci-Fi", "Thriller",
                "War",
            ])
        #expect(column(.array(groups), "_count").compactMap(\.intValue).reduce(0, +) == 79)
        let sciFi = try #require(groups.first { $0["genre"] == "Sci-Fi" })
        #expect(sciFi["_count"] == 15)
        #expect(approximately(sciFi["rating_avg"]?.doubleValue, 4.4))
        #expect(sciFi["releaseYear_min"] == 1927)
        #expect(sciFi["releaseYear_max"] == 2016)
        #expect(result.dataConnect.isEmpty, "aggregates carry no entity ids")
    }

    @Test func getCatalogueStatsRunsSeveralAliasedRootLists() async throws {
        // when
        let result = try await client.query("getCatalogueStats")

        // then
        let data = expectData(result)
        #expect(data.objectKeys == ["movieTotals", "reviewTotals", "userTotals"])
        #expect(data["movieTotals"]?[0]?["_count"] == 79)
        #expect(data["movieTotals"]?[0]?["releaseYear_min"] == 1927)
        #expect(data["reviewTotals"]?[0]?["_count"] == 84)
        #expect(data["reviewTotals"]?[0]?["rating_min"] == 2)
        #expect(data["reviewTotals"]?[0]?["rating_max"] == 5)
        #expect(data["userTotals"] == [["_count": 12]])
    }

    @Test func listActorsHonoursTheLimitVariable() async throws {
        // when
        let result = try await client.query("listActors", ["limit": 2])

        // then
        let actors = expectData(result)["actors"]
        #expect(strings(column(actors, "name")) == ["Anthony Hopkins", "Audrey Tautou"])
        #expect(actors?[0]?["birthDate"] == "1937-12-31")
    }

    @Test func getActorByIdFollowsTheJoinTableBothWays() async throws {
        // when
        let result = try await client.query("getActorById", ["id": .string(Self.harrisonFord)])

        // then
        let actor = try #require(expectData(result)["actor"])
        #expect(actor["name"] == "Harrison Ford")
        let titles: Set<String> = ["Star Wars", "The Empire Strikes Back", "Blade Runner", "Raiders of the Lost Ark"]
        #expect(Set(strings(column(actor["movies"], "title"))) == titles)
        #expect(Set(strings(column(actor["leadRoles"], "title"))) == titles)
        #expect(Set(strings(column(actor["roles"], "role"))) == ["main"])
        #expect(result.property(at: ["actor"])?["entityId"] == .string("Actor/\(Self.harrisonFordID)"))
        #expect(strings(result.property(at: ["actor", "movies"])?["entityIds"]).count == 4)
    }

    @Test func listDirectorsNestsTheReverseRelation() async throws {
        // when
        let result = try await client.query("listDirectors")

        // then
        let people = try #require(expectData(result)["people"]?.arrayValue)
        #expect(people.count == 50)
        #expect(people.first?["name"] == "Akira Kurosawa")
        let cameron = try #require(people.first { $0["name"] == "James Cameron" })
        #expect(cameron["birthYear"] == 1954)
        #expect(column(cameron["movies_on_director"], "releaseYear") == [1984, 1986, 1991, 1997])
    }

    @Test func listRecentReviewsSeesOnlyReviewsOfTheLastThirtyDays() async throws {
        // given: every seeded review is from 2024
        let before = try await client.query("listRecentReviews")
        #expect(expectData(before)["reviews"] == [])

        // when
        let added = try await client.mutation(
            "addReview", ["movieId": .string(Self.starWars), "rating": 4, "text": "Still great."], token: Self.alice)
        let after = try await client.query("listRecentReviews")

        // then
        expectData(added)
        let reviews = expectData(after)["reviews"]
        #expect(reviews?.arrayValue?.count == 1)
        #expect(reviews?[0]?["text"] == "Still great.")
        #expect(reviews?[0]?["movie"]?["title"] == "Star Wars")
        #expect(reviews?[0]?["user"] == ["username": "alice"])
    }

    @Test func getCurrentUserReadsTheCallersRowThroughAuthUid() async throws {
        // when
        let result = try await client.query("getCurrentUser", token: Self.alice)

        // then
        let user = try #require(expectData(result)["user"])
        #expect(user["id"] == "uid-alice")
        #expect(user["username"] == "alice")
        #expect(user["createdAt"] == "2024-01-10T09:00:00Z")
        #expect(user["favorites"]?.arrayValue?.count == 8)
        #expect(user["favorites"]?[0]?["addedAt"] == "2024-12-26T17:58:00Z", "newest first")
        #expect(user["favorites"]?[0]?["movie"]?["title"] == "Terminator 2: Judgment Day")
        #expect(user["reviews"]?.arrayValue?.count == 7)
        #expect(result.property(at: ["user"])?["entityId"] == "User/uid-alice")
    }

    @Test func getCurrentUserIsNullForASignedInUserWithoutAProfile() async throws {
        // when
        let result = try await client.query("getCurrentUser", token: Self.newcomer)

        // then
        #expect(expectData(result) == ["user": nil])
    }

    @Test func listMyReviewsFiltersOnTheCallersUid() async throws {
        // when
        let result = try await client.query("listMyReviews", token: Self.alice)

        // then
        let reviews = try #require(expectData(result)["reviews"]?.arrayValue)
        #expect(reviews.count == 7)
        #expect(reviews.first?["movie"]?["title"] == "Casablanca")
        #expect(reviews.first?["reviewDate"] == "2024-12-08")
    }

    @Test func getMyFavoriteLooksUpByACompositeKeyWithAuthUid() async throws {
        // when
        let favorite = try await client.query(
            "getMyFavorite", ["movieId": .string(Self.someLikeItHot)], token: Self.alice)
        let notFavorite = try await client.query(
            "getMyFavorite", ["movieId": .string(Self.starWars)], token: Self.alice)

        // then
        #expect(
            expectData(favorite)["favoriteMovie"] == [
                "addedAt": "2024-03-03T10:24:00Z",
                "movie": ["id": "96f1fac82890507aa279d6ad73e4c1f1", "title": "Some Like It Hot"],
            ])
        #expect(
            favorite.property(at: ["favoriteMovie"])?["entityId"]
                == "FavoriteMovie/uid-alice/96f1fac82890507aa279d6ad73e4c1f1")
        #expect(expectData(notFavorite) == ["favoriteMovie": nil])
    }

    // MARK: Mutations

    @Test func createMovieInsertsAndAnswersTheNewKeyWithACreateAction() async throws {
        // when
        let result = try await client.mutation(
            "createMovie", ["title": "Dune", "releaseYear": 2021, "genre": "Sci-Fi", "rating": 4])

        // then
        let id = try #require(expectData(result)["movie_insert"]?["id"]?.stringValue)
        #expect(
            id.count == 32 && id.allSatisfy(\.isHexDigit) && id == id.lowercased(),
            "UUIDs go out as 32 lowercase hex digits")
        #expect(
            result.property(at: ["movie_insert"]) == [
                "path": ["movie_insert"], "entityId": .string("Movie/\(id)"), "action": "CREATE",
            ])
        let read = try await client.query("getMovieById", ["id": .string(id)])
        let movie = expectData(read)["movie"]
        #expect(movie?["title"] == "Dune")
        #expect(movie?["aspectratio"] == "WIDESCREEN", "the column default")
        #expect(movie?["isClassic"] == false)
        #expect(movie?["director"] == .null)
    }

    @Test func createMovieWithMetadataWritesBothRowsInOneTransaction() async throws {
        // when
        let result = try await client.mutation(
            "createMovieWithMetadata",
            [
                "title": "Arrival II", "releaseYear": 2030, "genre": "Sci-Fi", "rating": 5, "aspectratio": "ACADEMY",
                "tags": ["sequel", "language"], "releaseDate": "2030-11-11", "durationHours": 1.75,
                "budget": "123456789012345", "extras": ["awards": ["best score"], "rated": "PG-13"],
            ])

        // then
        let data = expectData(result)
        let id = try #require(data["movie_insert"]?["id"]?.stringValue)
        #expect(data["movieMetadata_insert"]?["id"]?.stringValue?.count == 32)
        #expect(result.property(at: ["movieMetadata_insert"])?["action"] == "CREATE")
        let read = try await client.query("getMovieById", ["id": .string(id)])
        let movie = expectData(read)["movie"]
        #expect(movie?["aspectratio"] == "ACADEMY")
        #expect(movie?["tags"] == ["sequel", "language"])
        #expect(
            movie?["metadata"] == [
                "releaseDate": "2030-11-11", "durationHours": 1.75, "budget": "123456789012345", "boxOffice": nil,
                "language": nil, "extras": ["awards": ["best score"], "rated": "PG-13"],
            ])
    }

    @Test func updateMovieWritesOnlyTheGivenFields() async throws {
        // when
        let result = try await client.mutation(
            "updateMovie", ["id": .string(Self.starWars), "description": "Episode IV.", "tags": []])

        // then
        #expect(expectData(result) == ["movie_update": ["id": .string(Self.starWarsID)]])
        #expect(result.property(at: ["movie_update"])?["action"] == "UPDATE")
        let movie = expectData(try await client.query("getMovieById", ["id": .string(Self.starWars)]))["movie"]
        #expect(movie?["description"] == "Episode IV.")
        #expect(movie?["tags"] == [])
        #expect(movie?["title"] == "Star Wars", "an absent variable leaves its column alone")
        #expect(movie?["rating"] == 5)
    }

    @Test func updateMovieAnswersNullForAMissingRow() async throws {
        // when
        let result = try await client.mutation(
            "updateMovie", ["id": "00000000-0000-4000-8000-000000000000", "title": "Nothing"])

        // then
        #expect(expectData(result) == ["movie_update": nil])
    }

    @Test func bumpMovieRatingIncrementsInPlace() async throws {
        // given
        let gravity = "dd8018ea-63c7-505d-b46b-ecd1d3978254"

        // when
        expectData(try await client.mutation("bumpMovieRating", ["id": .string(gravity)]))
        expectData(try await client.mutation("bumpMovieRating", ["id": .string(gravity)]))

        // then
        let movie = expectData(try await client.query("getMovieById", ["id": .string(gravity)]))["movie"]
        #expect(movie?["rating"] == 5, "3 + 1 + 1")
    }

    @Test func deleteMovieCascadesToItsDependentRows() async throws {
        // when
        let first = try await client.mutation("deleteMovie", ["id": .string(Self.starWars)])
        let second = try await client.mutation("deleteMovie", ["id": .string(Self.starWars)])

        // then
        #expect(expectData(first) == ["movie_delete": ["id": .string(Self.starWarsID)]])
        #expect(first.property(at: ["movie_delete"])?["action"] == "DELETE")
        #expect(expectData(second) == ["movie_delete": nil], "deleting a missing row answers null")
        let counts = try await client.admin(
            """
            query {
              reviews(where: {movieId: {eq: "\(Self.starWars)"}}) { _count }
              movieActors(where: {movieId: {eq: "\(Self.starWars)"}}) { _count }
              movieMetadatas(where: {movieId: {eq: "\(Self.starWars)"}}) { _count }
            }
            """
        )
        #expect(
            expectData(counts) == [
                "reviews": [["_count": 0]], "movieActors": [["_count": 0]], "movieMetadatas": [["_count": 0]],
            ])
    }

    @Test func markClassicsBeforeAnswersTheRowCount() async throws {
        // when
        let result = try await client.mutation("markClassicsBefore", ["year": 1950], token: Self.alice)

        // then
        let count = try #require(expectData(result)["movie_updateMany"]?.intValue)
        let expected = try await client.admin("query { movies(where: {releaseYear: {lt: 1950}}) { _count } }")
        #expect(count == expected.data?["movies"]?[0]?["_count"]?.intValue)
        #expect(count > 3)
        let unmarked = try await client.admin(
            "query { movies(where: {releaseYear: {lt: 1950}, isClassic: {eq: false}}) { _count } }")
        #expect(unmarked.data?["movies"] == [["_count": 0]])
    }

    @Test func deleteUnratedMoviesDeletesOnlyUnratedRows() async throws {
        // given
        expectData(
            try await client.admin(
                "mutation { movie_insert(data: {title: \"Unrated\", releaseYear: 2001, genre: \"Test\"}) }"))

        // when
        let result = try await client.mutation("deleteUnratedMovies", token: Self.alice)

        // then
        #expect(expectData(result) == ["movie_deleteMany": 1])
        #expect(expectData(try await client.query("listMovies"))["movies"]?.arrayValue?.count == 79)
    }

    @Test func createActorAndAddActorToMovieLinkThroughTheJoinTable() async throws {
        // given
        let created = try await client.mutation("createActor", ["name": "Rutger Hauer", "birthDate": "1944-01-23"])
        let actorID = try #require(expectData(created)["actor_insert"]?["id"]?.stringValue)

        // when
        let linked = try await client.mutation(
            "addActorToMovie",
            ["movieId": "77bd6167-6bc4-5c89-9c16-f07be6287fc4", "actorId": .string(actorID), "role": "supporting"])
        let relinked = try await client.mutation(
            "addActorToMovie",
            ["movieId": "77bd6167-6bc4-5c89-9c16-f07be6287fc4", "actorId": .string(actorID), "role": "main"])

        // then
        #expect(
            expectData(linked) == [
                "movieActor_upsert": ["movieId": "77bd61676bc45c899c16f07be6287fc4", "actorId": .string(actorID)]
            ])
        #expect(
            linked.property(at: ["movieActor_upsert"])?["entityId"]
                == .string("MovieActor/77bd61676bc45c899c16f07be6287fc4/\(actorID)"))
        #expect(linked.property(at: ["movieActor_upsert"])?["action"] == "UPSERT")
        expectData(relinked)
        let actor = expectData(try await client.query("getActorById", ["id": .string(actorID)]))["actor"]
        #expect(actor?["birthDate"] == "1944-01-23")
        #expect(
            actor?["roles"] == [
                ["role": "main", "movie": ["id": "77bd61676bc45c899c16f07be6287fc4", "title": "Blade Runner"]]
            ])
    }

    @Test func upsertUserCreatesThenRenamesTheCallersProfile() async throws {
        // when
        let created = try await client.mutation("upsertUser", ["username": "zoe"], token: Self.newcomer)
        let renamed = try await client.mutation("upsertUser", ["username": "zoe2"], token: Self.newcomer)

        // then
        #expect(expectData(created) == ["user_upsert": ["id": "uid-zoe"]])
        #expect(
            created.property(at: ["user_upsert"]) == [
                "path": ["user_upsert"], "entityId": "User/uid-zoe", "action": "UPSERT",
            ])
        expectData(renamed)
        let user = expectData(try await client.query("getCurrentUser", token: Self.newcomer))["user"]
        #expect(user?["username"] == "zoe2")
        #expect(user?["createdAt"]?.stringValue?.hasSuffix("Z") == true)
    }

    @Test func reviewMutationsWriteTheCallersReviewOnly() async throws {
        // given
        expectData(try await client.mutation("upsertUser", ["username": "zoe"], token: Self.newcomer))

        // when
        let added = try await client.mutation(
            "addReview", ["movieId": .string(Self.starWars), "rating": 2, "text": "Not for me."], token: Self.newcomer)
        let updated = try await client.mutation(
            "updateReview", ["movieId": .string(Self.starWars), "rating": 3, "text": "Grew on me."],
            token: Self.newcomer)
        let retexted = try await client.mutation(
            "updateMyReviewText", ["movieId": .string(Self.starWars), "text": "A classic."], token: Self.newcomer)

        // then
        let key: JSONValue = ["movieId": .string(Self.starWarsID), "userId": "uid-zoe"]
        #expect(expectData(added) == ["review_upsert": key])
        #expect(expectData(updated) == ["review_update": key])
        #expect(expectData(retexted) == ["review_update": key], "the redacted query is not in the response")
        let mine = expectData(try await client.query("listMyReviews", token: Self.newcomer))["reviews"]
        #expect(mine?.arrayValue?.count == 1)
        #expect(mine?[0]?["rating"] == 3)
        #expect(mine?[0]?["text"] == "A classic.")

        // when
        let deleted = try await client.mutation(
            "deleteReview", ["movieId": .string(Self.starWars)], token: Self.newcomer)

        // then
        #expect(expectData(deleted) == ["review_delete": key])
        #expect(expectData(try await client.query("listMyReviews", token: Self.newcomer))["reviews"] == [])
    }

    @Test func updateReviewAnswersNullWithoutAReview() async throws {
        // when
        let result = try await client.mutation(
            "updateReview", ["movieId": .string(Self.starWars), "rating": 3, "text": "?"], token: Self.newcomer)

        // then
        #expect(expectData(result) == ["review_update": nil])
    }

    @Test func updateMyReviewTextFailsItsCheckWithoutAReview() async throws {
        // when
        let result = try await client.mutation(
            "updateMyReviewText", ["movieId": .string(Self.starWars), "text": "?"], token: Self.newcomer)

        // then: HTTP 200 with the @check message; the later field is aborted
        #expect(result.status == 200)
        #expect(result.errors.count == 2)
        #expect(result.errors.first?["message"] == "no review of yours")
        #expect(result.errors.first?["extensions"]?["code"] == "PERMISSION_DENIED")
        #expect(result.errors.last?["message"] == "(aborted)")
        #expect(result.errors.last?["path"] == ["review_update"])
        #expect(result.data?["review_update"] == .null)
    }

    @Test func favoriteMutationsAddAndRemoveTheCallersFavorite() async throws {
        // given
        expectData(try await client.mutation("upsertUser", ["username": "zoe"], token: Self.newcomer))

        // when
        let added = try await client.mutation(
            "addFavoritedMovie", ["movieId": .string(Self.starWars)], token: Self.newcomer)

        // then
        let key: JSONValue = ["userId": "uid-zoe", "movieId": .string(Self.starWarsID)]
        #expect(expectData(added) == ["favoriteMovie_upsert": key])
        let favorite = expectData(
            try await client.query("getMyFavorite", ["movieId": .string(Self.starWars)], token: Self.newcomer))
        #expect(favorite["favoriteMovie"]?["movie"]?["title"] == "Star Wars")

        // when
        let removed = try await client.mutation(
            "deleteFavoritedMovie", ["movieId": .string(Self.starWars)], token: Self.newcomer)

        // then
        #expect(expectData(removed) == ["favoriteMovie_delete": key])
        #expect(removed.property(at: ["favoriteMovie_delete"])?["action"] == "DELETE")
        #expect(
            expectData(
                try await client.query("getMyFavorite", ["movieId": .string(Self.starWars)], token: Self.newcomer)) == [
                    "favoriteMovie": nil
                ])
    }
}
