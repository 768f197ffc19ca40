import DataConnectTestSupport
import Foundation
import Testing

/// A watched backend saved with an error `dataconnect validate` would refuse: the running emulator keeps serving
/// the last good version and says why on one line naming the file, line and column.
@Suite struct ReloadRefusalTests {
    @Test func aSaveWithABadCELExpressionKeepsTheLastGoodVersionAndNamesTheError() async throws {
        // given an emulator watching a copy of the movies backend
        let backend = try RepositoryPaths.copyOfMovies()
        defer { backend.remove() }
        let emulator = try await EmulatorProcess(["--backend", backend.path])
        defer { Task { await emulator.stop() } }
        let queries = backend.url.appendingPathComponent("connector/queries.gql")
        let original = try String(contentsOf: queries, encoding: .utf8)
        #expect(try await emulator.execute("listMovies").0 == 200)

        // when listMovies is saved with an @auth(expr:) that does not parse (the second "=")
        let broken = original.replacingOccurrences(
            of: "query listMovies @auth(level: PUBLIC) {",
            with: #"query listMovies @auth(expr: "auth.uid == = 'x'") {"#)
        #expect(broken != original, "the movies connector no longer declares listMovies as this test expects")
        try broken.write(to: queries, atomically: true, encoding: .utf8)
        let refused = await emulator.child.waitForError(containing: "still serving the last good version")

        // then the log names the place in one line, and the old listMovies still answers
        #expect(refused, "hang guard: the refused reload was not reported: \(emulator.errors)")
        let line = emulator.errors.split(separator: "\n").first { $0.contains("still serving the last good version") }
        let place = queries.path + ":4:43: error: invalid CEL in @auth(expr:): unexpected \"=\""
        #expect(line?.hasPrefix("reload refused: " + place) == true, "\(emulator.errors)")
        let (status, body) = try await emulator.execute("listMovies")
        #expect(status == 200, "\(body)")
    }
}
