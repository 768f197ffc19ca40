import DataConnectSchema
import Foundation
import GraphQLLanguage

/// The `dataconnect` command-line tool.
@main
struct DataConnectTool {
    /// The tool's version.
    static let version = "0.1.0"

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let command: Command
        do {
            command = try parseCommandLine(arguments)
        } catch {
            printError("dataconnect: \(error.message)\n\n\(usage(nil))")
            exit(2)
        }
        switch command {
        case .help(let topic):
            print(usage(topic))
        case .version:
            print("dataconnect \(version)")
        case .validate(let options):
            exit(validate(options))
        case .emulator(let options):
            exit(EmulatorCommand.run(options))
        case .execute(let options):
            exit(ExecuteCommand.run(options))
        case .generate(let options):
            exit(GenerateCommand.run(options))
        case .initProject(let options):
            exit(InitCommand.run(options))
        case .sql(let options):
            exit(SQLCommand.run(options))
        }
    }

    /// Runs `dataconnect validate`; returns the exit status.
    static func validate(_ options: ValidateOptions) -> Int32 {
        let (service, diagnostics) = ServiceCompiler.compile(backendDirectory: options.backend)
        for diagnostic in diagnostics {
            printError(diagnostic.description)
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        if let service, options.printSDL {
            print(service.api.sdl(includePrelude: options.includePrelude), terminator: "")
        }
        if !options.quiet {
            if let service, errors == 0 {
                let operations = service.connectors.reduce(0) { $0 + $1.validated.operations.count }
                printError(
                    "\(options.backend): valid: \(service.api.model.tables.count) tables, \(service.connectors.count) connector(s), \(operations) operations, \(warnings) warning(s)"
                )
            } else {
                printError("\(options.backend): \(errors) error(s), \(warnings) warning(s)")
            }
        }
        return errors == 0 ? 0 : 1
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
