import ArgumentParsing
import DataConnectEngine
import DataConnectSchema
import EmulatorHTTP

/// A parsed `dataconnect` command line.
enum Command: Equatable {
    /// `dataconnect validate [--backend DIR] [--print-sdl] [--prelude] [--quiet]`
    case validate(ValidateOptions)
    /// `dataconnect emulator [--backend DIR | --no-backend] [--host H] [--port P] [--data-dir DIR | --postgres URL]
    /// [--seed FILE] [--import DIR] [--export-on-exit DIR] [--no-watch] [--allow-host HOST]... [--allow-origin ORIGIN]...
    /// [--no-auth] [--auth-port N] [--project ID] [--embeddings vertex|hashing|URL [--embeddings-model NAME=MODEL]...
    /// [--embeddings-key-env VARIABLE]]`
    case emulator(EmulatorOptions)
    /// `dataconnect execute FILE.gql [--emulator HOST:PORT] [--vars JSON] [--operation NAME]`
    case execute(ExecuteOptions)
    /// `dataconnect generate [--backend DIR] [--watch | --check]`
    case generate(GenerateOptions)
    /// `dataconnect init [--template movies|blank] [--name NAME] DIR`
    case initProject(InitOptions)
    /// `dataconnect sql diff|migrate|setup|grant [options]`
    case sql(SQLOptions)
    /// `dataconnect postgres start|stop DIR [--port N]`
    case postgres(PostgresOptions)
    /// `dataconnect upgrade [DIR]`
    case upgrade(UpgradeOptions)
    /// `dataconnect help [COMMAND]`, `--help`, `-h`
    case help(topic: String?)
    /// `dataconnect --version`
    case version
}

/// Options of `dataconnect validate`.
struct ValidateOptions: Equatable {
    /// The folder holding `dataconnect.yaml`.
    var backend = "."
    /// Print the generated API as SDL after validating.
    var printSDL = false
    /// Include the prelude's definitions in the printed SDL.
    var includePrelude = false
    /// Print only errors and warnings, no summary line.
    var quiet = false
    /// `--seed FILE`: the seed file to check; `nil` checks `DIR/seed_data.gql` when it exists.
    var seedFile: String?
}

/// Options of `dataconnect emulator`.
struct EmulatorOptions: Equatable {
    /// `--backend`; `nil` with `--no-backend`: serve nothing until `POST /emulator/configure` names a folder.
    var backend: String? = "."
    var host = "127.0.0.1"
    var port: UInt16 = 9399
    var dataDirectory: String?
    /// `--postgres URL` (or `FIREBASE_DATACONNECT_POSTGRESQL_STRING`): serve from a PostgreSQL database instead of
    /// the embedded SQLite one.
    var postgreSQL: String?
    var seedFile: String?
    var importDirectory: String?
    var exportOnExit: String?
    var watch = true
    /// `--no-console` turns the browser console off.
    var console = true
    /// `--allow-host`: further names requests may give in `Host`.
    var allowedHosts: [String] = []
    /// `--allow-origin`: further web origins whose pages may call the emulator.
    var allowedOrigins: [String] = []
    /// `--no-auth` turns the Firebase Auth emulator off.
    var auth = true
    /// `--auth-port N`: also serve the Auth API alone on this port (firebase-tools' is 9099).
    var authPort: UInt16?
    /// `--project ID`; `nil` to read `FIREBASE_PROJECT_ID`, then `GCLOUD_PROJECT`, when the command runs.
    var projectID: String?
    /// `--max-selected-fields`, `--max-depth`, `--max-aliases`: bounds on each operation's merged selection.
    var limits = OperationLimits.default
    /// `--max-filter-terms`, `--request-timeout`, `--slow-lane-after`: bounds on each request's execution.
    var executionLimits = ExecutionLimits.default
    /// `--slow-lane N`: slow requests that may run at once; `nil` for the emulator's default.
    var slowLaneCapacity: Int?
    /// `--embeddings vertex|hashing|URL` with `--embeddings-model` and `--embeddings-key-env`: the provider of
    /// `_embed` vectors, over `dataconnect.yaml`'s; `nil` to leave the choice to the file.
    var embeddings: EmbeddingsSetting?
}

/// Options of `dataconnect execute`.
struct ExecuteOptions: Equatable {
    var file = ""
    var emulator = "127.0.0.1:9399"
    var variables = "{}"
    var operationName: String?
}

/// Options of `dataconnect generate`.
struct GenerateOptions: Equatable {
    var backend = "."
    /// Keep running and regenerate after every saved change.
    var watch = false
    /// Write nothing; exit 1 when the generated packages on disk differ from a fresh generation.
    var check = false
}

/// Options of `dataconnect init`.
struct InitOptions: Equatable {
    /// The folder to create the project in; it must be missing or empty.
    var directory = ""
    /// The template: `blank` or `movies` (see `InitCommand.templates`).
    var template = InitCommand.defaultTemplate
    /// The service and connector name; the directory's last path component when `nil`.
    var name: String?
}

/// Options of `dataconnect postgres`: a development PostgreSQL server kept in a directory.
struct PostgresOptions: Equatable {
    /// Start (creating the cluster when missing) or stop.
    enum Action: Equatable {
        /// `postgres start DIR [--port N]`
        case start(port: Int)
        /// `postgres stop DIR`
        case stop
    }

    var action: Action
    /// The cluster's directory.
    var directory: String
}

/// Options of `dataconnect upgrade`: the project to re-pin to this toolkit's version.
struct UpgradeOptions: Equatable {
    /// The project folder (holding `dataconnect/` and `App/`); the current folder by default.
    var directory = "."
}

/// Options of `dataconnect sql`: the subcommand, and where the schema and the database are.
struct SQLOptions: Equatable {
    /// What `dataconnect sql` does.
    enum Action: Equatable {
        /// `sql diff`: print the statements that would bring the database to the schema.
        case diff
        /// `sql migrate [--force]`: apply them; destructive ones only with `force`.
        case migrate(force: Bool)
        /// `sql setup`: check the server and create the emulator's bookkeeping table.
        case setup
        /// `sql grant --role ROLE --user NAME`: give an existing PostgreSQL role access to the schema's tables.
        case grant(SQLRole, user: String)
    }

    var action: Action
    /// The folder holding `dataconnect.yaml` (`diff` and `migrate` only).
    var backend = "."
    /// `--postgres URL`; `nil` to read `FIREBASE_DATACONNECT_POSTGRESQL_STRING` when the command runs.
    var postgreSQL: String?
}

/// The access `dataconnect sql grant --role` gives, named as firebase-tools names its SQL roles.
enum SQLRole: String, CaseIterable, Equatable {
    /// Read the tables: `SELECT`.
    case reader
    /// Read and change rows: `SELECT, INSERT, UPDATE, DELETE`.
    case writer
    /// Everything on the tables, and creating tables in the schema.
    case owner
}

/// A command-line usage error: printed with the usage text, exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The commands `dataconnect help` knows about, in the order the "no help" message lists them.
let helpTopics = ["validate", "generate", "init", "emulator", "execute", "sql", "postgres", "upgrade"]

/// Parses the arguments after the program name into a ``Command``.
///
/// A pure function so it can be tested without starting a process. The options of each command are read by the
/// shared `ArgumentReader` (`--name value` or `--name=value`, `--` ends the options, `-h`/`--help` anywhere), then
/// checked here in the order given.
///
/// - Throws: ``UsageError`` for unknown commands or options and missing values.
func parseCommandLine(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(topic: nil) }
    var reader = ArgumentReader(Array(arguments.dropFirst()))
    switch first {
    case "-h", "--help", "help":
        return .help(
            topic: try UsageError.reading { () throws(ArgumentError) in try reader.helpTopic(among: helpTopics) })
    case "--version", "version":
        return .version
    case "validate":
        return try ValidateOptions.parse(&reader)
    case "emulator", "dev":
        return try EmulatorOptions.parse(&reader)
    case "execute":
        return try ExecuteOptions.parse(&reader)
    case "generate", "sdk":
        // `sdk generate` is a synonym of `generate`.
        if first == "sdk" && reader.remaining.first == "generate" { _ = reader.next() }
        return try GenerateOptions.parse(&reader)
    case "init":
        return try InitOptions.parse(&reader)
    case "sql":
        return try SQLOptions.parse(&reader)
    case "postgres":
        return try PostgresOptions.parse(&reader)
    case "upgrade":
        return try UpgradeOptions.parse(&reader)
    default:
        throw UsageError(message: ArgumentError(.unknownCommand(first, known: [])).message)
    }
}

extension UsageError {
    /// Runs a step of the shared parser, keeping the message of its ``ArgumentError``.
    fileprivate static func reading<Result>(_ step: () throws(ArgumentError) -> Result) throws(UsageError) -> Result {
        do {
            return try step()
        } catch {
            throw UsageError(message: error.message)
        }
    }

    /// The error for a positional argument a command takes none of.
    fileprivate static func unexpected(_ argument: String, for command: String) -> UsageError {
        UsageError(message: ArgumentError(.unknownOption(argument), command: command).message)
    }
}

/// The spellings of `--backend` the upstream CLI accepts too.
private let backendOption = Option.value("--backend", aliases: "--config_dir", "--config-dir")

extension ValidateOptions {
    fileprivate static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse(
                [
                    .value("--backend", aliases: "--config_dir", "--config-dir", expecting: "a directory"),
                    .flag("--print-sdl"), .flag("--prelude"), .flag("--quiet", aliases: "-q"),
                    .value("--seed", expecting: "a file"),
                ], command: "validate")
        }
        if parsed.helpRequested { return .help(topic: "validate") }
        if let extra = parsed.positionals.first { throw .unexpected(extra, for: "validate") }
        var options = ValidateOptions()
        options.backend = parsed.value("--backend") ?? options.backend
        options.printSDL = parsed.contains("--print-sdl")
        options.includePrelude = parsed.contains("--prelude")
        options.quiet = parsed.contains("--quiet")
        options.seedFile = parsed.value("--seed")
        return .validate(options)
    }
}

extension EmulatorOptions {
    fileprivate static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse(
                [
                    backendOption, .value("--host"), .value("--port"), .value("--listen"), .value("--data-dir"),
                    .value("--postgres"),
                    .value("--seed"), .value("--import"), .value("--export-on-exit"), .flag("--no-watch"),
                    .flag("--no-backend"), .flag("--no-console"), .value("--allow-host"), .value("--allow-origin"),
                    .flag("--no-auth"), .value("--auth-port"), .value("--project"), .value("--max-selected-fields"),
                    .value("--max-depth"), .value("--max-aliases"), .value("--max-filter-terms"),
                    .value("--request-timeout"), .value("--slow-lane-after"), .value("--slow-lane"),
                    .value("--embeddings", expecting: "vertex, hashing or a URL"),
                    .value("--embeddings-model", expecting: "NAME=MODEL"),
                    .value("--embeddings-key-env", expecting: "an environment variable's name"),
                ], command: "emulator")
        }
        if parsed.helpRequested { return .help(topic: "emulator") }
        if let extra = parsed.positionals.first { throw .unexpected(extra, for: "emulator") }
        var options = EmulatorOptions()
        var embeddingModels: [String: String] = [:]
        var embeddingsKeyVariable: String?
        for occurrence in parsed.occurrences {
            let option = occurrence.option
            let text = occurrence.value ?? ""
            switch option {
            case "--backend": options.backend = text
            case "--host": options.host = text
            case "--port":
                guard let port = UInt16(text) else {
                    throw UsageError(message: "--port needs a number from 0 to 65535, got \"\(text)\"")
                }
                options.port = port
            case "--listen":
                guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
                    throw UsageError(message: "--listen needs HOST:PORT, got \"\(text)\"")
                }
                options.host = String(text[..<colon])
                options.port = port
            case "--data-dir": options.dataDirectory = text
            case "--postgres":
                guard !text.isEmpty else {
                    throw UsageError(message: "--postgres needs a connection URL such as postgres://127.0.0.1:5432/db")
                }
                options.postgreSQL = text
            case "--seed": options.seedFile = text
            case "--import": options.importDirectory = text
            case "--export-on-exit": options.exportOnExit = text
            case "--no-watch": options.watch = false
            case "--no-backend": options.backend = nil
            case "--no-console": options.console = false
            case "--no-auth": options.auth = false
            case "--auth-port":
                guard let port = UInt16(text) else {
                    throw UsageError(message: "--auth-port needs a number from 0 to 65535, got \"\(text)\"")
                }
                options.authPort = port
            case "--project":
                guard !text.isEmpty, !text.contains("/") else {
                    throw UsageError(message: "--project needs a project id such as demo-project, got \"\(text)\"")
                }
                options.projectID = text
            case "--allow-host":
                guard RequestOriginPolicy.normalizedAllowedHost(text) != nil else {
                    throw UsageError(
                        message: "--allow-host needs a host name or address such as devbox.local, .example.test "
                            + "or 192.168.1.5, got \"\(text)\"")
                }
                options.allowedHosts.append(text)
            case "--allow-origin":
                guard RequestOriginPolicy.normalizedOrigin(text) != nil else {
                    throw UsageError(
                        message: "--allow-origin needs scheme://host[:port] such as http://devbox.local:3000, "
                            + "got \"\(text)\"")
                }
                options.allowedOrigins.append(text)
            case "--max-selected-fields": options.limits.maxSelectedFields = try positiveInteger(text, for: option)
            case "--max-depth": options.limits.maxDepth = try positiveInteger(text, for: option)
            case "--max-aliases": options.limits.maxAliases = try positiveInteger(text, for: option)
            case "--max-filter-terms":
                options.executionLimits.maximumFilterTerms = try positiveInteger(text, for: option)
            case "--request-timeout":
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw UsageError(
                        message: "--request-timeout needs a number of seconds from 0 to 86400, got \"\(text)\"")
                }
                options.executionLimits.requestTimeout = .milliseconds(Int64((seconds * 1_000).rounded(.up)))
            case "--slow-lane-after":
                guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
                    throw UsageError(
                        message: "--slow-lane-after needs a number of seconds from 0 to 86400, got \"\(text)\"")
                }
                options.executionLimits.slowLaneAfter = .milliseconds(Int64((seconds * 1_000).rounded(.up)))
            case "--slow-lane": options.slowLaneCapacity = try positiveInteger(text, for: option)
            case "--embeddings":
                do {
                    options.embeddings = try EmbeddingsSetting(parsing: text)
                } catch {
                    throw UsageError(
                        message: "--embeddings needs vertex, hashing or an http:// or https:// URL, got \"\(text)\"")
                }
            case "--embeddings-model":
                guard let equals = text.firstIndex(of: "="), equals != text.startIndex,
                    text.index(after: equals) != text.endIndex
                else {
                    throw UsageError(
                        message:
                            "--embeddings-model needs NAME=MODEL, such as textembedding-gecko@003=nomic-embed-text, "
                            + "got \"\(text)\"")
                }
                embeddingModels[String(text[..<equals])] = String(text[text.index(after: equals)...])
            case "--embeddings-key-env":
                guard EmbeddingsSetting.isVariableName(text) else {
                    throw UsageError(
                        message: "--embeddings-key-env needs an environment variable's name (letters, digits and _), "
                            + "got \"\(text)\"")
                }
                embeddingsKeyVariable = text
            default: break
            }
        }
        if !embeddingModels.isEmpty || embeddingsKeyVariable != nil {
            guard case .http(let url, _, _)? = options.embeddings else {
                let flag = embeddingModels.isEmpty ? "--embeddings-key-env" : "--embeddings-model"
                throw UsageError(message: "\(flag) applies to an embeddings server: give --embeddings URL too")
            }
            options.embeddings = .http(url: url, models: embeddingModels, apiKeyVariable: embeddingsKeyVariable)
        }
        if !options.auth, options.authPort != nil {
            throw UsageError(message: "--auth-port serves the Auth emulator; it cannot be combined with --no-auth")
        }
        if options.postgreSQL != nil, options.dataDirectory != nil {
            throw UsageError(
                message: "--data-dir keeps an SQLite database; it cannot be combined with --postgres (the data "
                    + "lives in the PostgreSQL server)")
        }
        return .emulator(options)
    }

    /// An option's value as a whole number of at least 1.
    private static func positiveInteger(_ text: String, for option: String) throws(UsageError) -> Int {
        guard let number = Int(text), number >= 1 else {
            throw UsageError(message: "\(option) needs a whole number of at least 1, got \"\(text)\"")
        }
        return number
    }
}

extension ExecuteOptions {
    fileprivate static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse(
                [
                    .value("--emulator"), .value("--vars", aliases: "--variables"),
                    .value("--operation", aliases: "--operation-name"),
                ], command: "execute")
        }
        if parsed.helpRequested { return .help(topic: "execute") }
        guard let file = parsed.positionals.first else { throw UsageError(message: "execute needs a .gql file") }
        if parsed.positionals.count > 1 {
            throw UsageError(message: "execute takes one file, got \"\(parsed.positionals[1])\" too")
        }
        var options = ExecuteOptions(file: file)
        options.emulator = parsed.value("--emulator") ?? options.emulator
        options.variables = parsed.value("--vars") ?? options.variables
        options.operationName = parsed.value("--operation")
        return .execute(options)
    }
}

extension GenerateOptions {
    fileprivate static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse([backendOption, .flag("--watch"), .flag("--check")], command: "generate")
        }
        if parsed.helpRequested { return .help(topic: "generate") }
        if let extra = parsed.positionals.first { throw .unexpected(extra, for: "generate") }
        var options = GenerateOptions()
        options.backend = parsed.value("--backend") ?? options.backend
        options.watch = parsed.contains("--watch")
        options.check = parsed.contains("--check")
        if options.watch && options.check {
            throw UsageError(message: "--watch and --check cannot be combined")
        }
        return .generate(options)
    }
}

extension InitOptions {
    fileprivate static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse([.value("--template", aliases: "-t"), .value("--name")], command: "init")
        }
        if parsed.helpRequested { return .help(topic: "init") }
        if parsed.positionals.count > 1 {
            throw UsageError(message: "init takes one directory, got \"\(parsed.positionals[1])\" too")
        }
        var options = InitOptions()
        options.template = parsed.value("--template") ?? options.template
        options.name = parsed.value("--name")
        guard InitCommand.templates.contains(options.template) else {
            throw UsageError(
                message:
                    "unknown template \"\(options.template)\"; templates: \(InitCommand.templates.joined(separator: ", "))"
            )
        }
        if let name = options.name, InitCommand.sanitizedName(name) == nil {
            throw UsageError(message: "--name needs letters or digits, got \"\(name)\"")
        }
        guard let directory = parsed.positionals.first else { throw UsageError(message: "init needs a directory") }
        options.directory = directory
        return .initProject(options)
    }
}

extension PostgresOptions {
    fileprivate static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        guard let verb = reader.remaining.first else {
            throw UsageError(message: "postgres needs a subcommand: start, stop")
        }
        if verb == "-h" || verb == "--help" { return .help(topic: "postgres") }
        guard verb == "start" || verb == "stop" else {
            throw UsageError(message: ArgumentError(.unknownCommand(verb, known: ["start", "stop"])).message)
        }
        _ = reader.next()
        let command = "postgres \(verb)"
        let options: [Option] = verb == "start" ? [.value("--port", expecting: "a port number")] : []
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse(options, command: command)
        }
        if parsed.helpRequested { return .help(topic: "postgres") }
        guard let directory = parsed.positionals.first else {
            throw UsageError(message: "\(command) needs a directory")
        }
        if let extra = parsed.positionals.dropFirst().first { throw .unexpected(extra, for: command) }
        guard verb == "start" else { return .postgres(PostgresOptions(action: .stop, directory: directory)) }
        var port = 5432
        if let text = parsed.value("--port") {
            guard let number = Int(text), (1...65_535).contains(number) else {
                throw UsageError(message: "--port needs a number from 1 to 65535, got \"\(text)\"")
            }
            port = number
        }
        return .postgres(PostgresOptions(action: .start(port: port), directory: directory))
    }
}

extension UpgradeOptions {
    fileprivate static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse([], command: "upgrade")
        }
        if parsed.helpRequested { return .help(topic: "upgrade") }
        if parsed.positionals.count > 1 {
            throw UsageError(message: "upgrade takes one directory, got \"\(parsed.positionals[1])\" too")
        }
        return .upgrade(UpgradeOptions(directory: parsed.positionals.first ?? "."))
    }
}

extension SQLOptions {
    /// The subcommands of `dataconnect sql`.
    static let subcommands = ["diff", "migrate", "setup", "grant"]

    fileprivate static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        guard let first = reader.remaining.first else {
            throw UsageError(message: "sql needs a subcommand: \(subcommands.joined(separator: ", "))")
        }
        if first == "-h" || first == "--help" { return .help(topic: "sql") }
        guard subcommands.contains(first) else {
            throw UsageError(message: ArgumentError(.unknownCommand(first, known: subcommands)).message)
        }
        _ = reader.next()
        let command = "sql \(first)"
        let postgres = Option.value("--postgres", expecting: "a connection URL")
        let options: [Option] =
            switch first {
            case "diff": [backendOption, postgres]
            case "migrate": [backendOption, postgres, .flag("--force")]
            case "setup": [postgres]
            default:
                [
                    postgres, .value("--role", aliases: "-R", expecting: "reader, writer or owner"),
                    .value("--user", aliases: "--email", "-E", expecting: "a role name"),
                ]
            }
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse(options, command: command)
        }
        if parsed.helpRequested { return .help(topic: "sql") }
        if let extra = parsed.positionals.first { throw .unexpected(extra, for: command) }
        var result = SQLOptions(action: .diff)
        result.backend = parsed.value("--backend") ?? result.backend
        if let url = parsed.value("--postgres") {
            guard !url.isEmpty else {
                throw UsageError(message: "--postgres needs a connection URL such as postgres://127.0.0.1:5432/db")
            }
            result.postgreSQL = url
        }
        switch first {
        case "diff": result.action = .diff
        case "migrate": result.action = .migrate(force: parsed.contains("--force"))
        case "setup": result.action = .setup
        default:
            guard let roleName = parsed.value("--role") else {
                throw UsageError(message: "sql grant needs --role reader, writer or owner")
            }
            guard let role = SQLRole(rawValue: roleName) else {
                throw UsageError(message: "--role needs reader, writer or owner, got \"\(roleName)\"")
            }
            guard let user = parsed.value("--user"), !user.isEmpty else {
                throw UsageError(message: "sql grant needs --user NAME, an existing PostgreSQL role")
            }
            result.action = .grant(role, user: user)
        }
        return .sql(result)
    }
}
