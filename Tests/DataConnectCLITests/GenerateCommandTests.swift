import DataConnectTestSupport
import Foundation
import Testing

/// `dataconnect generate` run as a process on a copy of Backend/movies whose SDK goes to a scratch folder.
@Suite struct GenerateCommandTests {
    /// A copy of Backend/movies whose connector writes `FirebaseDataConnectGenerated` into `<copy>/out`.
    static func moviesCopy() throws -> TemporaryDirectory {
        let copy = try RepositoryPaths.copyOfMovies()
        let manifest = copy.url.appendingPathComponent("connector/connector.yaml")
        let core = RepositoryPaths.root.appendingPathComponent("Packages/DataConnect").path
        try """
        connectorId: "movies"
        generate:
          swiftSdk:
            outputDir: "../out"
            package: "FirebaseDataConnectGenerated"
            clientCache:
              maxAge: 30s
              storage: memory
            coreSdkPackageLocation: "\(core)"
        """.write(to: manifest, atomically: true, encoding: .utf8)
        return copy
    }

    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func writesThePackageThenLeavesUnchangedFilesAlone() async throws {
        // given
        let copy = try Self.moviesCopy()
        defer { copy.remove() }
        let package = copy.path + "/out/FirebaseDataConnectGenerated"

        // when
        let first = try await ChildProcess.dataconnect(["generate", "--backend", copy.path])
        let modified =
            try FileManager.default.attributesOfItem(atPath: package + "/Sources/MoviesOperations.swift")[
                .modificationDate] as? Date
        let second = try await ChildProcess.dataconnect(["generate", "--backend", copy.path])

        // then
        #expect(first.exitStatus == 0, "\(first.standardError)")
        #expect(first.standardError.contains("out/FirebaseDataConnectGenerated: 5 written, 0 unchanged"))
        for file in ["Package.swift", "README.md", "Sources/MoviesClient.swift", "Sources/MoviesKeys.swift"] {
            #expect(FileManager.default.fileExists(atPath: package + "/" + file), "\(file)")
        }
        let manifest = try #require(Self.contents(package + "/Package.swift"))
        let pathLine = try #require(manifest.split(separator: "\n").first { $0.contains(".package(path: ") })
        let relative = try #require(pathLine.split(separator: "\"").dropFirst().first.map(String.init))
        #expect(!relative.hasPrefix("/"), "the core SDK path is relative to the generated package")
        let resolved = URL(fileURLWithPath: package + "/" + relative).standardizedFileURL.resolvingSymlinksInPath().path
        let core = RepositoryPaths.root.appendingPathComponent("Packages/DataConnect").standardizedFileURL
            .resolvingSymlinksInPath().path
        #expect(resolved == core, "\(relative) from \(package)")
        #expect(second.exitStatus == 0)
        #expect(second.standardError.contains("0 written, 5 unchanged"))
        let after =
            try FileManager.default.attributesOfItem(atPath: package + "/Sources/MoviesOperations.swift")[
                .modificationDate] as? Date
        #expect(after == modified, "an unchanged file is not rewritten")
    }

    @Test func checkReportsADiffAndWritesNothing() async throws {
        // given: a generated package, then a hand edit and a stale file
        let copy = try Self.moviesCopy()
        defer { copy.remove() }
        let package = copy.path + "/out/FirebaseDataConnectGenerated"
        _ = try await ChildProcess.dataconnect(["generate", "--backend", copy.path])
        let upToDate = try await ChildProcess.dataconnect(["generate", "--backend", copy.path, "--check"])
        let keys = package + "/Sources/MoviesKeys.swift"
        let original = try #require(Self.contents(keys))
        try original.replacingOccurrences(of: "public struct MovieKey {", with: "public struct MovieKey { // edited")
            .write(toFile: keys, atomically: true, encoding: .utf8)
        try "// old".write(toFile: package + "/Sources/OldClient.swift", atomically: true, encoding: .utf8)

        // when
        let result = try await ChildProcess.dataconnect(["generate", "--backend", copy.path, "--check"])

        // then
        #expect(upToDate.exitStatus == 0)
        #expect(upToDate.standardError.contains("up to date"))
        #expect(result.exitStatus == 1)
        #expect(
            result.standardError.contains("Sources/MoviesKeys.swift: error: out of date; run `dataconnect generate`"))
        #expect(result.standardError.contains("-public struct MovieKey { // edited\n+public struct MovieKey {\n"))
        #expect(result.standardError.contains("Sources/OldClient.swift: error: out of date"))
        #expect(Self.contents(keys) != original, "--check writes nothing")
        #expect(FileManager.default.fileExists(atPath: package + "/Sources/OldClient.swift"))

        // and a real generation repairs both
        let repaired = try await ChildProcess.dataconnect(["generate", "--backend", copy.path])
        #expect(repaired.standardError.contains("1 written, 4 unchanged, 1 stale removed"))
        #expect(Self.contents(keys) == original)
    }

    @Test func aBrokenOperationIsReportedAndNothingIsWritten() async throws {
        // given
        let copy = try Self.moviesCopy()
        defer { copy.remove() }
        let queries = copy.path + "/connector/queries.gql"
        let text = try #require(Self.contents(queries))
        try text.replacingOccurrences(
            of: "query listMovies @auth(level: PUBLIC) {\n  movies {\n    id\n    title",
            with: "query listMovies @auth(level: PUBLIC) {\n  movies {\n    id\n    titel"
        ).write(toFile: queries, atomically: true, encoding: .utf8)

        // when
        let result = try await ChildProcess.dataconnect(["generate", "--backend", copy.path])

        // then
        #expect(result.exitStatus == 1)
        #expect(result.errorLines.first?.hasPrefix(copy.path + "/connector/queries.gql:7:5: error: ") == true)
        #expect(result.standardError.contains("nothing generated"))
        #expect(!FileManager.default.fileExists(atPath: copy.path + "/out"))
    }

    @Test func watchRegeneratesAfterASaveReportsBrokenFilesAndKeepsWatching() async throws {
        // given: a watching generator that has written the package
        let copy = try Self.moviesCopy()
        defer { copy.remove() }
        let operations = copy.path + "/out/FirebaseDataConnectGenerated/Sources/MoviesOperations.swift"
        let watcher = try ChildProcess(
            BuiltExecutable.require("dataconnect"), ["generate", "--watch", "--backend", copy.path])
        try #require(await watcher.waitForError(containing: "watching "), "\(watcher.standardError)")
        let queries = copy.path + "/connector/queries.gql"
        let original = try #require(Self.contents(queries))

        // when: a new operation is saved
        try (original + "\nquery countTheMovies @auth(level: PUBLIC) { movies { id } }\n")
            .write(toFile: queries, atomically: false, encoding: .utf8)
        // (each generation ends with a summary line; a save may take more than one when the file is caught half
        // written, so the condition reads the package again after each line)
        let regenerated = await watcher.wait { _ in
            Self.contents(operations)?.contains("public class CountTheMoviesQuery") ?? false
        }

        // then: regenerated (how fast is measured by `make bench-codegen`, not here: CI machines are busy)
        #expect(regenerated != nil, "hang guard: no regeneration after \(HangGuard.process)")

        // when: a broken file is saved
        let failures = watcher.standardError.components(separatedBy: "nothing generated").count
        try (original + "\nquery broken { movies { nope } }\n").write(
            toFile: queries, atomically: false, encoding: .utf8)
        let reported = await watcher.wait {
            $0.standardError.components(separatedBy: "nothing generated").count > failures
        }
        #expect(reported != nil, "\(watcher.standardError)")

        // then: the diagnostic is printed, the last good package stays, and the watcher lives on
        #expect(watcher.isRunning)
        #expect(Self.contents(operations)?.contains("CountTheMoviesQuery") == true)

        // when: fixed again
        try original.write(toFile: queries, atomically: false, encoding: .utf8)
        let fixed = await watcher.wait { _ in Self.contents(operations)?.contains("CountTheMoviesQuery") == false }
        #expect(fixed != nil, "hang guard: not regenerated after the fix within \(HangGuard.process)")

        // and Ctrl-C stops it cleanly
        let result = await watcher.stop(signal: SIGINT)
        #expect(result.exitStatus == 0)
        #expect(result.standardError.hasSuffix("stopped\n"))
    }
}
