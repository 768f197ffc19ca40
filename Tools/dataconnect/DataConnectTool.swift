import DataConnectEmulator
import DataConnectEngine
import DataConnectSchema
import Foundation
import GraphQLLanguage

/// The `dataconnect` command-line tool.
@main
struct DataConnectTool {
    /// The tool's version: the toolkit's.
    static var version: String { ToolkitVersion.current }

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
            print(Installation.versionLine(executable: InitCommand.executablePath()))
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
        case .postgres(let options):
            exit(PostgresCommand.run(options))
        case .upgrade(let options):
            exit(UpgradeCommand.run(options))
        }
    }

    /// Runs `dataconnect validate`; returns the exit status.
    ///
    /// The stages: the front end (``ServiceCompiler``), then the checks the emulator runs at start
    /// (``StartChecks``: CEL and compilation to SQL), then the seed file (`--seed`, or `DIR/seed_data.gql` when it
    /// exists) as the emulator checks it before running it. So `validate` refuses what the emulator refuses.
    static func validate(_ options: ValidateOptions) -> Int32 {
        let (service, compiled) = ServiceCompiler.compile(backendDirectory: options.backend)
        var diagnostics = compiled
        if let service, !diagnostics.containsErrors {
            diagnostics += StartChecks.diagnostics(for: service, dialect: StoreConfiguration.startCheckDialect)
            if let seed = seedFile(options) {
                do {
                    let text = try String(contentsOfFile: seed, encoding: .utf8)
                    diagnostics += StartChecks.diagnostics(
                        forAdminDocument: Source(name: seed, text: text), service: service,
                        dialect: StoreConfiguration.startCheckDialect)
                } catch {
                    let message = "cannot read the seed file: \(error.localizedDescription)"
                    diagnostics.append(Diagnostic(file: seed, location: nil, message: message))
                }
            }
        }
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

    /// The seed file `validate` checks: `--seed`, or `DIR/seed_data.gql` when it exists.
    static func seedFile(_ options: ValidateOptions) -> String? {
        if let seed = options.seedFile { return seed }
        let conventional = options.backend + "/seed_data.gql"
        return FileManager.default.fileExists(atPath: conventional) ? conventional : nil
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
