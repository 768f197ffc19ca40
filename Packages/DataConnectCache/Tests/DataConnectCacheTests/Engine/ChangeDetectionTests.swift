import DataConnectCache
import DataConnectWire
import Testing

@Suite struct ChangeDetectionTests {
    @Test(arguments: [CacheBackend.memory, .sqlite])
    func republishesOnlyQueriesShowingTheChangedField(backend: CacheBackend) throws {
        // given a list showing titles and a detail query showing title and rating of the same movie
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating(rating: 8.5))
        let ratingsOnly = QueryKey(operationName: "Ratings")
        try fixture.write(
            ratingsOnly,
            """
            {"data":{"movie":{"id":"m1","rating":8.5}},
             "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1"}]}}
            """)

        // when the detail query is written again with a new rating only
        let update = try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating(rating: 9))

        // then the query showing the rating changed, the list showing only titles did not
        #expect(update.changedQueries == [ratingsOnly.id, Fixtures.getMovie.id])
        #expect(try fixture.readText(ratingsOnly) == #"{"movie":{"id":"m1","rating":9.0}}"#)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func republishesOtherQueriesWhenASharedFieldChanges(backend: CacheBackend) throws {
        // given two queries showing the title of movie m1
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())

        // when the list is written with a new title for m1
        let update = try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse(titles: ("Aliens", "Heat")))

        // then the detail query and the list itself changed
        #expect(update.changedQueries == [Fixtures.getMovie.id, Fixtures.listMovies.id])
        #expect(try fixture.readText(Fixtures.getMovie) == #"{"movie":{"id":"m1","title":"Aliens","rating":8.5}}"#)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func identicalWritePublishesNothing(backend: CacheBackend) throws {
        // given two cached queries sharing a movie
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())

        // when the same response is written again
        let update = try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())

        // then no query changed
        #expect(update.changedQueries.isEmpty)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func reportsTheWrittenQueryWhenItsTreeChanges(backend: CacheBackend) throws {
        // given a cached list of two movies
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())

        // when the list comes back with one movie and unchanged values
        let update = try fixture.write(
            Fixtures.listMovies,
            """
            {"data":{"movies":[{"id":"m1","title":"Alien"}]},
             "extensions":{"dataConnect":[{"path":["movies"],"entityIds":["Movie/m1"],"action":"LIST"}]}}
            """)

        // then only the list itself changed
        #expect(update.changedQueries == [Fixtures.listMovies.id])
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func reportsANewQueryAsChanged(backend: CacheBackend) throws {
        // given an empty cache
        let fixture = try CacheFixture(backend)

        // when a query is written for the first time
        let update = try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())

        // then it is reported, and nothing is evicted
        #expect(update.changedQueries == [Fixtures.getMovie.id])
        #expect(update.evictedQueries.isEmpty)
    }
}

/// Repeated reads are answered from memory with a stable version until something changes the result.
@Suite struct ReadMemoTests {
    @Test(arguments: [CacheBackend.memory, .sqlite])
    func aRepeatedReadKeepsItsVersionUntilAWriteChangesTheResult(backend: CacheBackend) throws {
        // given: the list and the detail of m1 cached
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())
        let first = try #require(try fixture.cache.read(query: Fixtures.listMovies))
        let again = try #require(try fixture.cache.read(query: Fixtures.listMovies))

        // when: a write that does not touch the list's fields, then one that does
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating(rating: 9))
        let afterUnrelated = try #require(try fixture.cache.read(query: Fixtures.listMovies))
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating(title: "Alien (1979)"))
        let afterTitle = try #require(try fixture.cache.read(query: Fixtures.listMovies))

        // then
        #expect(first.version == again.version && first.data == again.data)
        #expect(afterUnrelated.version == first.version)
        #expect(afterTitle.version != first.version)
        #expect(JSONValue.object(afterTitle.data).jsonString().contains("Alien (1979)"))
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func rememberedReadsStillHonourStalenessAndMutations(backend: CacheBackend) throws {
        // given: a remembered read
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating(), maxAge: 60)
        #expect(try fixture.cache.read(query: Fixtures.getMovie) != nil)

        // when time passes beyond maxAge
        fixture.clock.advance(by: 61)

        // then it is stale, from memory as from storage
        #expect(try fixture.cache.read(query: Fixtures.getMovie) == nil)
        #expect(try fixture.cache.read(query: Fixtures.getMovie, allowStale: true)?.isStale == true)

        // and a delete of the movie is seen at once
        try fixture.mutate(
            """
            {"data":{"movie_delete":{"id":"m1"}},
             "extensions":{"dataConnect":[{"path":["movie_delete"],"entityId":"Movie/m1","action":"DELETE"}]}}
            """)
        #expect(try fixture.readText(Fixtures.getMovie) == #"{"movie":null}"#)
    }
}
