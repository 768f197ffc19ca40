/// A parsed `dataconnect` command line.
enum Command: Equatable {
    /// `dataconnect validate [--backend DIR] [--print-sdl] [--prelude] [--quiet]`
    case validate(ValidateOptions)
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

/// A command-line usage error: printed with the usage text, exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The commands `dataconnect help` knows about.
let helpTopics = ["validate"]

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
        if let topic = rest.first, !helpTopics.contains(topic) {
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
    default:
        throw UsageError(message: "unknown command \"\(first)\"")
    }
}

/// The help text for a topic.
func usage(_ topic: String?) -> String {
    switch topic {
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
    default:
        return """
            usage: dataconnect <command> [options]

            Commands:
              validate    check a backend's schema and connector operations
              help        show help for a command

            Run `dataconnect help <command>` for a command's options.
            """
    }
}
