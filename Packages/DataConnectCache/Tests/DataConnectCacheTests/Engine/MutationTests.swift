import DataConnectCache
import DataConnectWire
import Testing

@Suite struct MutationTests {
    static let byDirector = QueryKey(operationName: "MoviesByDirector", variables: ["id": "d1"])
    static let getDirector = QueryKey(operationName: "GetDirector", variables: ["id": "d1"])

    /// A list, a detail query, a director with a list of movies and a director shown through a reference.
    func seeded(_ backend: CacheBackend) throws -> CacheFixture {
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())
        try fixture.write(
            Self.byDirector,
            """
            {"data":{"director":{"id":"d1","name":"Ridley","movies":[{"id":"m1","title":"Alien"}]}},
             "extensions":{"dataConnect":[{"path":["director"],"entityId":"Person/d1"},\
            {"path":["director","movies"],"entityIds":["Movie/m1"],"action":"LIST"}]}}
            """)
        try fixture.write(
            Self.getDirector,
            """
            {"data":{"person":{"id":"d1","name":"Ridley"}},
             "extensions":{"dataConnect":[{"path":["person"],"entityId":"Person/d1","action":"GET"}]}}
            """)
        return fixture
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func deleteRemovesFromListsAndNullsReferences(backend: CacheBackend) throws {
        // given movie m1 in two lists and at a single reference
        let fixture = try seeded(backend)

        // when m1 is deleted
        let update = try fixture.mutate(
            """
            {"data":{"movie_delete":{"id":"m1"}},
             "extensions":{"dataConnect":[{"path":["movie_delete"],"entityId":"Movie/m1","action":"DELETE"}]}}
            """)

        // then those queries are republished without m1, and none is stale
        #expect(update.changedQueries == [Fixtures.listMovies.id, Fixtures.getMovie.id, Self.byDirector.id])
        #expect(update.staleQueries.isEmpty)
        #expect(try fixture.readText(Fixtures.listMovies) == #"{"movies":[{"id":"m2","title":"Heat"}]}"#)
        #expect(try fixture.readText(Fixtures.getMovie) == #"{"movie":null}"#)
        #expect(try fixture.readText(Self.byDirector) == #"{"director":{"id":"d1","name":"Ridley","movies":[]}}"#)
        #expect(try fixture.cache.read(query: Fixtures.getMovie, allowStale: false)?.isStale == false)
        let statistics = try fixture.cache.statistics()
        #expect(statistics.entityCount == 2)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func deleteSweepsEntitiesOnlyReachableThroughTheDeletedOne(backend: CacheBackend) throws {
        // given a movie whose director only this query shows
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.getMovie, Fixtures.movieResponse)
        let before = try fixture.cache.statistics()

        // when the movie is deleted
        try fixture.mutate(
            """
            {"data":{"movie_delete":{"id":"m1"}},
             "extensions":{"dataConnect":[{"path":["movie_delete"],"entityId":"Movie/m1","action":"DELETE"}]}}
            """)

        // then the movie, its director, review and user records are gone
        #expect(before.entityCount == 4)
        #expect(try fixture.cache.statistics().entityCount == 0)
        #expect(try fixture.readText(Fixtures.getMovie) == #"{"movie":null}"#)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func updateWithoutValuesMarksReadersStale(backend: CacheBackend) throws {
        // given queries showing m1
        let fixture = try seeded(backend)

        // when m1 is updated and the response carries only its key
        let update = try fixture.mutate(
            """
            {"data":{"movie_update":{"id":"m1"}},
             "extensions":{"dataConnect":[{"path":["movie_update"],"entityId":"Movie/m1","action":"UPDATE"}]}}
            """)

        // then every query showing m1 is stale, others are not
        #expect(update.staleQueries == [Fixtures.listMovies.id, Fixtures.getMovie.id, Self.byDirector.id])
        #expect(update.changedQueries.isEmpty)
        #expect(try fixture.cache.read(query: Fixtures.getMovie, allowStale: false) == nil)
        #expect(try fixture.cache.read(query: Fixtures.getMovie, allowStale: true)?.isStale == true)
        #expect(try fixture.cache.read(query: Self.getDirector, allowStale: false) != nil)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func aStaleQueryIsFreshAgainWhenAnotherResultRefreshesEveryFieldItShows(backend: CacheBackend) throws {
        // given the list (id, title) and the detail (id, title, rating) made stale by an update of m1
        let fixture = try seeded(backend)
        try fixture.mutate(
            """
            {"data":{"movie_update":{"id":"m1"}},
             "extensions":{"dataConnect":[{"path":["movie_update"],"entityId":"Movie/m1","action":"UPDATE"}]}}
            """)

        // when the detail is fetched again, with a new title
        let update = try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating(title: "Alien (1979)"))

        // then the list, whose fields of m1 the detail covers, is fresh and changed without its own refetch
        #expect(update.changedQueries.contains(Fixtures.listMovies.id))
        #expect(try fixture.cache.read(query: Fixtures.listMovies, allowStale: false)?.isStale == false)
        #expect(
            try fixture.readText(Fixtures.listMovies)
                == #"{"movies":[{"id":"m1","title":"Alien (1979)"},{"id":"m2","title":"Heat"}]}"#)

        // but a list refetched first does not cover the detail's rating, so the detail stays stale
        let other = try seeded(backend)
        try other.mutate(
            """
            {"data":{"movie_update":{"id":"m1"}},
             "extensions":{"dataConnect":[{"path":["movie_update"],"entityId":"Movie/m1","action":"UPDATE"}]}}
            """)
        try other.write(Fixtures.listMovies, Fixtures.moviesResponse(titles: ("Alien (1979)", "Heat")))
        #expect(try other.cache.read(query: Fixtures.getMovie, allowStale: false) == nil)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func anInsertStaysStaleUntilTheListItselfIsRefetched(backend: CacheBackend) throws {
        // given the list made stale by an insert into its table
        let fixture = try seeded(backend)
        try fixture.mutate(
            """
            {"data":{"movie_insert":{"id":"m3"}},
             "extensions":{"dataConnect":[{"path":["movie_insert"],"entityId":"Movie/m3","action":"CREATE"}]}}
            """)

        // when another query refreshes both listed movies
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())

        // then the list is still stale: only fetching it again can show the new row
        #expect(try fixture.cache.read(query: Fixtures.listMovies, allowStale: false) == nil)
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())
        #expect(try fixture.cache.read(query: Fixtures.listMovies, allowStale: false) != nil)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func updateWithValuesRepublishesInsteadOfMarkingStale(backend: CacheBackend) throws {
        // given queries showing m1's title, and one also its rating
        let fixture = try seeded(backend)

        // when an update returns the new title through a nested query field
        let update = try fixture.mutate(
            """
            {"data":{"movie_update":{"id":"m1"},"query":{"movie":{"id":"m1","title":"Aliens"}}},
             "extensions":{"dataConnect":[{"path":["movie_update"],"entityId":"Movie/m1","action":"UPDATE"},\
            {"path":["query","movie"],"entityId":"Movie/m1","action":"GET"}]}}
            """)

        // then queries showing only id and title changed; the one showing the rating is stale too
        #expect(update.changedQueries == [Fixtures.listMovies.id, Fixtures.getMovie.id, Self.byDirector.id])
        #expect(update.staleQueries == [Fixtures.getMovie.id])
        #expect(
            try fixture.readText(Fixtures.listMovies)
                == #"{"movies":[{"id":"m1","title":"Aliens"},{"id":"m2","title":"Heat"}]}"#)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func createMarksListsOfTheTableStaleButNotGetByID(backend: CacheBackend) throws {
        // given lists of movies, a movie by id and a director by id
        let fixture = try seeded(backend)

        // when a movie is created
        let update = try fixture.mutate(
            """
            {"data":{"movie_insert":{"id":"m3"}},
             "extensions":{"dataConnect":[{"path":["movie_insert"],"entityId":"Movie/m3","action":"CREATE"}]}}
            """)

        // then the queries listing movies are stale, the get-by-id queries are not
        #expect(update.staleQueries == [Fixtures.listMovies.id, Self.byDirector.id])
        #expect(try fixture.cache.read(query: Fixtures.getMovie) != nil)
        #expect(try fixture.cache.read(query: Self.getDirector) != nil)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func createMarksEmptyListsOfUnknownTableStale(backend: CacheBackend) throws {
        // given an empty list, whose table the cache cannot know
        let fixture = try CacheFixture(backend)
        let empty = QueryKey(operationName: "ListReviews")
        try fixture.write(
            empty,
            """
            {"data":{"reviews":[]},
             "extensions":{"dataConnect":[{"path":["reviews"],"entityIds":[],"action":"LIST"}]}}
            """)

        // when entities are inserted with insertMany
        let update = try fixture.mutate(
            """
            {"data":{"review_insertMany":[{"id":"r1"},{"id":"r2"}]},
             "extensions":{"dataConnect":[{"path":["review_insertMany"],\
            "entityIds":["Review/r1","Review/r2"],"action":"CREATE"}]}}
            """)

        // then the empty list is stale
        #expect(update.staleQueries == [empty.id])
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func upsertMarksReadersAndListsStale(backend: CacheBackend) throws {
        // given the seeded queries
        let fixture = try seeded(backend)

        // when a director is upserted
        let update = try fixture.mutate(
            """
            {"data":{"person_upsert":{"id":"d1"}},
             "extensions":{"dataConnect":[{"path":["person_upsert"],"entityId":"Person/d1","action":"UPSERT"}]}}
            """)

        // then the queries showing the director are stale; no query lists people
        #expect(update.staleQueries == [Self.byDirector.id, Self.getDirector.id])
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func updateManyMarksEveryQueryOfTheTableStale(backend: CacheBackend) throws {
        // given the seeded queries
        let fixture = try seeded(backend)

        // when movies are updated in bulk without ids
        let update = try fixture.mutate(
            """
            {"data":{"movie_updateMany":2},
             "extensions":{"dataConnect":[{"path":["movie_updateMany"],"action":"UPDATE"}]}}
            """)

        // then every query showing a movie is stale, the director by id is not
        #expect(update.staleQueries == [Fixtures.listMovies.id, Fixtures.getMovie.id, Self.byDirector.id])
        #expect(try fixture.cache.read(query: Self.getDirector) != nil)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func deleteManyFindsCamelCaseTables(backend: CacheBackend) throws {
        // given a query showing MovieActor entities
        let fixture = try CacheFixture(backend)
        let cast = QueryKey(operationName: "Cast")
        try fixture.write(
            cast,
            """
            {"data":{"movieActors":[{"role":"lead"}]},
             "extensions":{"dataConnect":[{"path":["movieActors"],"entityIds":["MovieActor/m1/a1"],"action":"LIST"}]}}
            """)

        // when movieActor_deleteMany runs
        let update = try fixture.mutate(
            """
            {"data":{"movieActor_deleteMany":1},
             "extensions":{"dataConnect":[{"path":["movieActor_deleteMany"],"action":"DELETE"}]}}
            """)

        // then the query is stale
        #expect(update.staleQueries == [cast.id])
    }
}

extension MutationTests {
    @Test(arguments: [CacheBackend.memory, .sqlite])
    func aLookupThatFoundNothingIsStaleAfterAnInsertOrUpsert(backend: CacheBackend) throws {
        // given: "the current user" looked up before the user exists, and a lookup that found its movie
        let fixture = try seeded(backend)
        let currentUser = QueryKey(operationName: "GetCurrentUser")
        try fixture.write(currentUser, #"{"data":{"user":null}}"#)

        // when: a user row is upserted
        let update = try fixture.mutate(
            """
            {"data":{"user_upsert":{"id":"u7"}},
             "extensions":{"dataConnect":[{"path":["user_upsert"],"entityId":"User/u7","action":"UPSERT"}]}}
            """)

        // then: the empty lookup must be asked again; the found movie need not be
        #expect(update.staleQueries.contains(currentUser.id))
        #expect(!update.staleQueries.contains(Fixtures.getMovie.id))
        #expect(try fixture.cache.read(query: currentUser) == nil)
    }
}
