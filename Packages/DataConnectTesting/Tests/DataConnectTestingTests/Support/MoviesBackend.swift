import DataConnectTesting
import DataConnectWire
import Foundation

/// Emulators serving `Backend/movies` with its seed, the backend `Apps/FirebaseDataConnectGenerated` is generated from.
enum MoviesBackend {
    /// A new emulator with its own seeded database.
    ///
    /// - Parameter mode: In-process (the default) or on a free port.
    static func emulator(_ mode: TestEmulator.Mode = .inProcess) throws -> TestEmulator {
        let backend = try RepositoryPaths.moviesBackend()
        return try TestEmulator(backend: backend, seedFile: backend + "/seed_data.gql", mode: mode)
    }

    /// A genre no seeded movie has, so a test's list holds only what it created.
    static func uniqueGenre(_ prefix: String = "Test") -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8))"
    }

    /// How many movies titled `title` the emulator holds, asked with admin GraphQL (no client, no cache).
    static func count(titled title: String, in emulator: TestEmulator) -> Int {
        let answer = emulator.executeAdmin(
            "query($title: String!) { movies(where: {title: {eq: $title}}) { id } }",
            variables: ["title": .string(title)])
        guard case .array(let rows)? = answer["data"]?["movies"] else { return -1 }
        return rows.count
    }
}
