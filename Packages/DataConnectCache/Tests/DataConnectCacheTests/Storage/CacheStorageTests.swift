import DataConnectCache
import Foundation
import Testing

/// The record-level contract, on every backend: the record store, the dependency index, and the storage's
/// transactions and clearing.
@Suite struct CacheStorageTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func query(_ id: String, accessed offset: TimeInterval = 0) -> QueryRecord {
        QueryRecord(
            id: id, tree: Array(#"{"$o":{}}"#.utf8), cachedAt: Self.now, maxAge: 60,
            lastAccessed: Self.now.addingTimeInterval(offset)
        )
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func savesLoadsAndRemovesRecords(backend: CacheBackend) throws {
        // given a storage with a query and an entity
        let directory = TemporaryDirectory()
        let storage = try backend.makeStorage(in: directory)
        let record = query("Q{}")
        let entity = EntityRecord(id: "Movie/m1", fields: Array(#"{"title":"Alien"}"#.utf8))
        try storage.transaction { records, _ throws in
            try records.save(record)
            try records.save(entity)
        }

        // then both load back and count toward the size
        try storage.transaction { records, _ throws in
            #expect(try records.query(id: "Q{}") == record)
            #expect(try records.entities(ids: ["Movie/m1", "Movie/none"]) == ["Movie/m1": entity])
            #expect(
                try records.statistics()
                    == CacheStatistics(queryCount: 1, entityCount: 1, byteSize: record.byteSize + entity.byteSize))
        }

        // when a record is replaced, then it counts once, at its new size
        var replaced = record
        replaced.tree = Array(#"{"$o":{"title":"a longer tree"}}"#.utf8)
        try storage.transaction { records, _ in try records.save(replaced) }
        #expect(
            try storage.statistics()
                == CacheStatistics(queryCount: 1, entityCount: 1, byteSize: replaced.byteSize + entity.byteSize))

        // when they are removed, then nothing remains
        try storage.transaction { records, _ throws in
            try records.removeQuery(id: "Q{}")
            try records.removeEntity(id: "Movie/m1")
            try records.removeEntity(id: "Movie/none")
        }
        try storage.transaction { records, _ throws in
            #expect(try records.query(id: "Q{}") == nil)
            #expect(try records.statistics() == CacheStatistics(queryCount: 0, entityCount: 0, byteSize: 0))
        }
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func indexesDependenciesBothWays(backend: CacheBackend) throws {
        // given two queries depending on overlapping entities and lists
        let directory = TemporaryDirectory()
        let storage = try backend.makeStorage(in: directory)
        try storage.transaction { _, index throws in
            try index.setDependencies(
                QueryDependencies(entities: ["Movie/m1": ["title"], "Person/d1": []], listTables: ["Movie"]),
                ofQuery: "A")
            try index.setDependencies(
                QueryDependencies(entities: ["Movie/m1": ["rating", "title"]], listTables: ["*"]), ofQuery: "B")
        }

        // then each lookup finds its queries
        try storage.transaction { _, index throws in
            #expect(try index.readers(ofEntity: "Movie/m1") == ["A": ["title"], "B": ["rating", "title"]])
            #expect(try index.readers(ofEntity: "Person/d1") == ["A": []])
            #expect(try index.queryIDs(showingTable: "Movie") == ["A", "B"])
            #expect(try index.queryIDs(showingTable: "Person") == ["A"])
            #expect(try index.queryIDs(listingTable: "Movie") == ["A"])
            #expect(try index.queryIDs(listingTable: QueryDependencies.unknownTable) == ["B"])
            #expect(
                try index.dependencies(ofQuery: "B")
                    == QueryDependencies(entities: ["Movie/m1": ["rating", "title"]], listTables: ["*"]))
        }

        // when A gets fewer dependencies and B none, then the index follows
        try storage.transaction { _, index throws in
            try index.setDependencies(QueryDependencies(entities: ["Movie/m2": ["title"]]), ofQuery: "A")
            try index.setDependencies(QueryDependencies(), ofQuery: "B")
        }
        try storage.transaction { _, index throws in
            #expect(try index.readers(ofEntity: "Movie/m1").isEmpty)
            #expect(try index.isReferenced(entity: "Person/d1") == false)
            #expect(try index.isReferenced(entity: "Movie/m2"))
            #expect(try index.queryIDs(listingTable: "Movie").isEmpty)
            #expect(try index.queryIDs(listingTable: QueryDependencies.unknownTable).isEmpty)
            #expect(try index.dependencies(ofQuery: "B") == QueryDependencies())
        }
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func listsLeastRecentlyAccessedFirst(backend: CacheBackend) throws {
        // given three queries accessed at different times
        let directory = TemporaryDirectory()
        let storage = try backend.makeStorage(in: directory)
        try storage.transaction { records, _ throws in
            try records.save(query("new", accessed: 30))
            try records.save(query("old", accessed: 10))
            try records.save(query("mid", accessed: 20))
        }

        // then they list oldest first, up to the limit
        #expect(
            try storage.transaction { records, _ in try records.leastRecentlyAccessedQueryIDs(limit: 2) } == [
                "old", "mid",
            ])

        // when the oldest is saved as accessed last, then it moves last
        try storage.transaction { records, _ in try records.save(query("old", accessed: 40)) }
        #expect(
            try storage.transaction { records, _ in try records.leastRecentlyAccessedQueryIDs(limit: 10) } == [
                "mid", "new", "old",
            ])
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func clearsRecordsAndIndex(backend: CacheBackend) throws {
        // given a query with dependencies and an entity
        let directory = TemporaryDirectory()
        let storage = try backend.makeStorage(in: directory)
        try storage.transaction { records, index throws in
            try records.save(query("A"))
            try records.save(EntityRecord(id: "Movie/m1", fields: Array("{}".utf8)))
            try index.setDependencies(QueryDependencies(entities: ["Movie/m1": []]), ofQuery: "A")
        }

        // when the storage is cleared
        try storage.clear()

        // then it is empty, index included
        try storage.transaction { records, index throws in
            #expect(try records.statistics() == CacheStatistics(queryCount: 0, entityCount: 0, byteSize: 0))
            #expect(try records.allRecords().queries.isEmpty)
            #expect(try records.allRecords().entities.isEmpty)
            #expect(try index.readers(ofEntity: "Movie/m1").isEmpty)
        }
    }

    @Test(arguments: [CacheBackend.memory, .sqlite])
    func transactionsRunOneAtATime(backend: CacheBackend) async throws {
        // given a storage and many tasks that each read a counter entity and write it back incremented
        let directory = TemporaryDirectory()
        let storage = try backend.makeStorage(in: directory)
        let id = "Counter/c"
        try storage.transaction { records, _ in try records.save(EntityRecord(id: id, fields: Array("0".utf8))) }

        // when they run concurrently
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try? storage.transaction { records, _ throws in
                        let value = Int(
                            String(decoding: try records.entities(ids: [id])[id]?.fields ?? [], as: UTF8.self))
                        try records.save(EntityRecord(id: id, fields: Array(String((value ?? 0) + 1).utf8)))
                    }
                }
            }
        }

        // then no increment was lost
        let final = try storage.transaction { records, _ in try records.entities(ids: [id])[id]?.fields }
        #expect(final.map { String(decoding: $0, as: UTF8.self) } == "50")
    }
}
