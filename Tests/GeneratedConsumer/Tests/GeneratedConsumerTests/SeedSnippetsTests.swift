import DataConnectTestSupport
import DataConnectTesting
import Foundation
import Testing

/// The documentation's snippets (`Sources/SeedSnippets`), compiled unchanged against the generated package
/// and run as an app process against a live emulator.
@Suite(.on(.sqlite))  // the documentation's snippets, as an app runs them against `dataconnect emulator`
struct SeedSnippetsTests {
    @Test func theGuidesSnippetsRunAgainstTheEmulator() async throws {
        // given: a seeded emulator on a free port, named by the variable a bare useEmulator() follows
        let emulator = try TestEmulator(backend: RepositoryPaths.movies, seedFile: RepositoryPaths.moviesSeed)
        defer { emulator.stop() }

        // when
        let result = try await ChildProcess.run(
            BuiltExecutable.require("SeedSnippets"), [],
            environment: ProcessInfo.processInfo.environment.merging(
                ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": "127.0.0.1:\(emulator.port)"]) { $1 })
        let output = result.standardOutput + result.standardError

        // then
        #expect(result.exitStatus == 0, "\(output)")
        let lines = result.outputLines
        #expect(!(lines + result.errorLines).contains { $0.hasPrefix("error:") }, "\(output)")
        let printedID = lines.first { $0.hasPrefix("Movie ID: ") }.map { String($0.dropFirst("Movie ID: ".count)) }
        #expect(printedID.map { UUID(uuidString: $0) != nil } == true, "\(output)")
        #expect(lines.contains("created \(printedID ?? "?")"))
        let sciFi = lines.first { $0.hasPrefix("Sci-Fi movies: ") }.flatMap { Int($0.dropFirst(15)) }
        let seeded = emulator.executeAdmin("query { movies(where: {genre: {eq: \"Sci-Fi\"}}) { id } }")
        #expect(sciFi == seeded["data"]?["movies"]?.arrayValue?.count)
        #expect(lines.contains("ref titles include Empire: true"))
        #expect(lines.contains("cacheOnly source: cache"))
        let aspects = lines.filter { ["academy", "widescreen", "anamorphic"].contains($0) }
        let movieCount = emulator.executeAdmin("query { movies { id } }")["data"]?["movies"]?.arrayValue?.count
        #expect(aspects.count == movieCount, "one line per movie from the exhaustive switch")
        #expect(lines.last == "done")
    }
}
