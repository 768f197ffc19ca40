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
