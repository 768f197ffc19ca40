import DataConnectEngine
import DataConnectSchema
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
        #expect(
            try parseCommandLine(["emulator", "--no-backend", "--port", "3628"])
                == .emulator(EmulatorOptions(backend: nil, port: 3628)))
        #expect(try parseCommandLine([]) == .help(topic: nil))
        #expect(try parseCommandLine(["help", "generate"]) == .help(topic: "generate"))
    }

    @Test func emulatorLimits() throws {
        // when
        let command = try parseCommandLine([
            "emulator", "--max-selected-fields", "200", "--max-depth", "8", "--max-aliases", "10",
            "--max-filter-terms", "50", "--request-timeout", "2.5",
        ])

        // then
        var expected = EmulatorOptions()
        expected.limits = OperationLimits(maxSelectedFields: 200, maxDepth: 8, maxAliases: 10)
        expected.executionLimits = ExecutionLimits(requestTimeout: .milliseconds(2_500), maximumFilterTerms: 50)
        #expect(command == .emulator(expected))
    }

    @Test(arguments: [
        (["emulator", "--max-depth", "0"], "--max-depth needs a whole number of at least 1, got \"0\""),
        (["emulator", "--max-aliases", "many"], "--max-aliases needs a whole number of at least 1, got \"many\""),
        (
            ["emulator", "--request-timeout", "-1"],
            "--request-timeout needs a number of seconds from 0 to 86400, got \"-1\""
        ),
    ])
    func emulatorLimitUsageErrors(_ arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try parseCommandLine(arguments) }
    }
}
