// `cache-bench`: hydration, write and size-capped workload timings of the normalized cache on both backends.
//
// Run with `swift run -c release --package-path Packages/DataConnectCache cache-bench`; prints a markdown table.

import DataConnectCache
import DataConnectWire
import Foundation

/// A 20-row movie list: each row an entity with six fields and a nested director entity.
func movieList(rows: Int = 20, titleSuffix: String = "") -> (data: JSONObject, properties: [DataConnectProperties]) {
    var movies: [JSONValue] = []
    var properties: [DataConnectProperties] = []
    var ids: [String] = []
    for row in 0..<rows {
        let id = String(format: "a%031d", row)
        ids.append("Movie/\(id)")
        movies.append(
            .object([
                "id": .string(id),
                "title": .string("Movie \(row)\(titleSuffix)"),
                "releaseYear": JSONValue(1970 + row),
                "rating": JSONValue(Double(row % 10) + 0.5),
                "genre": "sci-fi",
                "tags": ["space", "classic"],
                "description": .string("A film about row \(row) with a modest description of some length."),
                "director": .object(["id": .string("d\(row % 7)"), "name": .string("Director \(row % 7)")]),
            ]))
        properties.append(
            DataConnectProperties(path: ["movies", .index(row), "director"], entityId: "Person/d\(row % 7)"))
    }
    properties.insert(DataConnectProperties(path: ["movies"], entityIds: ids, action: .list), at: 0)
    return (["movies": .array(movies)], properties)
}

/// One small query per number, for the size-capped workload.
func movieByID(_ number: Int) -> (key: QueryKey, data: JSONObject, properties: [DataConnectProperties]) {
    let key = QueryKey(operationName: "GetMovie", variables: ["id": .string("m\(number)")])
    let data: JSONObject = [
        "movie": .object([
            "id": .string("m\(number)"), "title": .string("Movie \(number)"),
            "releaseYear": JSONValue(1900 + number % 120),
            "director": .object(["id": .string("d\(number % 500)"), "name": .string("Director \(number % 500)")]),
        ])
    ]
    let properties = [
        DataConnectProperties(path: ["movie"], entityId: "Movie/m\(number)", action: .get),
        DataConnectProperties(path: ["movie", "director"], entityId: "Person/d\(number % 500)", action: .get),
    ]
    return (key, data, properties)
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted[sorted.count / 2]
}

func measure(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = clock.now
        try body()
        samples.append(microseconds(clock.now - start))
    }
    return median(samples)
}

let directory = NSTemporaryDirectory() + "cache-bench-\(UUID().uuidString)"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }

func makeStorage(_ kind: String, _ name: String) throws -> any CacheStorage {
    kind == "memory" ? MemoryCacheStorage() : try SQLiteCacheStorage(path: "\(directory)/\(name).sqlite3")
}

print("| Backend | Operation | Result |")
print("|---|---|---|")
for kind in ["memory", "sqlite"] {
    // Hydration and writing of the 20-row list.
    let storage = try makeStorage(kind, "list")
    let cache = NormalizedCache(storage: storage, maxAge: 3600)
    let key = QueryKey(operationName: "ListMovies", variables: ["limit": 20])
    let list = movieList()
    let changed = movieList(titleSuffix: " (remastered)")
    try cache.write(query: key, response: list.data, properties: list.properties)
    guard let check = try cache.read(query: key), check.data == list.data else {
        fatalError("round trip failed on \(kind)")
    }
    let read = try measure(2000) { _ = try cache.read(query: key) }
    // A new engine over the same storage remembers nothing: every read hydrates from the records.
    let coldRead = try measure(1000) { _ = try NormalizedCache(storage: storage, maxAge: 3600).read(query: key) }
    let sameWrite = try measure(1000) { try cache.write(query: key, response: list.data, properties: list.properties) }
    var flip = false
    let changingWrite = try measure(1000) {
        flip.toggle()
        let response = flip ? changed : list
        try cache.write(query: key, response: response.data, properties: response.properties)
    }
    print(
        "| \(kind) | read 20-row list, remembered since the last change, median | \(String(format: "%.1f", read)) µs |")
    print("| \(kind) | read 20-row list, hydrated from the records, median | \(String(format: "%.1f", coldRead)) µs |")
    print("| \(kind) | write same 20-row list, median | \(String(format: "%.1f", sameWrite)) µs |")
    print(
        "| \(kind) | write 20-row list with 20 changed titles, median | \(String(format: "%.1f", changingWrite)) µs |")

    // 10,000 distinct queries under a 1 MB cap.
    let cap = 1_000_000
    let capped = NormalizedCache(storage: try makeStorage(kind, "capped"), maxSize: cap, maxAge: 3600)
    var largest = 0
    var evicted = 0
    let clock = ContinuousClock()
    let start = clock.now
    for number in 0..<10_000 {
        let query = movieByID(number)
        evicted += try capped.write(query: query.key, response: query.data, properties: query.properties)
            .evictedQueries.count
        if number % 100 == 0 { largest = max(largest, try capped.statistics().byteSize) }
    }
    let perWrite = microseconds(clock.now - start) / 10_000
    let statistics = try capped.statistics()
    largest = max(largest, statistics.byteSize)
    print("| \(kind) | 10,000 queries, 1 MB cap: time per write | \(String(format: "%.1f", perWrite)) µs |")
    print(
        "| \(kind) | 10,000 queries, 1 MB cap: largest size seen / final | \(largest) / \(statistics.byteSize) bytes"
            + " (\(statistics.queryCount) queries, \(statistics.entityCount) entities, \(evicted) evicted) |"
    )
}
