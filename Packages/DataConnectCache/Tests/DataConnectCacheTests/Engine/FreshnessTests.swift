import DataConnectCache
import DataConnectWire
import Testing

@Suite struct FreshnessTests {
    @Test(arguments: [CacheBackend.memory, .sqlite])
    func isFreshUntilMaxAgeThenStale(backend: CacheBackend) throws {
        // given a result written with the default maxAge of 60 s
        let fixture = try CacheFixture(backend, maxAge: 60)
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())
        let writtenAt = fixture.clock.now

        // when 60 s pass, then it is still fresh
        fixture.clock.advance(by: 60)
        let fresh = try #require(try fixture.cache.read(query: Fixtures.getMovie))
        #expect(!fresh.isStale)
        #expect(fresh.cachedAt == writtenAt)

        // when one more second passes, then a fresh-only read misses and a stale read is marked stale
        fixture.clock.advance(by: 1)
        #expect(try fixture.cache.read(query: Fixtures.getMovie, allowStale: false) == nil)
        let stale = try #require(try fixture.cache.read(query: Fixtures.getMovie, allowStale: true))
        #expect(stale.isStale)
        #expect(stale.cachedAt == writtenAt)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func rewritingMakesFreshAgain(backend: CacheBackend) throws {
        // given a stale result
        let fixture = try CacheFixture(backend, maxAge: 10)
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())
        fixture.clock.advance(by: 11)

        // when it is written again
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating())

        // then it is fresh
        let read = try #require(try fixture.cache.read(query: Fixtures.getMovie))
        #expect(!read.isStale)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func perPathMaxAgeOverridesDefaultWithTheMinimum(backend: CacheBackend) throws {
        // given a response whose paths carry 30 s and 5 s, in a cache whose default is 60 s
        let fixture = try CacheFixture(backend, maxAge: 60)
        try fixture.write(
            Fixtures.getMovie,
            """
            {"data":{"movie":{"id":"m1","director":{"id":"d1"}}},
             "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1","maxAge":"30s"},\
            {"path":["movie","director"],"entityId":"Person/d1","maxAge":"5s"}]}}
            """)

        // when 5 s pass it is fresh; after 6 s it is stale
        fixture.clock.advance(by: 5)
        #expect(try fixture.cache.read(query: Fixtures.getMovie) != nil)
        fixture.clock.advance(by: 1)
        #expect(try fixture.cache.read(query: Fixtures.getMovie) == nil)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func perPathMaxAgeOverridesTheWritesMaxAge(backend: CacheBackend) throws {
        // given a response with a per-path maxAge longer than both the write's and the default
        let fixture = try CacheFixture(backend, maxAge: 1)
        try fixture.write(
            Fixtures.getMovie,
            """
            {"data":{"movie":{"id":"m1"}},
             "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1","maxAge":"120.5s"}]}}
            """, maxAge: 2)

        // when 120 s pass, then it is still fresh
        fixture.clock.advance(by: 120)
        #expect(try fixture.cache.read(query: Fixtures.getMovie) != nil)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func writesMaxAgeOverridesTheDefault(backend: CacheBackend) throws {
        // given a result written with maxAge 300 in a cache whose default is 60
        let fixture = try CacheFixture(backend, maxAge: 60)
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating(), maxAge: 300)

        // when 200 s pass, then it is fresh
        fixture.clock.advance(by: 200)
        #expect(try fixture.cache.read(query: Fixtures.getMovie) != nil)
    }
}
