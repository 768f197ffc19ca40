import DataConnectTestSupport
import Foundation
import Testing

/// The seed file is checked against the generated API by `dataconnect validate` (`--seed FILE`, or
/// `DIR/seed_data.gql`) and by the emulator before it seeds, with the same line, located in the seed file.
@Suite struct SeedValidationTests {
    @Test func validateAndTheEmulatorLocateASeedTypoInTheSeedFile() async throws {
        // given a seed whose person has a birth year written as text
        let scratch = try TemporaryDirectory(prefix: "dataconnect-seed")
        defer { scratch.remove() }
        let seed = scratch.url.appendingPathComponent("seed_data.gql")
        try """
        mutation @transaction {
          person_insert(data: { name: "Ridley Scott", birthYear: "1937" })
        }
        """.write(to: seed, atomically: true, encoding: .utf8)
        let expected = seed.path + ":2:58: error: "

        // when
        let validated = try await ChildProcess.dataconnect([
            "validate", "--backend", RepositoryPaths.movies, "--seed", seed.path,
        ])
        let emulator = try ChildProcess(
            BuiltExecutable.require("dataconnect"),
            ["emulator", "--backend", RepositoryPaths.movies, "--port", "0", "--no-watch", "--seed", seed.path])
        let started = await emulator.wait { $0.isFinished || $0.standardOutput.contains("ready ") }
        if started?.isFinished != true { await emulator.stop() }
        let served = await emulator.waitForExit()

        // then
        let validateLine = validated.errorLines.first { $0.contains(": error: ") }
        #expect(validated.exitStatus == 1, "\(validated.standardError)")
        #expect(validateLine?.hasPrefix(expected) == true, "\(validated.standardError)")
        #expect(served.exitStatus == 1, "\(served.standardError)")
        #expect(served.errorLines.filter { $0.contains(": error: ") } == [validateLine].compactMap { $0 })
    }

    @Test func validateChecksTheBackendsOwnSeedFile() async throws {
        // when
        let result = try await ChildProcess.dataconnect(["validate", "--backend", RepositoryPaths.movies])

        // then the movies seed is valid, and a missing --seed file is an error naming it
        #expect(result.exitStatus == 0, "\(result.standardError)")
        let missing = try await ChildProcess.dataconnect([
            "validate", "--backend", RepositoryPaths.movies, "--seed", "/nonexistent/seed_data.gql",
        ])
        #expect(missing.exitStatus == 1)
        let unreadable = "/nonexistent/seed_data.gql: error: cannot read the seed file"
        #expect(missing.errorLines.contains { $0.hasPrefix(unreadable) }, "\(missing.standardError)")
    }
}
