import DataConnectTesting
import DataConnectWire
import FirebaseDataConnect
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `sdk-bench`: the SDK's `execute()` of the 20-row `listMoviesWithActors` query against a bare `URLSession`
/// POST of the same request, both on a live in-process emulator serving `Benchmarks/emulator/backend`.
///
/// Usage: `sdk-bench [--requests N] [--warmup N] [--backend PATH]`. Prints a Markdown table of the median
/// and p90 latencies and the SDK-to-bare ratio of the medians.

/// The decoded shape of `listMoviesWithActors`.
struct MovieList: Decodable, Sendable {
    struct Actor: Decodable, Sendable {
        var id: String
        var name: String
    }

    struct Movie: Decodable, Sendable {
        var id: String
        var title: String
        var releaseYear: Int?
        var actors_via_MovieActor: [Actor]
    }

    var movies: [Movie]
}

/// The variables of `listMoviesWithActors`.
struct GenreVariables: OperationVariable {
    var genre: String
}

struct Options {
    var requests = 2_000
    var warmup = 200
    var backend: String?

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--requests": requests = iterator.next().flatMap { Int($0) } ?? requests
            case "--warmup": warmup = iterator.next().flatMap { Int($0) } ?? warmup
            case "--backend": backend = iterator.next()
            default:
                FileHandle.standardError.write(Data("unknown argument: \(argument)\n".utf8))
                exit(2)
            }
        }
    }
}

let movieCount = 2_000
let genreCount = 10
let actorCount = 600
let actorsPerMovie = 3
let batchSize = 500

/// Finds `Benchmarks/emulator/backend` above this file or the working directory.
func findBackend() -> String? {
    let starts = [
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent(),
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
    ]
    for start in starts {
        var directory = start
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Benchmarks/emulator/backend")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("dataconnect.yaml").path) {
                return candidate.path
            }
            directory.deleteLastPathComponent()
        }
    }
    return nil
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("sdk-bench: \(message)\n".utf8))
    exit(1)
}

/// A deterministic UUID from a kind and an index.
func uuid(_ kind: Int, _ index: Int) -> String {
    String(format: "%08x-0000-4000-8000-%012x", kind, index)
}

/// Runs an admin insert of `rows` in batches, stopping the program on any error.
func insertMany(_ emulator: TestEmulator, table: String, type: String, rows: [JSONValue]) {
    var start = 0
    while start < rows.count {
        let batch = Array(rows[start..<min(start + batchSize, rows.count)])
        let result = emulator.executeAdmin(
            "mutation seed($data: [\(type)!]!) { \(table)_insertMany(data: $data) }",
            variables: ["data": .array(batch)])
        let hasErrors = result["errors"].map { $0 != .array([]) } ?? false
        if result["data"]?[table + "_insertMany"] == nil || hasErrors || result["error"] != nil {
            fail("seeding \(table) failed: \(result.jsonString().prefix(500))")
        }
        start += batchSize
    }
}

/// Inserts the movies, actors and cast links.
func seed(_ emulator: TestEmulator) {
    let movies: [JSONValue] = (0..<movieCount).map { index in
        var row = JSONObject()
        row["id"] = JSONValue(uuid(1, index))
        row["title"] = JSONValue("Movie \(index)")
        row["releaseYear"] = JSONValue(1950 + index % 75)
        row["genre"] = JSONValue("Genre-\(index % genreCount)")
        row["rating"] = JSONValue(1 + index % 5)
        return .object(row)
    }
    let actors: [JSONValue] = (0..<actorCount).map { index in
        var row = JSONObject()
        row["id"] = JSONValue(uuid(2, index))
        row["name"] = JSONValue("Actor \(index)")
        return .object(row)
    }
    let links: [JSONValue] = (0..<movieCount).flatMap { movie in
        (0..<actorsPerMovie).map { slot -> JSONValue in
            var row = JSONObject()
            row["movieId"] = JSONValue(uuid(1, movie))
            row["actorId"] = JSONValue(uuid(2, (movie * 7 + slot * 131) % actorCount))
            return .object(row)
        }
    }
    insertMany(emulator, table: "movie", type: "Movie_Data", rows: movies)
    insertMany(emulator, table: "actor", type: "Actor_Data", rows: actors)
    insertMany(emulator, table: "movieActor", type: "MovieActor_Data", rows: links)
}

/// The median and 90th percentile of `samples`, in microseconds.
func percentiles(_ samples: [Duration]) -> (median: Double, p90: Double) {
    let sorted = samples.map { Double($0.components.seconds) * 1e6 + Double($0.components.attoseconds) / 1e12 }
        .sorted()
    func at(_ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
    }
    return (at(0.5), at(0.9))
}

/// Times `count` sequential runs of `body`.
func measure(_ count: Int, _ body: () async throws -> Void) async throws -> [Duration] {
    let clock = ContinuousClock()
    var samples: [Duration] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        let start = clock.now
        try await body()
        samples.append(clock.now - start)
    }
    return samples
}

let options = Options(arguments: CommandLine.arguments)
guard let backend = options.backend ?? findBackend() else { fail("Benchmarks/emulator/backend not found") }

let setupStart = ContinuousClock.now
let emulator: TestEmulator
do {
    emulator = try TestEmulator(backend: backend)
} catch {
    fail("the emulator did not start: \(error)")
}
seed(emulator)
let setupTime = ContinuousClock.now - setupStart

let projectID = "demo"
FirebaseApp.configure(name: "sdk-bench", options: FirebaseOptions(projectID: projectID))
guard let app = FirebaseApp.app(name: "sdk-bench") else { fail("no app") }
let config = ConnectorConfig(serviceId: emulator.serviceID, location: "us-central1", connector: "bench")
let dataConnect = DataConnect.dataConnect(app: app, connectorConfig: config)
dataConnect.useEmulator(host: emulator.host, port: emulator.port)
let genre = "Genre-3"
let ref = dataConnect.query(
    name: "listMoviesWithActors", variables: GenreVariables(genre: genre), resultsDataType: MovieList.self)

let connectorPath = "projects/\(projectID)/locations/us-central1/services/\(emulator.serviceID)/connectors/bench"
var request = URLRequest(url: URL(string: "\(emulator.url)/v1/\(connectorPath):executeQuery")!)
request.httpMethod = "POST"
request.setValue("application/json", forHTTPHeaderField: "Content-Type")
request.setValue("gl-swift/6 fire/12.0.0 gl-linux/1", forHTTPHeaderField: "X-Goog-Api-Client")
request.setValue("linux/12.0.0", forHTTPHeaderField: "X-Client-Version")
request.setValue(app.options.googleAppID, forHTTPHeaderField: "x-firebase-gmpid")
request.setValue(projectID + emulator.serviceID, forHTTPHeaderField: "x-firebase-sqlconnect-affinity")
let body: JSONValue = [
    "name": .string(connectorPath), "operationName": "listMoviesWithActors", "variables": ["genre": .string(genre)],
]
request.httpBody = Data(body.jsonString().utf8)
let bareRequest = request
let session = URLSession(configuration: .ephemeral)

func bare() async throws {
    let (data, response) = try await session.data(for: bareRequest)
    guard (response as? HTTPURLResponse)?.statusCode == 200, data.count > 2 else {
        fail("bare request failed: \(String(decoding: data, as: UTF8.self))")
    }
}

func sdk() async throws {
    let result = try await ref.execute()
    guard result.data?.movies.count == 20 else { fail("the SDK returned \(result.data?.movies.count ?? 0) rows") }
}

do {
    let check = try await ref.execute()
    guard let movies = check.data?.movies, movies.count == 20, movies.allSatisfy({ $0.actors_via_MovieActor.count > 0 })
    else { fail("the list query did not return 20 movies with actors") }
    _ = try await measure(options.warmup, bare)
    _ = try await measure(options.warmup, sdk)
    var bareSamples: [Duration] = []
    var sdkSamples: [Duration] = []
    // Alternate halves so drift in the machine's load falls on both sides alike.
    for _ in 0..<2 {
        bareSamples += try await measure(options.requests / 2, bare)
        sdkSamples += try await measure(options.requests / 2, sdk)
    }
    let bareStats = percentiles(bareSamples)
    let sdkStats = percentiles(sdkSamples)
    let ratio = sdkStats.median / bareStats.median
    func format(_ value: Double) -> String { String(format: "%.1f", value) }
    print(
        "setup: \(movieCount) movies, \(actorCount) actors, \(movieCount * actorsPerMovie) cast links in \(setupTime)")
    print("requests: \(bareSamples.count) each way after \(options.warmup) warm-up each\n")
    print("| client | median (µs) | p90 (µs) |")
    print("|---|---:|---:|")
    print("| bare URLSession POST | \(format(bareStats.median)) | \(format(bareStats.p90)) |")
    print("| SDK `execute()` | \(format(sdkStats.median)) | \(format(sdkStats.p90)) |")
    print("\nSDK / bare median ratio: \(String(format: "%.3f", ratio))x (target ≤ 1.3x)")
    emulator.stop()
} catch {
    fail("\(error)")
}

// MARK: Client cache

/// The same backend with a cache-enabled connector, so responses carry entity ids.
func cachedBackend() -> String {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-bench-\(getpid())").path
    try? FileManager.default.removeItem(atPath: copy)
    do {
        try FileManager.default.copyItem(atPath: backend, toPath: copy)
        let manifest = copy + "/connector/connector.yaml"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try
            (text
            + "\ngenerate:\n  swiftSdk:\n    outputDir: ../out\n    package: Bench\n    clientCache:\n      maxAge: 1h\n")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
    } catch {
        fail("cannot copy the backend: \(error)")
    }
    return copy
}

do {
    let directory = cachedBackend()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let cachedEmulator = try TestEmulator(backend: directory)
    seed(cachedEmulator)
    // A new app: `dataConnect(app:connectorConfig:)` returns the existing, cache-less instance for `app`.
    FirebaseApp.configure(name: "sdk-bench-memory", options: FirebaseOptions(projectID: projectID))
    guard let memoryApp = FirebaseApp.app(name: "sdk-bench-memory") else { fail("no app") }
    let cached = DataConnect.dataConnect(
        app: memoryApp, connectorConfig: config,
        settings: DataConnectSettings(cacheSettings: CacheSettings(storage: .memory, maxAge: 3600)))
    cached.useEmulator(host: cachedEmulator.host, port: cachedEmulator.port)
    let persistentFolder = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-bench-cache-\(getpid())")
        .path
    defer { try? FileManager.default.removeItem(atPath: persistentFolder) }
    FirebaseApp.configure(name: "sdk-bench-sqlite", options: FirebaseOptions(projectID: projectID))
    guard let sqliteApp = FirebaseApp.app(name: "sdk-bench-sqlite") else { fail("no app") }
    let persistent = DataConnect.dataConnect(
        app: sqliteApp, connectorConfig: config,
        settings: DataConnectSettings(
            cacheSettings: CacheSettings(storage: .persistent, maxAge: 3600, directory: persistentFolder)))
    persistent.useEmulator(host: cachedEmulator.host, port: cachedEmulator.port)

    FirebaseApp.configure(name: "sdk-bench-nocache", options: FirebaseOptions(projectID: projectID))
    guard let plainApp = FirebaseApp.app(name: "sdk-bench-nocache") else { fail("no app") }
    let uncached = DataConnect.dataConnect(app: plainApp, connectorConfig: config)
    uncached.useEmulator(host: cachedEmulator.host, port: cachedEmulator.port)
    let uncachedRef = uncached.query(
        name: "listMoviesWithActors", variables: GenreVariables(genre: genre), resultsDataType: MovieList.self)
    func withoutCache() async throws { _ = try await uncachedRef.execute() }
    _ = try await measure(options.warmup, withoutCache)
    let baseline = percentiles(try await measure(options.requests / 2, withoutCache))
    var rows: [(String, Double, Double)] = [
        ("no cache: `execute()` (round trip with entity ids, decode)", baseline.median, baseline.p90)
    ]
    for (label, instance) in [("memory", cached), ("SQLite", persistent)] {
        let cachedRef = instance.query(
            name: "listMoviesWithActors", variables: GenreVariables(genre: genre), resultsDataType: MovieList.self)
        let first = try await cachedRef.execute(fetchPolicy: .serverOnly)
        guard first.data?.movies.count == 20, try await cachedRef.execute().source == .cache else {
            fail("the cache did not answer the 20-row list")
        }
        func fromServer() async throws { _ = try await cachedRef.execute(fetchPolicy: .serverOnly) }
        func fromCache() async throws {
            let result = try await cachedRef.execute()
            guard result.source == .cache, result.data?.movies.count == 20 else { fail("a cache miss") }
        }
        _ = try await measure(options.warmup, fromServer)
        _ = try await measure(options.warmup, fromCache)
        let serverSamples = percentiles(try await measure(options.requests / 2, fromServer))
        let cacheSamples = percentiles(try await measure(options.requests, fromCache))
        rows.append(
            (
                "\(label): `execute(fetchPolicy: .serverOnly)` (round trip, decode, cache write)", serverSamples.median,
                serverSamples.p90
            ))
        rows.append(("\(label): `execute()` answered from the fresh cache", cacheSamples.median, cacheSamples.p90))
    }
    print(
        "\nclient cache, the same 20-row list (20 movies, 60 cast entries) with entity ids"
            + " (\(options.requests) cache reads each):\n")
    print("| client | median (µs) | p90 (µs) |")
    print("|---|---:|---:|")
    for (label, median, p90) in rows {
        print("| \(label) | \(String(format: "%.1f", median)) | \(String(format: "%.1f", p90)) |")
    }
    cachedEmulator.stop()
} catch {
    fail("\(error)")
}
