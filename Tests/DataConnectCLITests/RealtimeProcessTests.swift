import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Realtime across processes: a `dataconnect emulator`, a `movies watch` subscriber, and mutations from this
/// test process.
@Suite struct RealtimeProcessTests {
    /// A `movies` child process (built next to `dataconnect`) with its output in a temporary file.
    final class Movies: @unchecked Sendable {
        let process = Process()
        let scratch: TemporaryDirectory
        let outputURL: URL

        init(_ arguments: [String]) throws {
            guard let directory = DataConnectProcess.executable?.deletingLastPathComponent() else {
                throw DataConnectProcess.LaunchError(description: "no built dataconnect executable")
            }
            let executable = directory.appendingPathComponent("movies")
            guard FileManager.default.isExecutableFile(atPath: executable.path) else {
                throw DataConnectProcess.LaunchError(description: "no built movies executable in \(directory.path)")
            }
            scratch = try TemporaryDirectory(prefix: "movies-watch")
            outputURL = scratch.url.appendingPathComponent("stdout")
            try Data().write(to: outputURL)
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(
                ["MOVIES_CONFIG_DIR": scratch.path, "NO_COLOR": "1"]) { $1 }
            process.standardOutput = try FileHandle(forWritingTo: outputURL)
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            scratch.remove()
        }

        var output: String {
            String(decoding: FileManager.default.contents(atPath: outputURL.path) ?? Data(), as: UTF8.self)
        }

        /// Whether `text` appeared in the output before the hang guard passed.
        func waitFor(_ text: String) async throws -> Bool {
            try await HangGuard.wait { output.contains(text) }
        }

        /// Sends SIGINT and returns the exit status; `nil` when the process outlived the hang guard.
        func interrupt() async throws -> Int32? {
            kill(process.processIdentifier, SIGINT)
            guard try await HangGuard.wait(until: { !process.isRunning }) else { return nil }
            return process.terminationStatus
        }
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
            "--backend", Repository.movies, "--seed", Repository.movies + "/seed_data.gql", "--no-watch",
        ])
        let address = String(emulator.url.dropFirst("http://".count))
        let watch = try Movies(["watch", "--genre", "Realtime", "--json", "--emulator", address])
        #expect(try await watch.waitFor("{\"movies\":[]}"), "hang guard: no first list; \(watch.output)")

        // when: this process inserts a movie of that genre, three times
        for round in 1...3 {
            let title = "Live Wire \(round)"
            let status = try await Self.createMovie(emulator, title: title, genre: "Realtime")

            // then: each one is pushed to the subscriber
            #expect(status == 200)
            #expect(try await watch.waitFor(title), "hang guard: \(title) never shown; \(watch.output)")
        }
        #expect(try await watch.interrupt() == 0)
        try await emulator.stop()
    }

    @Test func theSubscriberResumesAfterTheEmulatorIsKilledAndRestarted() async throws {
        // given: an emulator with a data folder, and a subscriber
        let data = try TemporaryDirectory(prefix: "realtime-data")
        defer { data.remove() }
        let first = try await EmulatorProcess(["--backend", Repository.movies, "--data-dir", data.path, "--no-watch"])
        let address = String(first.url.dropFirst("http://".count))
        let port = String(address.split(separator: ":").last ?? "")
        let watch = try Movies(["watch", "--genre", "Phoenix", "--emulator", address])
        #expect(try await watch.waitFor("No movies."), "hang guard: no first list; \(watch.output)")
        _ = try await Self.createMovie(first, title: "Before The Fall", genre: "Phoenix")
        #expect(try await watch.waitFor("Before The Fall"), "hang guard: \(watch.output)")

        // when: the emulator dies, comes back on the same port and data, and a movie is added
        try await first.stop(signal: SIGKILL)
        let second = try await EmulatorProcess([
            "--backend", Repository.movies, "--data-dir", data.path, "--no-watch", "--port", port,
        ])
        let status = try await Self.createMovie(second, title: "Rising Again", genre: "Phoenix")

        // then: the subscriber reconnected by itself (backoff starts at 1 s) and shows it
        #expect(status == 200)
        #expect(try await watch.waitFor("Rising Again"), "hang guard: \(watch.output)")
        #expect(watch.process.isRunning)
        #expect(try await watch.interrupt() == 0)
        try await second.stop()
    }
}
