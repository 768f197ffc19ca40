import DataConnectTesting
import Foundation
import Synchronization

/// Paths of the repository, found from this file's location.
enum RepositoryPaths {
    /// The repository root (three levels above `Tests/GeneratedConsumer/Tests/GeneratedConsumerTests`).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.path
    }()
    /// `Backend/movies`.
    static let movies = root + "/Backend/movies"
    /// `Backend/movies/seed_data.gql`.
    static let moviesSeed = movies + "/seed_data.gql"
    /// `Tests/Backends/library`.
    static let library = root + "/Tests/Backends/library"
    /// `Tests/Backends/library/seed_data.gql`.
    static let librarySeed = library + "/seed_data.gql"
    /// `Tests/Backends/search`.
    static let search = root + "/Tests/Backends/search"
    /// `Tests/Backends/search/seed_data.gql`.
    static let searchSeed = search + "/seed_data.gql"
    /// `Tests/Backends/ledger`, which has no seed.
    static let ledger = root + "/Tests/Backends/ledger"
}

/// One emulator per database, each started when a test on that database first asks for it and shared by the
/// tests that run there.
final class SharedEmulators: Sendable {
    private let start: @Sendable (TestDatabase) throws -> TestEmulator
    private let started = Mutex<[TestDatabase: Result<TestEmulator, any Error>]>([:])

    /// - Parameter start: Starts the emulator on a database.
    init(_ start: @escaping @Sendable (TestDatabase) throws -> TestEmulator) {
        self.start = start
    }

    /// The emulator of the running test's database (its `.onBothDatabases` trait).
    func get() throws -> TestEmulator {
        let database = try TestDatabase.required()
        return try started.withLock { started in
            if let result = started[database] { return result }
            let result = Result { try start(database) }
            started[database] = result
            return result
        }.get()
    }
}

/// Runs an executable built next to the test runner and collects its output.
enum BuiltExecutable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The executable `name` from the build directory that holds the test runner.
    static func url(_ name: String) throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").standardizedFileURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw Failure(description: "\(name) is not built next to the test runner")
    }

    /// Runs `name` with extra environment variables; returns its exit status and standard output.
    static func run(_ name: String, environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = try url(name)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return (process.terminationStatus, text)
    }
}
