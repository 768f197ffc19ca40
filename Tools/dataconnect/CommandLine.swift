import ArgumentParsing

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
    static func reading<Result>(_ step: () throws(ArgumentError) -> Result) throws(UsageError) -> Result {
        do {
            return try step()
        } catch {
            throw UsageError(message: error.message)
        }
    }

    /// The error for a positional argument a command takes none of.
    static func unexpected(_ argument: String, for command: String) -> UsageError {
        UsageError(message: ArgumentError(.unknownOption(argument), command: command).message)
    }
}

/// The spellings of `--backend` the upstream CLI accepts too.
let backendOption = Option.value("--backend", aliases: "--config_dir", "--config-dir")
