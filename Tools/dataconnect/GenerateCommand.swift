import ArgumentParsing
import DataConnectCodegen
import DataConnectEmulator
import DataConnectEngine
import DataConnectSchema
import EmulatorHTTP
import Foundation

/// `dataconnect generate`: validate the backend, then write (or check) the generated Swift packages.
enum GenerateCommand {
    /// Runs the command; returns the exit status.
    static func run(_ options: GenerateOptions) -> Int32 {
        guard options.watch else { return generateOnce(options) }
        // Before the watcher's thread starts, so it inherits the blocked mask (see StopSignals).
        StopSignals.block()
        _ = generateOnce(options)
        guard
            let watcher = BackendWatcher(
                directory: options.backend,
                onChange: {
                    _ = generateOnce(options)
                })
        else {
            DataConnectTool.printError("dataconnect: cannot watch \(options.backend) (inotify unavailable)")
            return 1
        }
        watcher.start()
        DataConnectTool.printError("watching \(options.backend) for changes; Ctrl-C stops")
        StopSignals.wait()
        watcher.stop()
        DataConnectTool.printError("stopped")
        return 0
    }

    /// A warning for each `swiftSdk` entry pinned to another toolkit version than this generator's: the generated
    /// code is made for this version's SDK, and may not compile against the pinned one.
    static func versionMismatches(_ service: CompiledService) -> [String] {
        var warnings: [String] = []
        for connector in service.connectors {
            for sdk in connector.sources.manifest.swiftSDKs {
                guard let pinned = sdk.coreSdkVersion, pinned != ToolkitVersion.current else { continue }
                warnings.append(
                    "\(PackagePaths.join(connector.sources.directory, "connector.yaml")):\(sdk.location.line):\(sdk.location.column): warning: the project is pinned to the dataconnect SDK \(pinned), but this is dataconnect \(ToolkitVersion.current): the generated code is made for \(ToolkitVersion.current). Run `dataconnect upgrade` to re-pin the project, or run dataconnect-\(pinned)"
                )
            }
        }
        return warnings
    }

    /// One generation (or check); returns the exit status.
    static func generateOnce(_ options: GenerateOptions) -> Int32 {
        let start = ContinuousClock.now
        let (service, compilerDiagnostics) = ServiceCompiler.compile(backendDirectory: options.backend)
        var diagnostics = compilerDiagnostics
        // What the emulator would refuse to start on (CEL, compilation to SQL) is not generated either.
        if let compiled = service, !diagnostics.contains(where: { $0.severity == .error }) {
            diagnostics += StartChecks.diagnostics(for: compiled, dialect: StoreConfiguration.startCheckDialect)
        }
        for diagnostic in diagnostics {
            DataConnectTool.printError(diagnostic.description)
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        guard let service, errors == 0 else {
            DataConnectTool.printError("\(options.backend): \(errors) error(s); nothing generated")
            return 1
        }
        for warning in versionMismatches(service) { DataConnectTool.printError(warning) }
        let (packages, failures) = PackagePlanner.plan(service: service)
        for failure in failures {
            DataConnectTool.printError(failure.description)
        }
        if packages.isEmpty && failures.isEmpty {
            DataConnectTool.printError(
                "\(options.backend): no connector.yaml has a generate.swiftSdk entry; nothing to generate")
        }
        var status: Int32 = failures.isEmpty ? 0 : 1
        for package in packages {
            if options.check {
                let changed = package.differences()
                if changed.isEmpty {
                    DataConnectTool.printError("\(package.directory): up to date")
                } else {
                    status = 1
                    for (path, diff) in changed {
                        DataConnectTool.printError(
                            "\(PackagePaths.join(package.directory, path)): error: out of date; run `dataconnect generate`"
                        )
                        DataConnectTool.printError(diff)
                    }
                }
                continue
            }
            do {
                let report = try package.write()
                let elapsed = ContinuousClock.now - start
                let milliseconds =
                    Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
                var summary =
                    "\(package.directory): \(report.written.count) written, \(report.unchanged.count) unchanged"
                if !report.removed.isEmpty { summary += ", \(report.removed.count) stale removed" }
                summary += String(format: " (%.1f ms)", milliseconds)
                DataConnectTool.printError(summary)
            } catch {
                DataConnectTool.printError("\(package.directory): error: \(error.localizedDescription)")
                status = 1
            }
        }
        return status
    }
}

// MARK: - Options

/// Options of `dataconnect generate`.
struct GenerateOptions: Equatable {
    var backend = "."
    /// Keep running and regenerate after every saved change.
    var watch = false
    /// Write nothing; exit 1 when the generated packages on disk differ from a fresh generation.
    var check = false
}

extension GenerateOptions {
    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
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
