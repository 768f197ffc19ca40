import DataConnectCache
import DataConnectWire
import Testing

@Suite struct ConcurrencyTests {
    @Test(arguments: [CacheBackend.memory, .sqlite])
    func concurrentWritesReadsAndMutationsDoNotCrash(backend: CacheBackend) async throws {
        // given a cache shared by many tasks
        let fixture = try CacheFixture(backend)
        let cache = fixture.cache
        let responses = try (0..<8).map { number in
            try Response(
                """
                {"data":{"movies":[{"id":"m\(number)","title":"T\(number)"},{"id":"shared","title":"S\(number)"}]},
                 "extensions":{"dataConnect":[{"path":["movies"],\
                "entityIds":["Movie/m\(number)","Movie/shared"],"action":"LIST"}]}}
                """)
        }

        // when tasks write, read and mutate at the same time
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for round in 0..<25 {
                        let number = (task + round) % responses.count
                        let key = QueryKey(operationName: "List", variables: ["page": .number(JSONNumber(number))])
                        try cache.write(
                            query: key, response: responses[number].data, properties: responses[number].properties)
                        _ = try cache.read(query: key, allowStale: true)
                        if round % 10 == 0 {
                            try cache.applyMutation(
                                response: [:],
                                properties: [
                                    DataConnectProperties(
                                        path: ["movie_insert"], entityId: "Movie/x\(task)", action: .create)
                                ]
                            )
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        // then every query reads back whole, with the shared movie's last title
        for number in 0..<responses.count {
            let key = QueryKey(operationName: "List", variables: ["page": .number(JSONNumber(number))])
            let read = try #require(try cache.read(query: key, allowStale: true))
            #expect(read.data["movies"]?.arrayValue?.count == 2)
        }
        #expect(try cache.statistics().queryCount == responses.count)
    }
}
