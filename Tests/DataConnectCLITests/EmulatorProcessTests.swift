import DataConnectTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `dataconnect emulator` run as a process: startup, signals, persistence, crash safety, reload,
/// export and import, and `dataconnect execute`.
@Suite(.serialized) struct EmulatorProcessTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func servesAndStopsCleanlyOnSignal(_ signal: Int32) async throws {
        // given
        let emulator = try await EmulatorProcess(["--backend", RepositoryPaths.movies, "--no-watch"])
        // when
        let (status, body) = try await emulator.execute("listMovies")
        let exit = await emulator.stop(signal: signal)
        // then
        #expect(status == 200)
        #expect((body["data"] as? [String: Any])?["movies"] as? [Any] != nil)
        #expect(exit == 0)
        #expect(emulator.errors.contains("stopped"))
    }

    @Test func startsWithNoBackendAndServesTheConfiguredOne() async throws {
        // given: an emulator waiting for a service, as SDK test suites start it
        let emulator = try await EmulatorProcess(["--no-backend", "--no-watch"])
        let (early, _) = try await emulator.execute("listMovies")
        #expect(early == 400)
        // when: the suite configures it (first JSON value read, the stray byte after it ignored)
        let body = #"{"service_id": "movies", "config_directory": "\#(RepositoryPaths.movies)", "use_dummy": false}"#
        let (status, answer) = try await emulator.send("POST", "/emulator/configure", body: Array((body + "}").utf8))
        // then
        #expect(status == 200, "\(String(decoding: answer, as: UTF8.self))")
        let (served, result) = try await emulator.execute("listMovies")
        #expect(served == 200)
        #expect((result["data"] as? [String: Any])?["movies"] as? [Any] != nil)
        #expect(await emulator.stop() == 0)
        #expect(emulator.errors.contains("serving service \"movies\""))
    }

    @Test func servesOnTheNumberOfThreadsItIsGiven() async throws {
        // given an emulator told to run requests on one thread
        let emulator = try await EmulatorProcess(["--backend", RepositoryPaths.movies, "--no-watch", "--threads", "1"])
        // when
        let (status, _) = try await emulator.execute("listMovies")
        let exit = await emulator.stop()
        // then it serves, and its log says how many threads run requests
        #expect(status == 200)
        #expect(emulator.errors.contains("request threads: 1"))
        #expect(exit == 0)
    }

    @Test func servesWithTheEmbeddingsProviderItIsGiven() async throws {
        // given an emulator told to use a local embeddings server, one model mapped
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--no-watch", "--embeddings", "http://127.0.0.1:9/v1/embeddings",
            "--embeddings-model", "textembedding-gecko@003=nomic-embed-text",
        ])
        // when
        let (status, body) = try await emulator.send("GET", "/emulator/info")
        let exit = await emulator.stop()
        // then /emulator/info and the log name it
        #expect(status == 200)
        let info = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        let embeddings = info?["embeddings"] as? [String: Any]
        #expect(embeddings?["provider"] as? String == "http")
        #expect(emulator.errors.contains("embeddings: http://127.0.0.1:9/v1/embeddings (1 model mapped)"))
        #expect(exit == 0)
    }

    @Test func refusesABrokenBackendWithDiagnostics() async throws {
        // given
        let backend = try RepositoryPaths.copyOfMovies()
        defer { backend.remove() }
        try "type Movie @table { title: Strin }".write(
            to: backend.url.appendingPathComponent("schema/schema.gql"), atomically: true, encoding: .utf8)
        // when
        let result = try await ChildProcess.dataconnect(["emulator", "--backend", backend.path, "--port", "0"])
        // then
        #expect(result.exitStatus == 1)
        #expect(result.standardError.contains("schema/schema.gql:1:28: error: unknown type \"Strin\""))
    }

    @Test func keepsDataAcrossRestartsWithDataDir() async throws {
        // given
        let data = try TemporaryDirectory(prefix: "dataconnect-data")
        defer { data.remove() }
        let first = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--data-dir", data.path, "--no-watch",
        ])
        let (status, _) = try await first.execute(
            "createMovie", mutation: true,
            variables: ["title": "Persisted", "releaseYear": 2001, "genre": "Drama", "rating": 3])
        #expect(status == 200)
        #expect(await first.stop() == 0)
        // when
        let second = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--data-dir", data.path, "--no-watch",
        ])
        defer { Task { await second.stop() } }
        let (_, body) = try await second.execute("listMoviesByGenre", variables: ["genre": "Drama"])
        // then
        let movies = (body["data"] as? [String: Any])?["movies"] as? [[String: Any]] ?? []
        #expect(movies.contains { $0["title"] as? String == "Persisted" })
    }

    @Test func keepsEveryAnsweredMutationAfterKill9() async throws {
        // given an emulator with a data directory taking a stream of inserts
        let data = try TemporaryDirectory(prefix: "dataconnect-data")
        defer { data.remove() }
        let first = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--data-dir", data.path, "--no-watch",
        ])
        let (answers, answered) = AsyncStream<String>.makeStream()
        let stream = Task {
            for index in 0..<100_000 {
                let title = "crash-\(index)"
                guard
                    let (status, body) = try? await first.execute(
                        "createMovie", mutation: true,
                        variables: ["title": title, "releaseYear": 2000, "genre": "Crash", "rating": 1]),
                    status == 200, (body["errors"] as? [Any])?.isEmpty ?? true
                else { break }
                answered.yield(title)
            }
            answered.finish()
        }
        // when the process is killed in the middle of the stream: after its 200th answer, while the next insert
        // is on its way
        var acknowledged: [String] = []
        for await title in answers {
            acknowledged.append(title)
            if acknowledged.count == 200 { first.child.send(SIGKILL) }
        }
        await stream.value
        _ = await first.stop(signal: SIGKILL)
        // then every answered insert is there after a restart
        let second = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--data-dir", data.path, "--no-watch",
        ])
        defer { Task { await second.stop() } }
        let (_, body) = try await second.admin(
            #"query { movies(where: {genre: {eq: "Crash"}}, limit: 1000000) { title } }"#)
        let stored = Set(
            ((body["data"] as? [String: Any])?["movies"] as? [[String: Any]] ?? []).compactMap {
                $0["title"] as? String
            })
        #expect(!acknowledged.isEmpty)
        #expect(
            Set(acknowledged).isSubset(of: stored), "lost: \(Set(acknowledged).subtracting(stored).sorted().prefix(5))")
    }

    @Test func reloadsChangedConnectorsAndKeepsTheLastGoodVersion() async throws {
        // given
        let backend = try RepositoryPaths.copyOfMovies()
        defer { backend.remove() }
        let emulator = try await EmulatorProcess(["--backend", backend.path])
        defer { Task { await emulator.stop() } }
        let extra = backend.url.appendingPathComponent("connector/extra.gql")
        // when a new operation is saved
        try "query countMovies @auth(level: PUBLIC) { movies { _count } }".write(
            to: extra, atomically: true, encoding: .utf8)
        let reloaded = await emulator.child.waitForError(containing: "reloaded: serving the new schema")
        // then it is served, and a broken save keeps it served
        #expect(reloaded, "hang guard: no reload after \(HangGuard.process): \(emulator.errors)")
        #expect(try await emulator.execute("countMovies").0 == 200)
        try "query countMovies @auth(level: PUBLIC) { movies { _count ".write(
            to: extra, atomically: true, encoding: .utf8)
        let reported = await emulator.child.waitForError(containing: "still serving the last good version")
        #expect(reported, "hang guard: the broken save was not reported: \(emulator.errors)")
        #expect(emulator.errors.contains("connector/extra.gql:1:"))
        let (status, _) = try await emulator.execute("countMovies")
        #expect(status == 200)
    }

    @Test func exportsOnExitAndImports() async throws {
        // given
        let export = try TemporaryDirectory(prefix: "dataconnect-export")
        defer { export.remove() }
        let first = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--export-on-exit", export.path, "--no-watch",
        ])
        _ = try await first.execute(
            "createMovie", mutation: true,
            variables: ["title": "Exported", "releaseYear": 1999, "genre": "Export", "rating": 2])
        #expect(await first.stop() == 0)
        // then
        #expect(FileManager.default.fileExists(atPath: export.path + "/dataconnect_export/sqlite.db"))
        let metadata =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: export.url.appendingPathComponent("firebase-export-metadata.json")))
            as? [String: Any]
        #expect((metadata?["dataconnect"] as? [String: Any])?["path"] as? String == "dataconnect_export")
        // when
        let second = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--import", export.path, "--no-watch",
        ])
        defer { Task { await second.stop() } }
        let (_, body) = try await second.execute("listMoviesByGenre", variables: ["genre": "Export"])
        let movies = (body["data"] as? [String: Any])?["movies"] as? [[String: Any]] ?? []
        #expect(movies.map { $0["title"] as? String } == ["Exported"])
    }

    @Test func seedsAndExecutesAdminFiles() async throws {
        // given
        let emulator = try await EmulatorProcess(
            ["--backend", RepositoryPaths.movies, "--seed", RepositoryPaths.movies + "/seed_data.gql", "--no-watch"])
        defer { Task { await emulator.stop() } }
        let scratch = try TemporaryDirectory(prefix: "dataconnect-execute")
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("count.gql")
        try "query { movies(limit: 1000) { _count } }".write(to: file, atomically: true, encoding: .utf8)
        let host = String(emulator.url.dropFirst("http://".count))
        // when
        let result = try await ChildProcess.dataconnect(["execute", file.path, "--emulator", host])
        // then
        #expect(result.exitStatus == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(#""_count":79"#))
    }
}
