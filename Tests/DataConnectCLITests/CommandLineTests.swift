import DataConnectTestSupport
import Foundation
import Testing

/// The `dataconnect` command line as a user meets it: help, usage errors, exit statuses, output
/// streams and paths.
@Suite struct CommandLineTests {
    static let generalUsage = "usage: dataconnect <command> [options]"
    static let validateUsage =
        "usage: dataconnect validate [--backend DIR] [--seed FILE] [--print-sdl] [--prelude] [--quiet]"

    @Test func findsTheBuiltExecutable() throws {
        // given / when
        let executable = try BuiltExecutable.require("dataconnect")

        // then
        #expect(executable.lastPathComponent == "dataconnect")
        #expect(FileManager.default.isExecutableFile(atPath: executable.path))
    }

    @Test(arguments: [["--help"], ["-h"], ["help"], []])
    func helpPrintsTheCommandsOnStandardOutput(_ arguments: [String]) async throws {
        // when
        let result = try await ChildProcess.dataconnect(arguments)

        // then
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains(Self.generalUsage))
        #expect(result.standardOutput.contains("validate"))
        #expect(result.standardError.isEmpty)
    }

    @Test(arguments: [["help", "validate"], ["validate", "--help"], ["--help", "validate"]])
    func helpValidateDescribesItsOptions(_ arguments: [String]) async throws {
        // when
        let result = try await ChildProcess.dataconnect(arguments)

        // then
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains(Self.validateUsage))
        for option in ["--backend DIR", "--seed FILE", "--print-sdl", "--prelude", "--quiet", "Exit status"] {
            #expect(result.standardOutput.contains(option), "help validate does not mention \(option)")
        }
    }

    @Test func versionPrintsTheToolName() async throws {
        // when
        let result = try await ChildProcess.dataconnect(["--version"])

        // then
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.hasPrefix("dataconnect "))
    }

    @Test func unknownCommandIsAUsageError() async throws {
        // when
        let result = try await ChildProcess.dataconnect(["frobnicate"])

        // then
        #expect(result.exitStatus == 2)
        #expect(result.errorLines.first == "dataconnect: unknown command \"frobnicate\"")
        #expect(result.standardError.contains(Self.generalUsage))
        #expect(result.standardOutput.isEmpty)
    }

    @Test(arguments: [
        (
            ["help", "bogus"],
            "dataconnect: no help for \"bogus\"; commands: validate, generate, init, emulator, execute, sql, postgres, "
                + "upgrade"
        ),
        (["validate", "--bogus"], "dataconnect: unknown option \"--bogus\" for validate"),
        (["emulator", "--port", "abc"], "dataconnect: --port needs a number from 0 to 65535, got \"abc\""),
        (["emulator", "--frobnicate"], "dataconnect: unknown option \"--frobnicate\" for emulator"),
        (["execute"], "dataconnect: execute needs a .gql file"),
        (["validate", "--backend"], "dataconnect: --backend needs a directory"),
    ])
    func badOptionIsAUsageError(_ arguments: [String], message: String) async throws {
        // when
        let result = try await ChildProcess.dataconnect(arguments)

        // then
        #expect(result.exitStatus == 2)
        #expect(result.errorLines.first == message)
        #expect(result.standardError.contains("usage: dataconnect"))
    }

    @Test func missingBackendDirectoryIsAnErrorNamingThePath() async throws {
        // given
        let parent = try TemporaryDirectory(prefix: "dataconnect-missing")
        defer { parent.remove() }
        let missing = parent.url.appendingPathComponent("no-such-backend").path

        // when
        let result = try await ChildProcess.dataconnect(["validate", "--backend", missing])

        // then
        #expect(result.exitStatus == 1)
        #expect(
            result.errorLines.contains("\(missing): error: directory not found"), "stderr:\n\(result.standardError)")
    }

    @Test func missingConfigFileIsAnErrorNamingTheFile() async throws {
        // given
        let backend = try TemporaryDirectory(prefix: "dataconnect-empty")
        defer { backend.remove() }

        // when
        let result = try await ChildProcess.dataconnect(["validate", "--backend", backend.path])

        // then
        #expect(result.exitStatus == 1)
        #expect(result.errorLines.contains("\(backend.path)/dataconnect.yaml: error: file not found"))
    }

    @Test func printSDLWritesTheGeneratedAPIToStandardOutput() async throws {
        // given
        let backend = try Self.writeRunningExample()
        defer { backend.remove() }

        // when
        let result = try await ChildProcess.dataconnect(["validate", "--backend", backend.path, "--print-sdl"])

        // then
        #expect(result.exitStatus == 0, "stderr:\n\(result.standardError)")
        let sdl = result.standardOutput
        for expected in [
            "type Query {", "type Mutation {", "type Recipe @table(", "input Recipe_Filter {", "input Recipe_Data {",
            "input Bookmark_Key {", "scalar Bookmark_KeyOutput", "recipes_on_chef(", "cooks_via_Bookmark(",
            "recipeNote_on_recipe: RecipeNote", "chef_insert(data: Chef_Data!): Chef_KeyOutput!",
        ] {
            #expect(sdl.contains(expected), "the SDL has no \(expected)")
        }
        #expect(!sdl.contains("directive @auth"), "the prelude is printed only with --prelude")
        #expect(!result.standardError.contains("type Query"), "SDL goes to standard output only")
        #expect(result.errorLines.contains { $0.hasPrefix("\(backend.path): valid: 5 tables") })
    }

    @Test func printSDLWithPreludeAddsTheBuiltInDefinitions() async throws {
        // given
        let backend = try Self.writeRunningExample()
        defer { backend.remove() }

        // when
        let result = try await ChildProcess.dataconnect([
            "validate", "--backend", backend.path, "--print-sdl", "--prelude",
        ])

        // then
        #expect(result.exitStatus == 0)
        for expected in [
            "directive @auth(", "directive @table(", "enum AccessLevel", "input String_Filter", "type Query {",
        ] {
            #expect(result.standardOutput.contains(expected), "the SDL has no \(expected)")
        }
    }

    @Test func printSDLIsDeterministic() async throws {
        // given
        let backend = try Self.writeRunningExample()
        defer { backend.remove() }

        // when
        let first = try await ChildProcess.dataconnect(["validate", "--backend", backend.path, "--print-sdl", "-q"])
        let second = try await ChildProcess.dataconnect(["validate", "--backend=\(backend.path)", "--print-sdl", "-q"])

        // then
        #expect(!first.standardOutput.isEmpty)
        #expect(first.standardOutput == second.standardOutput)
    }

    @Test func quietLeavesOnlyDiagnostics() async throws {
        // given
        let backend = try TemporaryDirectory(prefix: "dataconnect-quiet")
        defer { backend.remove() }
        try CorpusCase.parse(
            """
            # rule: quiet
            --- schema/schema.gql
            type Movie @table { title: String! }
            --- connector/queries.gql
            query ListMovies { movies { title } }
            """, name: "quiet", defaultExitStatus: 0
        ).write(to: backend.url)

        // when
        let loud = try await ChildProcess.dataconnect(["validate", "--backend", backend.path])
        let quiet = try await ChildProcess.dataconnect(["validate", "--backend", backend.path, "--quiet"])

        // then
        #expect(loud.exitStatus == 0)
        #expect(quiet.exitStatus == 0)
        #expect(
            loud.errorLines.contains {
                $0.hasPrefix("\(backend.path): valid: 1 tables, 1 connector(s), 1 operations, 1 warning(s)")
            })
        #expect(quiet.errorLines.filter { !$0.isEmpty }.count == 1)
        #expect(quiet.standardError.contains(": warning: operation \"ListMovies\" has no @auth directive"))
    }

    @Test func diagnosticsUseTheBackendPathAsGiven() async throws {
        // given
        let parent = try TemporaryDirectory(prefix: "dataconnect-relative")
        defer { parent.remove() }
        let corpusCase = try #require(Corpus.errorCases.first { $0.name == "schema-unknown-type" })
        try corpusCase.write(to: parent.url.appendingPathComponent("backend"))

        // when
        let result = try await ChildProcess.dataconnect(
            ["validate", "--backend", "./backend/"], workingDirectory: parent.url)

        // then
        #expect(result.exitStatus == 1)
        #expect(
            result.errorLines.contains(
                "backend/schema/schema.gql:2:10: error: unknown type \"Strin\" (did you mean \"String\"?)"),
            "stderr:\n\(result.standardError)")
        #expect(result.errorLines.contains("./backend/: 1 error(s), 0 warning(s)"))
    }

    @Test func errorsAreSortedByFileAndPosition() async throws {
        // given
        let backend = try TemporaryDirectory(prefix: "dataconnect-order")
        defer { backend.remove() }
        try CorpusCase.parse(
            """
            # rule: order
            --- schema/schema.gql
            type Movie @table { title: String! }
            --- connector/b.gql
            query B @auth(level: PUBLIC) { movies { year } }
            --- connector/a.gql
            query A @auth(level: PUBLIC) { movies { rating } }
            query C @auth(level: PUBLIC) { films { title } }
            """, name: "order", defaultExitStatus: 1
        ).write(to: backend.url)

        // when
        let result = try await ChildProcess.dataconnect(["validate", "--backend", backend.path, "-q"])

        // then
        #expect(result.exitStatus == 1)
        let files = result.errorLines.filter { !$0.isEmpty }.map {
            $0.replacingOccurrences(of: backend.path + "/", with: "")
        }
        #expect(
            files.map { String($0.prefix(while: { $0 != " " })) } == [
                "connector/a.gql:1:41:", "connector/a.gql:2:32:", "connector/b.gql:1:41:",
            ])
    }

    /// Writes the corpus's running example to a fresh directory.
    static func writeRunningExample() throws -> TemporaryDirectory {
        let corpusCase = try #require(Corpus.validCases.first { $0.name == "running-example" })
        let backend = try TemporaryDirectory(prefix: "dataconnect-running-example")
        try corpusCase.write(to: backend.url)
        return backend
    }
}
