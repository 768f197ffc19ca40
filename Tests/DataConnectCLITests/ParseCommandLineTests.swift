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
        #expect(
            try parseCommandLine(["emulator", "--no-console"]) == .emulator(EmulatorOptions(console: false)))
        #expect(try parseCommandLine([]) == .help(topic: nil))
        #expect(try parseCommandLine(["help", "generate"]) == .help(topic: "generate"))
    }

    @Test func emulatorLimits() throws {
        // when
        let command = try parseCommandLine([
            "emulator", "--max-selected-fields", "200", "--max-depth", "8", "--max-aliases", "10",
            "--max-filter-terms", "50", "--request-timeout", "2.5", "--threads", "3",
        ])

        // then
        var expected = EmulatorOptions()
        expected.limits = OperationLimits(maxSelectedFields: 200, maxDepth: 8, maxAliases: 10)
        expected.executionLimits = ExecutionLimits(requestTimeout: .milliseconds(2_500), maximumFilterTerms: 50)
        expected.threads = 3
        #expect(command == .emulator(expected))
    }

    @Test(arguments: [
        (["emulator", "--max-depth", "0"], "--max-depth needs a whole number of at least 1, got \"0\""),
        (["emulator", "--max-aliases", "many"], "--max-aliases needs a whole number of at least 1, got \"many\""),
        (
            ["emulator", "--request-timeout", "-1"],
            "--request-timeout needs a number of seconds from 0 to 86400, got \"-1\""
        ),
        (["emulator", "--threads", "0"], "--threads needs a whole number from 1 to 256, got \"0\""),
        (["emulator", "--threads", "300"], "--threads needs a whole number from 1 to 256, got \"300\""),
    ])
    func emulatorLimitUsageErrors(_ arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try parseCommandLine(arguments) }
    }

    @Test func emulatorAuthOptions() throws {
        // when
        let command = try parseCommandLine(["emulator", "--auth-port", "9099", "--project", "my-project"])
        // then
        var expected = EmulatorOptions()
        expected.authPort = 9099
        expected.projectID = "my-project"
        #expect(command == .emulator(expected))
        var noAuth = EmulatorOptions()
        noAuth.auth = false
        #expect(try parseCommandLine(["emulator", "--no-auth"]) == .emulator(noAuth))
        #expect(try parseCommandLine(["emulator"]) == .emulator(EmulatorOptions()))
    }

    @Test(arguments: [
        (["emulator", "--auth-port", "99999"], "--auth-port needs a number from 0 to 65535, got \"99999\""),
        (["emulator", "--project", ""], "--project needs a project id such as demo-project, got \"\""),
        (
            ["emulator", "--no-auth", "--auth-port", "9099"],
            "--auth-port serves the Auth emulator; it cannot be combined with --no-auth"
        ),
    ])
    func emulatorAuthUsageErrors(_ arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try parseCommandLine(arguments) }
    }

    @Test(arguments: [
        (["emulator", "--embeddings", "vertex"], EmbeddingsSetting.vertex),
        (["emulator", "--embeddings=hashing"], .hashing),
        (
            ["emulator", "--embeddings", "http://127.0.0.1:11434/v1/embeddings"],
            .http(url: "http://127.0.0.1:11434/v1/embeddings", models: [:], apiKeyVariable: nil)
        ),
        (
            [
                "emulator", "--embeddings-model", "textembedding-gecko@003=nomic-embed-text", "--embeddings",
                "https://models.example.test/v1/embeddings", "--embeddings-model", "text-embedding-004=all-minilm",
                "--embeddings-key-env", "EMBEDDINGS_KEY",
            ],
            .http(
                url: "https://models.example.test/v1/embeddings",
                models: ["textembedding-gecko@003": "nomic-embed-text", "text-embedding-004": "all-minilm"],
                apiKeyVariable: "EMBEDDINGS_KEY")
        ),
    ])
    func emulatorEmbeddings(_ arguments: [String], expected: EmbeddingsSetting) throws {
        var options = EmulatorOptions()
        options.embeddings = expected
        #expect(try parseCommandLine(arguments) == .emulator(options))
    }

    @Test(arguments: [
        (
            ["emulator", "--embeddings", "openai"],
            "--embeddings needs vertex, hashing or an http:// or https:// URL, got \"openai\""
        ),
        (["emulator", "--embeddings"], "--embeddings needs vertex, hashing or a URL"),
        (
            ["emulator", "--embeddings", "vertex", "--embeddings-model", "a=b"],
            "--embeddings-model applies to an embeddings server: give --embeddings URL too"
        ),
        (
            ["emulator", "--embeddings-key-env", "KEY"],
            "--embeddings-key-env applies to an embeddings server: give --embeddings URL too"
        ),
        (
            ["emulator", "--embeddings", "http://x/v1/embeddings", "--embeddings-model", "gecko"],
            "--embeddings-model needs NAME=MODEL, such as textembedding-gecko@003=nomic-embed-text, got \"gecko\""
        ),
        (
            ["emulator", "--embeddings", "http://x/v1/embeddings", "--embeddings-key-env", "MY-KEY"],
            "--embeddings-key-env needs an environment variable's name (letters, digits and _), got \"MY-KEY\""
        ),
    ])
    func emulatorEmbeddingsUsageErrors(_ arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try parseCommandLine(arguments) }
    }

    @Test func authProjectComesFromOptionThenEnvironment() {
        let both = ["FIREBASE_PROJECT_ID": "from-firebase", "GCLOUD_PROJECT": "from-gcloud"]
        #expect(EmulatorCommand.projectID("from-option", environment: both) == "from-option")
        #expect(EmulatorCommand.projectID(nil, environment: both) == "from-firebase")
        #expect(EmulatorCommand.projectID(nil, environment: ["GCLOUD_PROJECT": "from-gcloud"]) == "from-gcloud")
        #expect(EmulatorCommand.projectID(nil, environment: ["FIREBASE_PROJECT_ID": ""]) == "demo-project")
    }

    @Test(arguments: [
        (["sql", "diff"], SQLOptions(action: .diff)),
        (
            ["sql", "diff", "--backend", "b", "--postgres", "postgres://h/db"],
            SQLOptions(action: .diff, backend: "b", postgreSQL: "postgres://h/db")
        ),
        (["sql", "migrate"], SQLOptions(action: .migrate(force: false))),
        (["sql", "migrate", "--config-dir=b", "--force"], SQLOptions(action: .migrate(force: true), backend: "b")),
        (["sql", "setup", "--postgres=postgres://h/db"], SQLOptions(action: .setup, postgreSQL: "postgres://h/db")),
        (["sql", "grant", "--role", "writer", "--user", "app"], SQLOptions(action: .grant(.writer, user: "app"))),
        (["sql", "grant", "-R", "owner", "--email", "ops"], SQLOptions(action: .grant(.owner, user: "ops"))),
    ])
    func sqlOptions(_ arguments: [String], expected: SQLOptions) throws {
        #expect(try parseCommandLine(arguments) == .sql(expected))
    }

    @Test(arguments: [["help", "sql"], ["sql", "--help"], ["sql", "migrate", "--force", "-h"]])
    func sqlHelp(_ arguments: [String]) throws {
        #expect(try parseCommandLine(arguments) == .help(topic: "sql"))
    }

    @Test(arguments: [
        (["sql"], "sql needs a subcommand: diff, migrate, setup, grant"),
        (["sql", "drop"], "unknown command \"drop\"; commands: diff, migrate, setup, grant"),
        (["sql", "diff", "--force"], "unknown option \"--force\" for sql diff"),
        (["sql", "setup", "--backend", "b"], "unknown option \"--backend\" for sql setup"),
        (["sql", "migrate", "extra"], "unknown option \"extra\" for sql migrate"),
        (["sql", "migrate", "--postgres"], "--postgres needs a connection URL"),
        (
            ["sql", "diff", "--postgres", ""],
            "--postgres needs a connection URL such as postgres://127.0.0.1:5432/db"
        ),
        (["sql", "grant", "--user", "app"], "sql grant needs --role reader, writer or owner"),
        (["sql", "grant", "--role", "admin", "--user", "app"], "--role needs reader, writer or owner, got \"admin\""),
        (["sql", "grant", "--role", "reader"], "sql grant needs --user NAME, an existing PostgreSQL role"),
    ])
    func sqlUsageErrors(_ arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try parseCommandLine(arguments) }
    }

    @Test func sqlDatabaseComesFromTheOptionThenTheEnvironment() throws {
        // given
        let variable = ["FIREBASE_DATACONNECT_POSTGRESQL_STRING": "postgres://environment/db"]
        let named = SQLOptions(action: .diff, postgreSQL: "postgres://option/db")
        let unnamed = SQLOptions(action: .migrate(force: false))

        // then
        #expect(try SQLCommand.connectionString(named, environment: variable) == "postgres://option/db")
        #expect(try SQLCommand.connectionString(unnamed, environment: variable) == "postgres://environment/db")
        #expect(
            throws: UsageError(
                message:
                    "sql migrate needs a database: pass --postgres URL or set FIREBASE_DATACONNECT_POSTGRESQL_STRING"
            )
        ) { try SQLCommand.connectionString(unnamed, environment: [:]) }
    }
}
