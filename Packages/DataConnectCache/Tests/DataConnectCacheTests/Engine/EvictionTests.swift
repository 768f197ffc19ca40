import DataConnectCache
import DataConnectWire
import Testing

@Suite struct EvictionTests {
    /// A query for one movie with its own director, about 400 bytes stored.
    static func movie(_ number: Int) -> (QueryKey, String) {
        let key = QueryKey(operationName: "GetMovie", variables: ["id": .string("m\(number)")])
        let response = """
            {"data":{"movie":{"id":"m\(number)","title":"Movie number \(number)","year":\(1900 + number),\
            "director":{"id":"d\(number)","name":"Director \(number)"}}},
             "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m\(number)"},\
            {"path":["movie","director"],"entityId":"Person/d\(number)"}]}}
            """
        return (key, response)
    }

    /// The bytes one query of ``movie(_:)`` takes.
    static func sizeOfOneQuery(_ backend: CacheBackend) throws -> Int {
        let fixture = try CacheFixture(backend)
        let (key, response) = movie(1)
        try fixture.write(key, response)
        return try fixture.cache.statistics().byteSize
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func evictsLeastRecentlyAccessedFirst(backend: CacheBackend) throws {
        // given room for three queries, three written in order and the first one read since
        let size = try Self.sizeOfOneQuery(backend)
        let fixture = try CacheFixture(backend, maxSize: size * 3 + size / 2)
        for number in 1...3 {
            let (key, response) = Self.movie(number)
            try fixture.write(key, response)
            fixture.clock.advance(by: 1)
        }
        _ = try fixture.cache.read(query: Self.movie(1).0)
        fixture.clock.advance(by: 1)

        // when a fourth query is written
        let (fourth, response) = Self.movie(4)
        let update = try fixture.write(fourth, response)

        // then the second, least recently accessed, is evicted with its entities
        #expect(update.evictedQueries == [Self.movie(2).0.id])
        #expect(try fixture.readText(Self.movie(2).0) == nil)
        #expect(try fixture.readText(Self.movie(1).0) != nil)
        let statistics = try fixture.cache.statistics()
        #expect(statistics.queryCount == 3)
        #expect(statistics.entityCount == 6)
        #expect(statistics.byteSize <= fixture.cache.maxSize)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func neverEvictsPinnedQueries(backend: CacheBackend) throws {
        // given room for two queries and the oldest one pinned
        let size = try Self.sizeOfOneQuery(backend)
        let fixture = try CacheFixture(backend, maxSize: size * 2 + size / 2)
        fixture.cache.pin(Self.movie(1).0)

        // when ten queries are written
        for number in 1...10 {
            let (key, response) = Self.movie(number)
            try fixture.write(key, response)
            fixture.clock.advance(by: 1)
        }

        // then the pinned one and the newest remain, and the size is under the cap
        #expect(try fixture.readText(Self.movie(1).0) != nil)
        #expect(try fixture.readText(Self.movie(10).0) != nil)
        let statistics = try fixture.cache.statistics()
        #expect(statistics.queryCount == 2)
        #expect(statistics.byteSize <= fixture.cache.maxSize)

        // when it is unpinned and another query is written, then it goes first
        fixture.cache.unpin(Self.movie(1).0)
        let (key, response) = Self.movie(11)
        let update = try fixture.write(key, response)
        #expect(update.evictedQueries.contains(Self.movie(1).0.id))
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func keepsEntitiesOtherQueriesStillShow(backend: CacheBackend) throws {
        // given two queries sharing movie m1, in a cache with room for them and one movie query minus a byte
        func writeSharing(_ fixture: CacheFixture) throws {
            try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())
            fixture.clock.advance(by: 1)
            try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())
            fixture.clock.advance(by: 1)
        }
        let measuring = try CacheFixture(backend)
        try writeSharing(measuring)
        let cap = try measuring.cache.statistics().byteSize + Self.sizeOfOneQuery(backend) - 1
        let fixture = try CacheFixture(backend, maxSize: cap)
        try writeSharing(fixture)

        // when one more movie query is written
        let (key, response) = Self.movie(5)
        let update = try fixture.write(key, response)

        // then only the detail query is evicted, and the list still reads m1, whose record survived
        #expect(update.evictedQueries == [Fixtures.getMovie.id])
        #expect(try fixture.readText(Fixtures.listMovies) == Response(Fixtures.moviesResponse()).dataText)
        #expect(try fixture.cache.statistics().byteSize <= cap)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func staysUnderTheCapUnderLoad(backend: CacheBackend) throws {
        // given a cap of about twenty queries
        let size = try Self.sizeOfOneQuery(backend)
        let fixture = try CacheFixture(backend, maxSize: size * 20)

        // when two hundred different queries are written
        var evicted = 0
        for number in 1...200 {
            let (key, response) = Self.movie(number)
            evicted += try fixture.write(key, response).evictedQueries.count
            fixture.clock.advance(by: 1)
            #expect(try fixture.cache.statistics().byteSize <= fixture.cache.maxSize)
        }

        // then the oldest were evicted, their entities swept, and every remaining query reads back
        let statistics = try fixture.cache.statistics()
        #expect(evicted == 200 - statistics.queryCount)
        #expect(statistics.entityCount == statistics.queryCount * 2)
        #expect(try fixture.readText(Self.movie(200).0) != nil)
        #expect(try fixture.readText(Self.movie(1).0) == nil)
    }
}
