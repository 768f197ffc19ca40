import EmulatorTesting
import Foundation
import Testing

/// The backends the HTTP tests run: the movies sample and the lending library written for these tests.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `Backend/movies`: the showcase service, seeded from `seed_data.gql`.
    case movies
    /// `Tests/Backends/library`: a lending library, another domain, seeded from `seed_data.gql`.
    case library

    /// The folder holding `dataconnect.yaml`.
    var directory: String {
        switch self {
        case .movies: return Repository.root + "/Backend/movies"
        case .library: return Repository.root + "/Tests/Backends/library"
        }
    }

    /// The seed file run at start and after each reset.
    var seedFile: String { directory + "/seed_data.gql" }

    /// A fresh emulator on a free port, seeded.
    ///
    /// - Parameter database: The database to serve from; the running test's (its ``TestDatabaseTrait``) by
    ///   default, and an error naming the missing trait when it has none.
    func start(on database: TestDatabase? = nil) throws -> TestEmulator {
        try TestEmulator(backend: directory, seedFile: seedFile, database: database ?? TestDatabase.required())
    }

    var testDescription: String { rawValue }
}

/// Where the repository is checked out, found from this file rather than the working directory.
enum Repository {
    /// The first folder above this source file (symlinks resolved) that holds `Backend/movies/dataconnect.yaml`.
    static let root: String = {
        let manager = FileManager.default
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            if manager.fileExists(atPath: directory.appendingPathComponent("Backend/movies/dataconnect.yaml").path) {
                return directory.path
            }
            directory.deleteLastPathComponent()
        }
        fatalError("no Backend/movies/dataconnect.yaml above \(#filePath)")
    }()
}
