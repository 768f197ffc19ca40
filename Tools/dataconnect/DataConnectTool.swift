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
            exit(ValidateCommand.run(options))
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

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
