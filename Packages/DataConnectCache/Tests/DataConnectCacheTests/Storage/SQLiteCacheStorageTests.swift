import DataConnectCache
import DataConnectWire
import Foundation
import SQLiteKit
import Synchronization
import Testing

@Suite struct SQLiteCacheStorageTests {
    /// Collects warnings from `onWarning`.
    final class Warnings: Sendable {
        private let messages = Mutex<[String]>([])
        var all: [String] { messages.withLock { $0 } }
        func record(_ message: String) { messages.withLock { $0.append(message) } }
    }

    /// Writes the example response into a cache file and closes it.
    func writeExample(at path: String) throws {
        let cache = NormalizedCache(storage: try SQLiteCacheStorage(path: path), maxAge: 3600)
        let response = try Response(Fixtures.movieResponse)
        try cache.write(query: Fixtures.getMovie, response: response.data, properties: response.properties)
    }

    /// The files in `directory` whose name contains `.corrupt-`.
    func setAside(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".corrupt-") }
    }

    @Test func keepsDataAcrossReopening() throws {
        // given a cache file written and closed
        let directory = TemporaryDirectory()
        let path = directory.path + "/nested/dir/cache.sqlite3"
        try writeExample(at: path)

        // when it is opened again
        let warnings = Warnings()
        let storage = try SQLiteCacheStorage(path: path, onWarning: warnings.record)
        let cache = NormalizedCache(storage: storage, maxAge: 3600)

        // then the result reads back exactly, without warnings, and the size is known again
        let read = try #require(try cache.read(query: Fixtures.getMovie))
        #expect(JSONValue.object(read.data).jsonString() == (try Response(Fixtures.movieResponse).dataText))
        #expect(warnings.all.isEmpty)
        let statistics = try cache.statistics()
        #expect(statistics.queryCount == 1)
        #expect(statistics.entityCount == 4)
        #expect(statistics.byteSize > 0)
    }

    @Test func usesWALAndWritesTheSchemaVersion() throws {
        // given a new cache file
        let directory = TemporaryDirectory()
        let path = directory.path + "/cache.sqlite3"
        _ = try SQLiteCacheStorage(path: path)

        // when it is inspected with a plain connection
        let connection = try Connection(path: path)

        // then it is in WAL mode with the schema version
        #expect(try connection.journalMode() == .wal)
        #expect(try connection.userVersion() == SQLiteCacheStorage.schemaVersion)
    }

    @Test func setsAsideATruncatedFile() throws {
        // given a cache file with enough data to span pages, cut in half
        let directory = TemporaryDirectory()
        let path = directory.path + "/cache.sqlite3"
        do {
            let cache = NormalizedCache(storage: try SQLiteCacheStorage(path: path), maxAge: 3600)
            for number in 0..<300 {
                let (key, text) = EvictionTests.movie(number)
                let response = try Response(text)
                try cache.write(query: key, response: response.data, properties: response.properties)
            }
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()

        // when it is opened
        let warnings = Warnings()
        let storage = try SQLiteCacheStorage(path: path, onWarning: warnings.record)

        // then it was set aside with a warning and a fresh, usable database took its place
        #expect(warnings.all.count == 1)
        #expect(try setAside(in: directory).contains { $0.hasPrefix("cache.sqlite3.corrupt-") })
        #expect(try storage.statistics().queryCount == 0)
        try writeExample(at: path)
    }

    @Test func setsAsideAFileThatLostItsWriteAheadLog() throws {
        // given a cache whose data still sits in the WAL (the process ended without a checkpoint), then the WAL
        // is lost and the main file cut short: the header and version survive, the schema does not
        let directory = TemporaryDirectory()
        let path = directory.path + "/cache.sqlite3"
        let connection = try Connection(path: path)
        _ = try connection.journalMode(.wal)
        try connection.execute("CREATE TABLE queries(id TEXT)")
        try connection.setUserVersion(SQLiteCacheStorage.schemaVersion)
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(100)
        try Data(header).write(to: URL(fileURLWithPath: path))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }

        // when it is opened
        let warnings = Warnings()
        let storage = try SQLiteCacheStorage(path: path, onWarning: warnings.record)

        // then it is set aside and replaced by a usable database
        #expect(warnings.all.count == 1, "\(warnings.all)")
        #expect(try setAside(in: directory).count >= 1)
        #expect(try storage.statistics().queryCount == 0)
        _ = connection
    }

    @Test func setsAsideAGarbageFile() throws {
        // given a file that is not a database
        let directory = TemporaryDirectory()
        let path = directory.path + "/cache.sqlite3"
        try Data(repeating: 0x5A, count: 10_000).write(to: URL(fileURLWithPath: path))

        // when it is opened
        let warnings = Warnings()
        let storage = try SQLiteCacheStorage(path: path, onWarning: warnings.record)

        // then it was set aside and the new database works
        #expect(warnings.all.count == 1)
        #expect(try setAside(in: directory).count == 1)
        let cache = NormalizedCache(storage: storage, maxAge: 60)
        let response = try Response(Fixtures.movieResponse)
        try cache.write(query: Fixtures.getMovie, response: response.data, properties: response.properties)
        #expect(try cache.read(query: Fixtures.getMovie) != nil)
    }

    @Test func setsAsideAFileWithAnotherSchemaVersion() throws {
        // given a cache file whose user_version is from another schema
        let directory = TemporaryDirectory()
        let path = directory.path + "/cache.sqlite3"
        try writeExample(at: path)
        do {
            let connection = try Connection(path: path)
            try connection.setUserVersion(SQLiteCacheStorage.schemaVersion + 1)
        }

        // when it is opened
        let warnings = Warnings()
        let storage = try SQLiteCacheStorage(path: path, onWarning: warnings.record)

        // then the old file was set aside and the cache starts empty
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("schema version") == true)
        #expect(try setAside(in: directory).contains { $0.hasPrefix("cache.sqlite3.corrupt-") })
        #expect(try storage.statistics().queryCount == 0)
    }

    @Test func setsAsideAnotherApplicationsDatabase() throws {
        // given a database with version 0 and unrelated tables
        let directory = TemporaryDirectory()
        let path = directory.path + "/cache.sqlite3"
        do {
            let connection = try Connection(path: path)
            try connection.execute("CREATE TABLE notes(text TEXT)")
        }

        // when it is opened, then it is set aside rather than mixed with the cache
        let warnings = Warnings()
        _ = try SQLiteCacheStorage(path: path, onWarning: warnings.record)
        #expect(warnings.all.count == 1)
    }

    @Test func setsAsideAPathItCannotOpen() throws {
        // given a directory where the database file should be (unreadable as a database, even for root)
        let directory = TemporaryDirectory()
        let path = directory.path + "/cache.sqlite3"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)

        // when it is opened
        let warnings = Warnings()
        let storage = try SQLiteCacheStorage(path: path, onWarning: warnings.record)

        // then it was moved aside and a database file took its place
        #expect(warnings.all.count == 1)
        #expect(try setAside(in: directory).count == 1)
        #expect(try storage.statistics().queryCount == 0)
    }

    @Test func throwsWhenNoDatabaseCanBeCreated() throws {
        // given a path below a regular file, where no directory can be made
        let directory = TemporaryDirectory()
        let blocker = directory.path + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))

        // when a database is opened there, then it throws without warnings
        let warnings = Warnings()
        #expect(throws: (any Error).self) {
            _ = try SQLiteCacheStorage(path: blocker + "/cache.sqlite3", onWarning: warnings.record)
        }
        #expect(warnings.all.isEmpty)
    }

    @Test func rollsBackAFailedTransaction() throws {
        // given a storage with one entity
        let storage = try SQLiteCacheStorage(path: ":memory:")
        try storage.transaction { records, _ throws in
            try records.save(EntityRecord(id: "Movie/m1", fields: Array(#"{"title":"Alien"}"#.utf8)))
        }
        let before = try storage.statistics()

        // when a transaction saves another entity and a dependency, then throws
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try storage.transaction { records, index throws in
                try records.save(EntityRecord(id: "Movie/m2", fields: Array(#"{"title":"Heat"}"#.utf8)))
                try index.setDependencies(QueryDependencies(entities: ["Movie/m2": []]), ofQuery: "Q")
                throw Failure()
            }
        }

        // then the second entity, its bytes and the dependency are gone
        try storage.transaction { records, index throws in
            #expect(try records.entities(ids: ["Movie/m1", "Movie/m2"]).keys.sorted() == ["Movie/m1"])
            #expect(try index.readers(ofEntity: "Movie/m2").isEmpty)
        }
        #expect(try storage.statistics() == before)
    }
}
