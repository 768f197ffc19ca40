import DataConnectEngine
import DataConnectSchema
import EmulatorHTTP

/// A parsed `dataconnect` command line.
enum Command: Equatable {
    /// `dataconnect validate [--backend DIR] [--print-sdl] [--prelude] [--quiet]`
    case validate(ValidateOptions)
    /// `dataconnect emulator --backend DIR [--host H] [--port P] [--data-dir DIR] [--seed FILE] [--import DIR]
    /// [--export-on-exit DIR] [--no-watch] [--allow-host HOST]... [--allow-origin ORIGIN]...`
    case emulator(EmulatorOptions)
    /// `dataconnect execute FILE.gql [--emulator HOST:PORT] [--vars JSON] [--operation NAME]`
    case execute(ExecuteOptions)
    /// `dataconnect generate [--backend DIR] [--watch | --check]`
    case generate(GenerateOptions)
    /// `dataconnect init [--template movies|blank] [--name NAME] DIR`
    case initProject(InitOptions)
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
}

/// Options of `dataconnect emulator`.
struct EmulatorOptions: Equatable {
    var backend = "."
    var host = "127.0.0.1"
    var port: UInt16 = 9399
    var dataDirectory: String?
    var seedFile: String?
    var importDirectory: String?
    var exportOnExit: String?
    var watch = true
    /// `--allow-host`: further names requests may give in `Host`.
    var allowedHosts: [String] = []
    /// `--allow-origin`: further web origins whose pages may call the emulator.
    var allowedOrigins: [String] = []
    /// `--max-selected-fields`, `--max-depth`, `--max-aliases`: bounds on each operation's merged selection.
    var limits = OperationLimits.default
    /// `--max-filter-terms`, `--request-timeout`: bounds on each request's execution.
    var executionLimits = ExecutionLimits.default
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

/// A command-line usage error: printed with the usage text, exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The commands `dataconnect help` knows about.
/// (`init` has help too; it is left out of this list, whose wording the "no help" message quotes.)
let helpTopics = ["validate", "generate", "init", "emulator", "execute"]

/// Parses the arguments after the program name into a ``Command``.
///
/// A pure function so it can be tested without starting a process.
///
/// - Throws: ``UsageError`` for unknown commands or options and missing values.
func parseCommandLine(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(topic: nil) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "-h", "--help", "help":
        if let topic = rest.first, !helpTopics.contains(topic), topic != "init" {
            throw UsageError(message: "no help for \"\(topic)\"; commands: \(helpTopics.joined(separator: ", "))")
        }
        return .help(topic: rest.first)
    case "--version", "version":
        return .version
    case "validate":
        var options = ValidateOptions()
        var index = 0
        while index < rest.count {
            let argument = rest[index]
            switch argument {
            case "--backend", "--config_dir", "--config-dir":
                guard index + 1 < rest.count else { throw UsageError(message: "\(argument) needs a directory") }
                options.backend = rest[index + 1]
                index += 1
            case "--print-sdl": options.printSDL = true
            case "--prelude": options.includePrelude = true
            case "--quiet", "-q": options.quiet = true
            case "-h", "--help": return .help(topic: "validate")
            default:
                if argument.hasPrefix("--backend=") {
                    options.backend = String(argument.dropFirst("--backend=".count))
                } else {
                    throw UsageError(message: "unknown option \"\(argument)\" for validate")
                }
            }
            index += 1
        }
        return .validate(options)
    case "emulator", "dev":
        var options = EmulatorOptions()
        var reader = ArgumentReader(rest, command: "emulator")
        while let argument = reader.next() {
            switch argument {
            case "--backend", "--config_dir", "--config-dir": options.backend = try reader.value(for: argument)
            case "--host": options.host = try reader.value(for: argument)
            case "--port":
                let text = try reader.value(for: argument)
                guard let port = UInt16(text) else {
                    throw UsageError(message: "--port needs a number from 0 to 65535, got \"\(text)\"")
                }
                options.port = port
            case "--listen":
                let text = try reader.value(for: argument)
                guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
                    throw UsageError(message: "--listen needs HOST:PORT, got \"\(text)\"")
                }
                options.host = String(text[..<colon])
                options.port = port
            case "--data-dir": options.dataDirectory = try reader.value(for: argument)
            case "--seed": options.seedFile = try reader.value(for: argument)
            case "--import": options.importDirectory = try reader.value(for: argument)
            case "--export-on-exit": options.exportOnExit = try reader.value(for: argument)
            case "--no-watch": options.watch = false
            case "--allow-host":
                let text = try reader.value(for: argument)
                guard RequestOriginPolicy.normalizedAllowedHost(text) != nil else {
                    throw UsageError(
                        message: "--allow-host needs a host name or address such as devbox.local, .example.test "
                            + "or 192.168.1.5, got \"\(text)\"")
                }
                options.allowedHosts.append(text)
            case "--allow-origin":
                let text = try reader.value(for: argument)
                guard RequestOriginPolicy.normalizedOrigin(text) != nil else {
                    throw UsageError(
                        message: "--allow-origin needs scheme://host[:port] such as http://devbox.local:3000, "
                            + "got \"\(text)\"")
                }
                options.allowedOrigins.append(text)
            case "--max-selected-fields":
                options.limits.maxSelectedFields = try reader.positiveInteger(for: argument)
            case "--max-depth": options.limits.maxDepth = try reader.positiveInteger(for: argument)
            case "--max-aliases": options.limits.maxAliases = try reader.positiveInteger(for: argument)
            case "--max-filter-terms":
                options.executionLimits.maximumFilterTerms = try reader.positiveInteger(for: argument)
            case "--request-timeout":
                let text = try reader.value(for: argument)
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw UsageError(
                        message: "--request-timeout needs a number of seconds from 0 to 86400, got \"\(text)\"")
                }
                options.executionLimits.requestTimeout = .milliseconds(Int64((seconds * 1_000).rounded(.up)))
            case "-h", "--help": return .help(topic: "emulator")
            default: throw UsageError(message: "unknown option \"\(argument)\" for emulator")
            }
        }
        return .emulator(options)
    case "execute":
        var options = ExecuteOptions()
        var reader = ArgumentReader(rest, command: "execute")
        while let argument = reader.next() {
            switch argument {
            case "--emulator": options.emulator = try reader.value(for: argument)
            case "--vars", "--variables": options.variables = try reader.value(for: argument)
            case "--operation", "--operation-name": options.operationName = try reader.value(for: argument)
            case "-h", "--help": return .help(topic: "execute")
            default:
                if argument.hasPrefix("-") { throw UsageError(message: "unknown option \"\(argument)\" for execute") }
                guard options.file.isEmpty else {
                    throw UsageError(message: "execute takes one file, got \"\(argument)\" too")
                }
                options.file = argument
            }
        }
        guard !options.file.isEmpty else { throw UsageError(message: "execute needs a .gql file") }
        return .execute(options)
    case "generate", "sdk":
        var options = GenerateOptions()
        var reader = ArgumentReader(rest, command: "generate")
        while let argument = reader.next() {
            switch argument {
            case "generate" where first == "sdk" && reader.index == 1: continue
            case "--backend", "--config_dir", "--config-dir": options.backend = try reader.value(for: argument)
            case "--watch": options.watch = true
            case "--check": options.check = true
            case "-h", "--help": return .help(topic: "generate")
            default:
                if argument.hasPrefix("--config_dir=") || argument.hasPrefix("--backend=") {
                    options.backend = String(argument[argument.index(after: argument.firstIndex(of: "=")!)...])
                } else {
                    throw UsageError(message: "unknown option \"\(argument)\" for generate")
                }
            }
        }
        if options.watch && options.check {
            throw UsageError(message: "--watch and --check cannot be combined")
        }
        return .generate(options)
    case "init":
        var options = InitOptions()
        var reader = ArgumentReader(rest, command: "init")
        while let argument = reader.next() {
            switch argument {
            case "--template", "-t": options.template = try reader.value(for: argument)
            case "--name": options.name = try reader.value(for: argument)
            case "-h", "--help": return .help(topic: "init")
            default:
                if argument.hasPrefix("--template=") {
                    options.template = String(argument.dropFirst("--template=".count))
                } else if argument.hasPrefix("--name=") {
                    options.name = String(argument.dropFirst("--name=".count))
                } else if argument.hasPrefix("-") {
                    throw UsageError(message: "unknown option \"\(argument)\" for init")
                } else {
                    guard options.directory.isEmpty else {
                        throw UsageError(message: "init takes one directory, got \"\(argument)\" too")
                    }
                    options.directory = argument
                }
            }
        }
        guard InitCommand.templates.contains(options.template) else {
            throw UsageError(
                message:
                    "unknown template \"\(options.template)\"; templates: \(InitCommand.templates.joined(separator: ", "))"
            )
        }
        if let name = options.name, InitCommand.sanitizedName(name) == nil {
            throw UsageError(message: "--name needs letters or digits, got \"\(name)\"")
        }
        guard !options.directory.isEmpty else { throw UsageError(message: "init needs a directory") }
        return .initProject(options)
    default:
        throw UsageError(message: "unknown command \"\(first)\"")
    }
}

/// Walks option arguments, handing out the value after an option.
struct ArgumentReader {
    let arguments: [String]
    let command: String
    var index = 0

    init(_ arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
    }

    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    mutating func value(for option: String) throws(UsageError) -> String {
        guard index < arguments.count else { throw UsageError(message: "\(option) needs a value") }
        defer { index += 1 }
        return arguments[index]
    }

    /// The next argument as a whole number of at least 1.
    mutating func positiveInteger(for option: String) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let number = Int(text), number >= 1 else {
            throw UsageError(message: "\(option) needs a whole number of at least 1, got \"\(text)\"")
        }
        return number
    }
}

/// The help text for a topic.
func usage(_ topic: String?) -> String {
    switch topic {
    case "init":
        return """
            usage: dataconnect init [--template blank|movies] [--name NAME] DIR

            Creates a project in DIR (which must be missing or empty) from a template in this repository's
            Templates/ folder, generates its Swift SDK, and prints the next steps. The project has:
              dataconnect/         dataconnect.yaml, schema/schema.gql, connector/ and seed_data.gql
              Generated/<Package>/ the typed Swift SDK, generated now so the app builds at once
              App/                 a command-line app that lists rows, inserts one and lists them again
              Makefile             `make run` (emulator with seed data + the app) and `make test`
              README.md, firebase.json

              --template T, -t T   blank (default): one Note table with list/get/create/update/delete;
                                   movies: Movie, Actor and MovieActor with queries, mutations and seed data
              --name NAME          the service and connector id (default: DIR's last path component),
                                   reduced to lowercase letters, digits and dashes

            The generated package and the app depend on the core SDK by absolute path: this repository's
            Packages/DataConnect, found from the running executable, or DATACONNECT_SDK_PATH when set
            (DATACONNECT_TEMPLATES overrides the Templates folder).

            Exit status: 0 when created, 1 when DIR is not empty or generation fails, 2 on a usage error.
            """
    case "validate":
        return """
            usage: dataconnect validate [--backend DIR] [--print-sdl] [--prelude] [--quiet]

            Loads DIR/dataconnect.yaml, compiles the schema, generates its GraphQL API and type-checks every
            connector operation against it. Problems are printed as `file:line:col: error: message`.

              --backend DIR   the folder holding dataconnect.yaml (default: the current folder)
              --print-sdl     print the generated GraphQL API as SDL on standard output
              --prelude       with --print-sdl, also print the built-in prelude
              --quiet, -q     print only diagnostics, no summary

            Exit status: 0 when valid (warnings allowed), 1 when there are errors, 2 on a usage error.
            """
    case "generate":
        return """
            usage: dataconnect generate [--backend DIR] [--watch | --check]

            Validates the backend, then writes one Swift package per `generate.swiftSdk` entry of each
            connector.yaml to <outputDir>/<package>/ (paths relative to the connector's folder): Package.swift,
            README.md and Sources/<Connector>{Client,Keys,Operations}.swift. Only files whose contents change
            are rewritten. `sdk generate` is accepted as a synonym.

              --backend DIR   the folder holding dataconnect.yaml (default: the current folder)
              --watch         keep running; regenerate after each saved .gql or .yaml change, print the
                              diagnostics of a broken file and keep watching; stop with Ctrl-C
              --check         write nothing; list the files that a generation would change

            Exit status: 0 when generated (or, with --check, up to date), 1 on errors or differences,
            2 on a usage error.
            """
    case "emulator":
        return """
            usage: dataconnect emulator [--backend DIR] [--host 127.0.0.1] [--port 9399] [--data-dir DIR]
                                        [--seed FILE] [--import DIR] [--export-on-exit DIR] [--no-watch]
                                        [--allow-host HOST]... [--allow-origin ORIGIN]...
                                        [--max-selected-fields N] [--max-depth N] [--max-aliases N]
                                        [--max-filter-terms N] [--request-timeout SECONDS]

            Serves the backend's connectors and admin GraphQL over HTTP, executing them on SQLite. The data
            lives in memory unless --data-dir is given (WAL, survives restarts). Prints one `ready <url>` line
            when it serves; reloads when a schema or connector file changes (keeping the last good version
            when the new one has errors); stops cleanly on SIGINT and SIGTERM.

              --backend DIR          the folder holding dataconnect.yaml (default: the current folder)
              --host, --port         where to listen (default 127.0.0.1:9399; --port 0 picks a free port)
              --data-dir DIR         keep the database in DIR/dataconnect.sqlite
              --seed FILE            run an admin GraphQL file (such as seed_data.gql) after start
              --import DIR           load DIR/dataconnect_export/sqlite.db at start
              --export-on-exit DIR   write DIR/dataconnect_export/sqlite.db when stopping
              --no-watch             do not reload on file changes
              --allow-host HOST      also answer requests whose Host is HOST (repeatable; .example.test
                                     admits its subdomains too). By default only loopback names
                                     (localhost, *.localhost, 127.0.0.0/8, [::1]) and the --host address
                                     are answered (with --host 0.0.0.0, any IP address too); others get 403
              --allow-origin ORIGIN  let web pages of ORIGIN (scheme://host[:port]) call the client and the
                                     admin API (repeatable). By default loopback pages may call the client
                                     API (:executeQuery, :executeMutation, :subscribe) and only the
                                     emulator's own origin the admin API (/emulator/*, :executeGraphql*,
                                     :impersonate*); other pages get 403

            Requests without an Origin header (SDKs, curl, test suites) are never refused for their origin.

            Limits (a request over one is refused with 400 INVALID_ARGUMENT naming it, before any SQL runs):
              --max-selected-fields N  fields of an operation once fragments are merged (default 5000)
              --max-depth N            nesting of those fields (default 32)
              --max-aliases N          aliased fields (default 1000)
              --max-filter-terms N     fields and operators in one statement's where/having (default 1000)
              --request-timeout S      seconds a request may run in the database (default 30); past it the
                                       request is stopped with 504 DEADLINE_EXCEEDED
            """
    case "execute":
        return """
            usage: dataconnect execute FILE.gql [--emulator HOST:PORT] [--vars JSON] [--operation NAME]

            Runs an admin GraphQL document (any query or mutation against the generated API, no @auth) on a
            running emulator and prints the JSON response. Exit status 1 when the response has errors.
            """
    default:
        return """
            usage: dataconnect <command> [options]

            Commands:
              init        create a project (backend, generated SDK, app, Makefile) from a template
              validate    check a backend's schema and connector operations
              generate    write the typed Swift package of each connector
              emulator    serve a backend locally over HTTP on SQLite
              execute     run an admin GraphQL file on a running emulator
              help        show help for a command

            Run `dataconnect help <command>` for a command's options.
            """
    }
}
