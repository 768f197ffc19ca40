import Foundation

/// Folders of the repository the tests use.
enum RepositoryPaths {
    /// Finds `Backend/movies` above this file, following the symlinks a development package may use.
    static func moviesBackend() throws -> String {
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Backend/movies")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("dataconnect.yaml").path) {
                return candidate.path
            }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }
}
