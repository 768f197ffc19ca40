import DataConnectCache
import Foundation
import Testing

/// The record-level contract, on every backend.
@Suite struct CacheStorageTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func query(_ id: String, accessed offset: TimeInterval = 0) -> QueryRecord {
        QueryRecord(
            id: id, tree: Array(#"{"$o":{}}"#.utf8), cachedAt: Self.now, maxAge: 60,
            lastAccessed: Self.now.addingTimeInterval(offset)
        )
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func savesLoadsAndDeletesRecords(backend: CacheBackend) throws {
        // given a storage with a query and an entity
        let directory = TemporaryDirectory()
        let storage = try backend.makeStorage(in: directory)
        let record = query("Q{}")
        let entity = EntityRecord(id: "Movie/m1", fields: Array(#"{"title":"Alien"}"#.utf8))
        try storage.saveQuery(record, dependencies: QueryDependencies(entities: ["Movie/m1": ["title"]]))
        try storage.saveEntity(entity)

        // then both load back and count toward the size
        #expect(try storage.query(id: "Q{}") == record)
        #expect(try storage.entities(ids: ["Movie/m1", "Movie/none"]) == ["Movie/m1": entity])
        #expect(try storage.totalByteSize() == record.byteSize + entity.byteSize)
        #expect(
            try storage.statistics()
                == CacheStatistics(queryCount: 1, entityCount: 1, byteSize: record.byteSize + entity.byteSize))

        // when they are deleted, then nothing remains
        try storage.deleteQuery(id: "Q{}")
        try storage.deleteEntity(id: "Movie/m1")
        #expect(try storage.query(id: "Q{}") == nil)
        #expect(try storage.statistics() == CacheStatistics(queryCount: 0, entityCount: 0, byteSize: 0))
        #expect(try storage.isEntityReferenced("Movie/m1") == false)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func indexesDependenciesBothWays(backend: CacheBackend) throws {
        // given two queries depending on overlapping entities and lists
        let directory = TemporaryDirectory()
        let storage = try backend.makeStorage(in: directory)
        try storage.saveQuery(
            query("A"),
            dependencies: QueryDependencies(
                entities: ["Movie/m1": ["title"], "Person/d1": []], listTables: ["Movie"]
            ))
        try storage.saveQuery(
            query("B"),
            dependencies: QueryDependencies(entities: ["Movie/m1": ["rating", "title"]], listTables: ["*"]))

        // then each lookup finds its queries
        #expect(try storage.readers(ofEntity: "Movie/m1") == ["A": ["title"], "B": ["rating", "title"]])
        #expect(try storage.readers(ofEntity: "Person/d1") == ["A": []])
        #expect(try storage.queryIDs(showingTable: "Movie") == ["A", "B"])
        #expect(try storage.queryIDs(showingTable: "Person") == ["A"])
        #expect(try storage.queryIDs(listingTable: "Movie") == ["A"])
        #expect(try storage.queryIDs(listingTable: QueryDependencies.unknownTable) == ["B"])
        #expect(
            try storage.dependencies(ofQuery: "B")
                == QueryDependencies(entities: ["Movie/m1": ["rating", "title"]], listTables: ["*"]))

        // when A is saved again with fewer dependencies, then the index follows
        try storage.saveQuery(query("A"), dependencies: QueryDependencies(entities: ["Movie/m2": ["title"]]))
        #expect(try storage.readers(ofEntity: "Movie/m1") == ["B": ["rating", "title"]])
        #expect(try storage.isEntityReferenced("Person/d1") == false)
        #expect(try storage.queryIDs(listingTable: "Movie").isEmpty)
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func listsLeastRecentlyAccessedFirstAndTouches(backend: CacheBackend) throws {
        // given three queries accessed at different times
        let directory = TemporaryDirectory()
        let storage = try backend.makeStorage(in: directory)
        try storage.saveQuery(query("new", accessed: 30), dependencies: QueryDependencies())
        try storage.saveQuery(query("old", accessed: 10), dependencies: QueryDependencies())
        try storage.saveQuery(query("mid", accessed: 20), dependencies: QueryDependencies())

        // then they list oldest first, up to the limit
        #expect(try storage.leastRecentlyAccessedQueryIDs(limit: 2) == ["old", "mid"])

        // when the oldest is touched, then it moves last
        try storage.touch(queryID: "old", at: Self.now.addingTimeInterval(40))
        #expect(try storage.leastRecentlyAccessedQueryIDs(limit: 10) == ["mid", "new", "old"])
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func marksStaleAndClears(backend: CacheBackend) throws {
        // given two queries
        let directory = TemporaryDirectory()
        let storage = try backend.makeStorage(in: directory)
        try storage.saveQuery(query("A"), dependencies: QueryDependencies(entities: ["Movie/m1": []]))
        try storage.saveQuery(query("B"), dependencies: QueryDependencies())

        // when one and a missing id are marked stale, then only that one is
        try storage.markStale(queryIDs: ["A", "missing"])
        #expect(try storage.query(id: "A")?.isStale == true)
        #expect(try storage.query(id: "B")?.isStale == false)

        // when the storage is cleared, then it is empty, index included
        try storage.clear()
        #expect(try storage.statistics() == CacheStatistics(queryCount: 0, entityCount: 0, byteSize: 0))
        #expect(try storage.readers(ofEntity: "Movie/m1").isEmpty)
        #expect(try storage.allQueries().isEmpty)
    }
}
