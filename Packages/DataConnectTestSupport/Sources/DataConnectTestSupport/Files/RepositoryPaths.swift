import Foundation

/// The repository's root and the sample backend, found from this file's path.
public enum RepositoryPaths {
    /// The folder holding `Backend/movies/dataconnect.yaml`.
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(
                atPath: url.appendingPathComponent("Backend/movies/dataconnect.yaml").path)
            {
                return url
            }
        }
        return url
    }()

    /// `Backend/movies`: the sample backend.
    public static var movies: String { root.appendingPathComponent("Backend/movies").path }

    /// `Backend/movies/seed_data.gql`: the sample backend's seed.
    public static var moviesSeed: String { movies + "/seed_data.gql" }

    /// A copy of Backend/movies that a test may change.
    ///
    /// - Throws: File-system errors.
    public static func copyOfMovies() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "dataconnect-movies")
        for item in ["dataconnect.yaml", "schema", "connector", "seed_data.gql"] {
            try FileManager.default.copyItem(
                atPath: movies + "/" + item, toPath: directory.url.appendingPathComponent(item).path)
        }
        return directory
    }
}
