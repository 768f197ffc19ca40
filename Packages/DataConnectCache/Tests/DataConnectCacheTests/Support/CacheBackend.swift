import DataConnectCache
import DataConnectWire
import Foundation
import Synchronization
import Testing

/// The storage backends every engine test runs on.
enum CacheBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case sqlite

    var testDescription: String { rawValue }

    /// A fresh storage; SQLite lives in a file of `directory`.
    func makeStorage(in directory: TemporaryDirectory) throws -> any CacheStorage {
        switch self {
        case .memory: MemoryCacheStorage()
        case .sqlite: try SQLiteCacheStorage(path: directory.path + "/cache.sqlite3")
        }
    }
}

extension CacheStorage {
    /// The record store's counts and size, read in a transaction of their own.
    func statistics() throws -> CacheStatistics {
        try transaction { records, _ in try records.statistics() }
    }
}

/// A directory removed when the last reference goes away.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "dataconnect-cache-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

/// A cache on one backend with a hand-moved clock; keeps its temporary directory alive.
struct CacheFixture {
    let cache: NormalizedCache
    let clock: TestClock
    let directory: TemporaryDirectory

    init(_ backend: CacheBackend, maxSize: Int = 100_000_000, maxAge: TimeInterval = 60) throws {
        directory = TemporaryDirectory()
        let clock = TestClock()
        self.clock = clock
        cache = NormalizedCache(
            storage: try backend.makeStorage(in: directory), maxSize: maxSize, maxAge: maxAge, clock: { clock.now }
        )
    }

    /// Writes a full response text (`data` and `extensions`) for a query.
    @discardableResult
    func write(_ key: QueryKey, _ responseText: String, maxAge: TimeInterval? = nil) throws -> CacheUpdate {
        let response = try Response(responseText)
        return try cache.write(query: key, response: response.data, properties: response.properties, maxAge: maxAge)
    }

    /// Applies a full mutation response text.
    @discardableResult
    func mutate(_ responseText: String) throws -> CacheUpdate {
        let response = try Response(responseText)
        return try cache.applyMutation(response: response.data, properties: response.properties)
    }

    /// The cached data as compact JSON text, stale allowed; `nil` on a miss.
    func readText(_ key: QueryKey) throws -> String? {
        try cache.read(query: key, allowStale: true).map { JSONValue.object($0.data).jsonString() }
    }
}

/// A parsed response: its `data` object and `extensions.dataConnect`.
struct Response {
    let data: JSONObject
    let properties: [DataConnectProperties]
    /// The `data` object as compact JSON text, in the server's key order.
    var dataText: String { JSONValue.object(data).jsonString() }

    init(_ text: String) throws {
        let response = try GraphQLResponse(json: JSONValue(parsing: text))
        data = try #require(response.data?.objectValue)
        properties = response.extensions.dataConnect
    }
}
