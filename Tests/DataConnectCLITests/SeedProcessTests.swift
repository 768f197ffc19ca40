import DataConnectTestSupport
import Foundation
import PostgreSQLTesting
import Testing

/// `dataconnect emulator --seed` run as a process on a persistent database, started twice: the seed runs once,
/// on the empty database; the second start logs why it skipped the seed, and serves the same data.
@Suite(.serialized) struct SeedProcessTests {
    static let seed = RepositoryPaths.movies + "/seed_data.gql"

    @Test func aDataDirectoryIsSeededOnceAndTheSecondStartSaysWhy() async throws {
        // given
        let data = try TemporaryDirectory(prefix: "dataconnect-seed")
        defer { data.remove() }
        let arguments = [
            "--backend", RepositoryPaths.movies, "--data-dir", data.path, "--seed", Self.seed, "--no-watch",
        ]

        // when
        let (firstLog, firstCounts) = try await Self.startAndCount(arguments)
        let (secondLog, secondCounts) = try await Self.startAndCount(arguments)

        // then
        #expect(firstLog.contains("seeded from \(Self.seed)"), "\(firstLog)")
        #expect(Self.skipLines(secondLog).count == 1, "\(secondLog)")
        #expect(
            Self.skipLines(secondLog).first?.hasSuffix("has rows; \(Self.seed) runs only on an empty database") == true)
        #expect(!secondLog.contains("seeded from"))
        #expect(firstCounts != nil)
        #expect(secondCounts == firstCounts)
    }

    @Test func aPostgreSQLDatabaseIsSeededOnceAndTheSecondStartSaysWhy() async throws {
        // given: a fresh database on the throwaway cluster
        let url = try PostgreSQLCluster.shared().createDatabase("seed_\(UInt32.random(in: 0...UInt32.max))")
        let arguments = ["--backend", RepositoryPaths.movies, "--postgres", url, "--seed", Self.seed, "--no-watch"]

        // when
        let (firstLog, firstCounts) = try await Self.startAndCount(arguments)
        let (secondLog, secondCounts) = try await Self.startAndCount(arguments)

        // then
        #expect(firstLog.contains("seeded from \(Self.seed)"), "\(firstLog)")
        #expect(Self.skipLines(secondLog).count == 1, "\(secondLog)")
        #expect(!secondLog.contains("seeded from"))
        #expect(firstCounts != nil)
        #expect(secondCounts == firstCounts)
    }

    // MARK: Helpers

    /// Starts the emulator, counts movies and actors, stops it; its log and the counts.
    static func startAndCount(_ arguments: [String]) async throws -> (log: String, counts: [Int]?) {
        let emulator = try await EmulatorProcess(arguments)
        let (status, body) = try await emulator.admin(
            "query { movies(limit: 10000) { id } actors(limit: 10000) { id } }")
        let exit = await emulator.stop()
        #expect(status == 200)
        #expect(exit == 0)
        let data = body["data"] as? [String: Any]
        let movies = (data?["movies"] as? [Any])?.count
        let actors = (data?["actors"] as? [Any])?.count
        guard let movies, let actors else { return (emulator.errors, nil) }
        return (emulator.errors, [movies, actors])
    }

    /// The log's `seed skipped:` lines.
    static func skipLines(_ log: String) -> [Substring] {
        log.split(separator: "\n").filter { $0.hasPrefix("seed skipped: table ") }
    }
}
