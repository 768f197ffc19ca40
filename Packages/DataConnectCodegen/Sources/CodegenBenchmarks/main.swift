// codegen-bench: how long `dataconnect generate` takes, in process and as a command.
//
//   swift run -c release --package-path Packages/DataConnectCodegen codegen-bench <repo>/Backend/movies [dataconnect]
//
// 1. Backend/movies: load and validate the backend, translate and render its package, write the files to a
//    scratch folder (the in-process cost of one `dataconnect generate`), median of 25 runs.
// 2. A synthetic backend of 40 tables and one connector with 500 operations (queries with nested relations,
//    filters and variables, and every kind of mutation), generated the same way.
// 3. With the path of a release `dataconnect` binary: the whole command as a process on Backend/movies.

import DataConnectCodegen
import DataConnectSchema
import Foundation

func median(_ runs: Int, warmup: Int = 2, _ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<warmup { try body() }
    var samples: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let elapsed = try clock.measure { try body() }
        samples.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
    }
    samples.sort()
    return samples[samples.count / 2]
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

/// Compiles, plans and writes every package of `backend` into `scratch`; returns the bytes generated.
@discardableResult
func generate(backend: String, into scratch: String) throws -> Int {
    let (service, diagnostics) = ServiceCompiler.compile(backendDirectory: backend)
    guard let service, !diagnostics.contains(where: { $0.severity == .error }) else {
        throw BenchmarkFailure(description: diagnostics.map(\.description).joined(separator: "\n"))
    }
    let (plans, failures) = PackagePlanner.plan(service: service)
    guard failures.isEmpty else { throw BenchmarkFailure(description: "\(failures)") }
    var bytes = 0
    for var plan in plans {
        plan.directory = scratch + "/" + (plan.directory as NSString).lastPathComponent
        _ = try plan.write()
        bytes += plan.files.reduce(0) { $0 + $1.contents.utf8.count }
    }
    return bytes
}

/// Writes a backend with `tables` tables and a connector with `operations` operations.
func writeSyntheticBackend(at directory: String, tables: Int, operations: Int) throws {
    let fileManager = FileManager.default
    try fileManager.createDirectory(atPath: directory + "/schema", withIntermediateDirectories: true)
    try fileManager.createDirectory(atPath: directory + "/connector", withIntermediateDirectories: true)
    try """
    specVersion: "v1"
    serviceId: "synthetic"
    location: "us-central1"
    schema:
      source: "./schema"
      datasource:
        postgresql:
          database: "synthetic"
    connectorDirs: ["./connector"]
    """.write(toFile: directory + "/dataconnect.yaml", atomically: true, encoding: .utf8)
    try """
    connectorId: "synthetic"
    generate:
      swiftSdk:
        outputDir: "../out"
        package: "SyntheticSDK"
        clientCache:
          maxAge: 1m
    """.write(toFile: directory + "/connector/connector.yaml", atomically: true, encoding: .utf8)
    var schema = "enum Level { LOW MEDIUM HIGH }\n"
    for table in 0..<tables {
        let parent = table > 0 ? "  parent: Entity\(table - 1)\n" : ""
        schema += """
            # Entity number \(table).
            type Entity\(table) @table {
              name: String!
              count: Int!
              score: Float
              active: Boolean!
              level: Level
              createdAt: Timestamp!
              day: Date
              tags: [String!]
              payload: Any
            \(parent)}

            """
    }
    try schema.write(toFile: directory + "/schema/schema.gql", atomically: true, encoding: .utf8)
    var connector = ""
    for index in 0..<operations {
        let table = index % tables
        let field = "entity\(table)"
        switch index % 5 {
        case 0:
            connector += """
                # Lists entities \(table) by name, with their parent.
                query list\(index)($name: String, $limit: Int = 20) @auth(level: PUBLIC) {
                  \(field)s(where: {name: {eq: $name}}, orderBy: [{count: DESC}], limit: $limit) {
                    id name count score level tags
                    \(table > 0 ? "parent { id name createdAt }" : "")
                  }
                }

                """
        case 1:
            connector += """
                query get\(index)($id: UUID!) @auth(level: PUBLIC) {
                  item: \(field)(id: $id) { id name active day payload }
                }

                """
        case 2:
            connector += """
                mutation insert\(index)($name: String!, $count: Int!, $level: Level) @auth(level: USER) {
                  \(field)_insert(data: {name: $name, count: $count, active: true, level: $level, createdAt_expr: "request.time"})
                }

                """
        case 3:
            connector += """
                mutation update\(index)($id: UUID!, $score: Float) @auth(level: USER) {
                  \(field)_update(id: $id, data: {score: $score, count_update: {inc: 1}})
                }

                """
        default:
            connector += """
                mutation delete\(index)($minCount: Int!) @auth(level: USER) {
                  \(field)_deleteMany(where: {count: {lt: $minCount}})
                }

                """
        }
    }
    try connector.write(toFile: directory + "/connector/operations.gql", atomically: true, encoding: .utf8)
}

func runProcess(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchmarkFailure(description: "\(executable) \(arguments) exited \(process.terminationStatus)")
    }
}

/// Starts `dataconnect generate --watch`, then saves a new operation `saves` times and returns, for each save,
/// the milliseconds until the regenerated operations file contains it.
func watchLatencies(executable: String, backend: String, saves: Int) throws -> [Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["generate", "--watch", "--backend", backend]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    defer {
        process.interrupt()
        process.waitUntilExit()
    }
    // Wait for the watcher's first line ("… written …" then "watching …").
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains("watching") {
        let chunk = errors.fileHandleForReading.availableData
        guard !chunk.isEmpty else { throw BenchmarkFailure(description: "the watcher exited") }
        seen += chunk
    }
    let queries = backend + "/connector/queries.gql"
    let operations = backend + "/out/FirebaseDataConnectGenerated/Sources/MoviesOperations.swift"
    let original = try String(contentsOfFile: queries, encoding: .utf8)
    defer { try? original.write(toFile: queries, atomically: false, encoding: .utf8) }
    var latencies: [Double] = []
    let clock = ContinuousClock()
    for save in 0..<saves {
        let marker = "BenchWatch\(save)"
        let start = clock.now
        try (original + "\nquery benchWatch\(save) @auth(level: PUBLIC) { movies { id } }\n")
            .write(toFile: queries, atomically: false, encoding: .utf8)
        while !((try? String(contentsOfFile: operations, encoding: .utf8))?.contains(marker) ?? false) {
            guard clock.now - start < .seconds(10) else { throw BenchmarkFailure(description: "no regeneration") }
            usleep(1_000)
        }
        let elapsed = clock.now - start
        latencies.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
        Thread.sleep(forTimeInterval: 0.3)
    }
    return latencies
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: codegen-bench <path to Backend/movies> [path to a release dataconnect]")
    exit(2)
}
let movies = arguments[1]
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-bench-\(getpid())").path
defer { try? FileManager.default.removeItem(atPath: scratch) }

do {
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    print("| benchmark | result | target | ratio to target |")
    print("|---|---|---|---|")

    let moviesBytes = try generate(backend: movies, into: scratch + "/movies")
    let moviesTime = try median(25) { try generate(backend: movies, into: scratch + "/movies") }
    print(
        String(
            format:
                "| generate Backend/movies in process: validate 35 operations, render and write %d KB | %.2f ms | < 150 ms | %.0fx under |",
            moviesBytes / 1024, moviesTime, 150 / moviesTime))

    let synthetic = scratch + "/synthetic"
    try writeSyntheticBackend(at: synthetic, tables: 40, operations: 500)
    let syntheticBytes = try generate(backend: synthetic, into: scratch + "/synthetic-out")
    let syntheticTime = try median(7, warmup: 1) { try generate(backend: synthetic, into: scratch + "/synthetic-out") }
    print(
        String(
            format:
                "| generate a synthetic connector: 40 tables, 500 operations, %d KB of Swift | %.1f ms | < 3 s | %.0fx under |",
            syntheticBytes / 1024, syntheticTime, 3000 / syntheticTime))

    if arguments.count >= 3 {
        let copy = scratch + "/movies-copy"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for item in ["dataconnect.yaml", "schema", "connector"] {
            try FileManager.default.copyItem(atPath: movies + "/" + item, toPath: copy + "/" + item)
        }
        let manifest = copy + "/connector/connector.yaml"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
            .replacingOccurrences(of: "../../../Apps", with: "../out")
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let command = try median(15) { try runProcess(arguments[2], ["generate", "--backend", copy]) }
        print(
            String(
                format:
                    "| `dataconnect generate --backend Backend/movies` as a process (start, generate, exit) | %.1f ms | < 150 ms | %.0fx under |",
                command, 150 / command))
        let watch = try watchLatencies(executable: arguments[2], backend: copy, saves: 10).sorted()
        let middle = watch[watch.count / 2]
        print(
            String(
                format:
                    "| `generate --watch`: saving a .gql to the regenerated file, median of %d saves (max %.0f ms) | %.0f ms | < 300 ms | %.1fx under |",
                watch.count, watch.last ?? 0, middle, 300 / middle))
    }
} catch {
    FileHandle.standardError.write(Data("codegen-bench: \(error)\n".utf8))
    exit(1)
}
