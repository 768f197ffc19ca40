import DataConnectTesting
import Foundation

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
