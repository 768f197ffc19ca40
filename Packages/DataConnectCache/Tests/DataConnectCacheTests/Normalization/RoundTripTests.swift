import DataConnectCache
import DataConnectWire
import Testing

/// Writing a response and reading it back gives the exact JSON the server sent.
@Suite struct RoundTripTests {
    /// Responses covering every shape normalization must keep.
    static let responses: [(name: String, text: String)] = [
        ("nested entities and an entity list", Fixtures.movieResponse),
        (
            "nulls, empty lists and a null reference",
            """
            {"data":{"movie":{"id":"m1","title":null,"tags":[],"director":null,"reviews":[]}},
             "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1"},\
            {"path":["movie","reviews"],"entityIds":[],"action":"LIST"}]}}
            """
        ),
        (
            "nested lists and scalar arrays",
            """
            {"data":{"movie":{"id":"m1","matrix":[[1,2],[3]],"tags":["a","b"],"meta":{"x":[{"y":1}]}},\
            "grid":[[{"id":"m2","title":"Heat"}]]},
             "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1"},\
            {"path":["grid",0,0],"entityId":"Movie/m2"}]}}
            """
        ),
        (
            "aliases of the same field",
            """
            {"data":{"a":{"id":"m1","name":"Alien"},"b":{"id":"m1","title":"Alien","name2":"x"}},
             "extensions":{"dataConnect":[{"path":["a"],"entityId":"Movie/m1"},{"path":["b"],"entityId":"Movie/m1"}]}}
            """
        ),
        (
            "objects without ids around entities",
            """
            {"data":{"page":{"total":2,"info":{"next":null},"items":[{"movie":{"id":"m1","title":"Alien"},"rank":1}]}},
             "extensions":{"dataConnect":[{"path":["page","items",0,"movie"],"entityId":"Movie/m1"}]}}
            """
        ),
        (
            "the same entity twice with different selections",
            """
            {"data":{"movies":[{"id":"m1","title":"Alien"},{"id":"m1","year":1979}],"top":{"title":"Alien","id":"m1"}},
             "extensions":{"dataConnect":[{"path":["movies"],"entityIds":["Movie/m1","Movie/m1"],"action":"LIST"},\
            {"path":["top"],"entityId":"Movie/m1"}]}}
            """
        ),
        (
            "JSON scalars whose keys start with a dollar sign",
            """
            {"data":{"movie":{"id":"m1","extra":{"$e":"x","$k":[1]}},"raw":{"$l":[],"$o":{}},"list":[{"$a":1}]},
             "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1"}]}}
            """
        ),
        (
            "no entities at all",
            """
            {"data":{"count":3,"stats":{"avg":7.25,"big":12345678901234567890,"names":["x"]}}}
            """
        ),
        (
            "an entity below a non-entity field of an entity",
            """
            {"data":{"movie":{"id":"m1","credits":{"lead":{"id":"a1","name":"Sigourney"},"extras":3},"title":"Alien"}},
             "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1"},\
            {"path":["movie","credits","lead"],"entityId":"Actor/a1"}]}}
            """
        ),
        (
            "an entity that contains itself",
            """
            {"data":{"movie":{"id":"m1","title":"Alien","sequel":{"id":"m1","year":1979}}},
             "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1"},\
            {"path":["movie","sequel"],"entityId":"Movie/m1"}]}}
            """
        ),
    ]

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func readsBackEveryShapeExactly(backend: CacheBackend) throws {
        for (offset, sample) in Self.responses.enumerated() {
            // given a cache holding one response
            let fixture = try CacheFixture(backend)
            let key = QueryKey(operationName: "Sample\(offset)")
            let response = try Response(sample.text)
            try fixture.write(key, sample.text)

            // when it is read back
            let text = try fixture.readText(key)

            // then the text is the server's, key order and all
            #expect(text == response.dataText, "\(sample.name)")
        }
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func sharesEntityValuesAcrossQueries(backend: CacheBackend) throws {
        // given a list and a detail query showing the same movie
        let fixture = try CacheFixture(backend)
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())
        try fixture.write(Fixtures.getMovie, Fixtures.movieWithRating(title: "Alien (Director's Cut)"))

        // when the list is read
        let text = try fixture.readText(Fixtures.listMovies)

        // then it shows the title the detail query wrote last
        #expect(text == #"{"movies":[{"id":"m1","title":"Alien (Director's Cut)"},{"id":"m2","title":"Heat"}]}"#)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func keepsListMembershipPerQuery(backend: CacheBackend) throws {
        // given the same list field fetched with different arguments by two queries
        let fixture = try CacheFixture(backend)
        let firstPage = QueryKey(operationName: "ListMovies", variables: ["limit": 1])
        try fixture.write(
            firstPage,
            """
            {"data":{"movies":[{"id":"m1","title":"Alien"}]},
             "extensions":{"dataConnect":[{"path":["movies"],"entityIds":["Movie/m1"],"action":"LIST"}]}}
            """)
        try fixture.write(Fixtures.listMovies, Fixtures.moviesResponse())

        // when the first page is read
        let text = try fixture.readText(firstPage)

        // then it keeps its own membership
        #expect(text == #"{"movies":[{"id":"m1","title":"Alien"}]}"#)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func missesUnknownQueries(backend: CacheBackend) throws {
        // given an empty cache
        let fixture = try CacheFixture(backend)

        // when a query is read
        let read = try fixture.cache.read(query: Fixtures.getMovie, allowStale: true)

        // then it is a miss
        #expect(read == nil)
    }
}
