import DataConnectTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Realtime across processes: a `dataconnect emulator`, a subscriber (a `movies watch` process, or this test process
/// on the WebSocket stream), and mutations from this test process.
@Suite struct RealtimeProcessTests {
    /// Starts the built `movies` with a private configuration folder and no colours.
    static func movies(_ arguments: [String], configuration: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess(
            BuiltExecutable.require("movies"), arguments,
            environment: ChildProcess.environment(adding: ["MOVIES_CONFIG_DIR": configuration.path, "NO_COLOR": "1"]))
    }

    static func createMovie(_ emulator: EmulatorProcess, title: String, genre: String) async throws -> Int {
        try await emulator.execute(
            "createMovie", mutation: true,
            variables: ["title": title, "releaseYear": 2042, "genre": genre, "rating": 3]
        ).0
    }

    /// Each insert reaches the subscriber process. The test checks only that the pushes arrive, since it shares a
    /// busy machine with app builds; the emulator's mutation-to-event latency is measured by `make bench-realtime`.
    @Test func aSubscriberProcessSeesAnotherProcessesMutations() async throws {
        // given: an emulator process and a subscriber process with its first (empty) list
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--seed", RepositoryPaths.movies + "/seed_data.gql", "--no-watch",
        ])
        let address = String(emulator.url.dropFirst("http://".count))
        let configuration = try TemporaryDirectory(prefix: "movies-watch")
        defer { configuration.remove() }
        let watch = try Self.movies(
            ["watch", "--genre", "Realtime", "--json", "--emulator", address], configuration: configuration)
        #expect(
            await watch.waitForOutput(containing: "{\"movies\":[]}"),
            "hang guard: no first list; \(watch.standardOutput)")

        // when: this process inserts a movie of that genre, three times
        for round in 1...3 {
            let title = "Live Wire \(round)"
            let status = try await Self.createMovie(emulator, title: title, genre: "Realtime")

            // then: each one is pushed to the subscriber
            #expect(status == 200)
            #expect(
                await watch.waitForOutput(containing: title),
                "hang guard: \(title) never shown; \(watch.standardOutput)")
        }
        #expect(await watch.stop(signal: SIGINT).exitStatus == 0)
        await emulator.stop()
    }

    /// The stream itself, without the SDK: a WebSocket from this process sees the mutations another client sends
    /// to the emulator process over REST.
    @Test func aStreamSubscriberSeesMutationsSentToTheEmulatorProcess() async throws {
        // given: an emulator process and a subscription on its stream, with its first (empty) result
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--seed", RepositoryPaths.movies + "/seed_data.gql", "--no-watch",
        ])
        let port = try #require(UInt16(emulator.url.split(separator: ":").last ?? ""))
        let stream = try StreamClient(port: port, service: "movies")
        defer { stream.close() }
        try stream.send([
            "requestId": "1", "name": "projects/p/locations/l/services/movies/connectors/movies",
            "subscribe": ["operationName": "listMoviesByGenre", "variables": ["genre": "Streamed"]],
        ])
        let first = try #require(stream.nextResult(), "hang guard: no first result")
        #expect((first["data"] as? [String: Any])?["movies"] as? [Any] != nil)
        #expect(((first["data"] as? [String: Any])?["movies"] as? [Any])?.isEmpty == true)

        // when: a movie of that genre is inserted over REST
        let status = try await Self.createMovie(emulator, title: "On The Wire", genre: "Streamed")

        // then: it is pushed under the subscription's request id
        #expect(status == 200)
        let pushed = try #require(stream.nextResult(), "hang guard: no pushed result")
        #expect(pushed["requestId"] as? String == "1")
        #expect(pushed["cancelled"] as? Bool == false)
        let titles = ((pushed["data"] as? [String: Any])?["movies"] as? [[String: Any]])?.compactMap {
            $0["title"] as? String
        }
        #expect(titles == ["On The Wire"])
        await emulator.stop()
    }

    @Test func theSubscriberResumesAfterTheEmulatorIsKilledAndRestarted() async throws {
        // given: an emulator with a data folder, and a subscriber
        let data = try TemporaryDirectory(prefix: "realtime-data")
        defer { data.remove() }
        let first = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--data-dir", data.path, "--no-watch",
        ])
        let address = String(first.url.dropFirst("http://".count))
        let port = String(address.split(separator: ":").last ?? "")
        let configuration = try TemporaryDirectory(prefix: "movies-watch")
        defer { configuration.remove() }
        let watch = try Self.movies(
            ["watch", "--genre", "Phoenix", "--emulator", address], configuration: configuration)
        #expect(
            await watch.waitForOutput(containing: "No movies."), "hang guard: no first list; \(watch.standardOutput)")
        _ = try await Self.createMovie(first, title: "Before The Fall", genre: "Phoenix")
        #expect(await watch.waitForOutput(containing: "Before The Fall"), "hang guard: \(watch.standardOutput)")

        // when: the emulator dies, comes back on the same port and data, and a movie is added
        await first.stop(signal: SIGKILL)
        let second = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--data-dir", data.path, "--no-watch", "--port", port,
        ])
        let status = try await Self.createMovie(second, title: "Rising Again", genre: "Phoenix")

        // then: the subscriber reconnected by itself (backoff starts at 1 s) and shows it
        #expect(status == 200)
        #expect(await watch.waitForOutput(containing: "Rising Again"), "hang guard: \(watch.standardOutput)")
        #expect(watch.isRunning)
        #expect(await watch.stop(signal: SIGINT).exitStatus == 0)
        await second.stop()
    }
}
