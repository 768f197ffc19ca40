import DataConnectCache
import DataConnectWire
import Testing

@Suite struct MaintenanceTests {
    @Test(arguments: [CacheBackend.memory, .sqlite])
    func dumpsQueriesAndEntities(backend: CacheBackend) throws {
        // given one cached query
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())

        // when the cache is dumped
        let dump = try fixture.cache.dump()

        // then it shows the query with its tree and the entity with its fields
        let query = try #require(dump["queries"]?[0])
        #expect(query["id"]?.stringValue == Fixtures.getMovie.id)
        #expect(query["isStale"]?.boolValue == false)
        #expect(query["tree"]?["$o"]?["movie"]?["$e"]?.stringValue == "Movie/m1")
        #expect(dump["entities"]?["Movie/m1"]?.jsonString() == #"{"id":"m1","title":"Alien","rating":8.5}"#)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func clearEmptiesTheCache(backend: CacheBackend) throws {
        // given cached queries
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())

        // when it is cleared
        try fixture.cache.clear()

        // then nothing is left
        #expect(try fixture.cache.statistics() == CacheStatistics(queryCount: 0, entityCount: 0, byteSize: 0))
        #expect(try fixture.readText(Fixtures.getMovie) == nil)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func countsQueriesEntitiesAndBytes(backend: CacheBackend) throws {
        // given the example response cached
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.getMovie, Fixtures.movieResponse)

        // then the statistics count one query, four entities and some bytes
        let statistics = try fixture.cache.statistics()
        #expect(statistics.queryCount == 1)
        #expect(statistics.entityCount == 4)
        #expect(statistics.byteSize > 100)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func keepsNoRecordsForEntitiesOnlyAMutationReturned(backend: CacheBackend) throws {
        // given an empty cache
        let fixture = try CacheFixture(backend)

        // when a mutation returns an entity through a nested query field
        try fixture.mutate(
            """
            {"data":{"movie_insert":{"id":"m9"},"query":{"movie":{"id":"m9","title":"New"}}},
             "extensions":{"dataConnect":[{"path":["movie_insert"],"entityId":"Movie/m9","action":"CREATE"},\
            {"path":["query","movie"],"entityId":"Movie/m9","action":"GET"}]}}
            """)

        // then no record is kept for it
        #expect(try fixture.cache.statistics().entityCount == 0)
    }
}
