import ArgumentParsing
import DataConnectEmulator
import DataConnectEngine
import DataConnectSchema
import Foundation
import GraphQLLanguage

/// `dataconnect validate`: check a backend as the emulator checks it at start, without serving it.
enum ValidateCommand {
    /// Runs `dataconnect validate`; returns the exit status.
    ///
    /// The stages: the front end (``ServiceCompiler``), then the checks the emulator runs at start
    /// (``StartChecks``: CEL and compilation to SQL), then the seed file (`--seed`, or `DIR/seed_data.gql` when it
    /// exists) as the emulator checks it before running it. So `validate` refuses what the emulator refuses.
    static func run(_ options: ValidateOptions) -> Int32 {
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
            DataConnectTool.printError(diagnostic.description)
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        if let service, options.printSDL {
            print(service.api.sdl(includePrelude: options.includePrelude), terminator: "")
        }
        if !options.quiet {
            if let service, errors == 0 {
                let operations = service.connectors.reduce(0) { $0 + $1.validated.operations.count }
                DataConnectTool.printError(
                    "\(options.backend): valid: \(service.api.model.tables.count) tables, \(service.connectors.count) connector(s), \(operations) operations, \(warnings) warning(s)"
                )
            } else {
                DataConnectTool.printError("\(options.backend): \(errors) error(s), \(warnings) warning(s)")
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
}

// MARK: - Options

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

extension ValidateOptions {
    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
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
