import Testing

@testable import dataconnect

/// The pure argument parser, without a process.
@Suite struct ParseCommandLineTests {
    @Test(arguments: [
        (["generate"], GenerateOptions()),
        (["generate", "--backend", "b"], GenerateOptions(backend: "b")),
        (["generate", "--config_dir=b", "--watch"], GenerateOptions(backend: "b", watch: true)),
        (["sdk", "generate", "--check"], GenerateOptions(check: true)),
    ])
    func generateOptions(_ arguments: [String], expected: GenerateOptions) throws {
        #expect(try parseCommandLine(arguments) == .generate(expected))
    }

    @Test(arguments: [
        (["generate", "--watch", "--check"], "--watch and --check cannot be combined"),
        (["generate", "--bogus"], "unknown option \"--bogus\" for generate"),
        (["generate", "--backend"], "--backend needs a value"),
    ])
    func generateUsageErrors(_ arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try parseCommandLine(arguments) }
    }

    @Test func emulatorAndExecuteOptions() throws {
        #expect(
            try parseCommandLine(["emulator", "--listen", "0.0.0.0:9400", "--no-watch", "--data-dir", "d"])
                == .emulator(EmulatorOptions(host: "0.0.0.0", port: 9400, dataDirectory: "d", watch: false)))
        #expect(
            try parseCommandLine(["execute", "f.gql", "--vars", "{}", "--operation", "q"])
                == .execute(ExecuteOptions(file: "f.gql", variables: "{}", operationName: "q")))
        #expect(try parseCommandLine([]) == .help(topic: nil))
        #expect(try parseCommandLine(["help", "generate"]) == .help(topic: "generate"))
    }
}
