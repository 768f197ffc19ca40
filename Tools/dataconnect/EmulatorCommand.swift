import DataConnectEmulator
import EmulatorHTTP
import Foundation

/// `dataconnect emulator`: serve until SIGINT or SIGTERM.
enum EmulatorCommand {
    static func run(_ options: EmulatorOptions) -> Int32 {
        // Before any thread starts, so every thread inherits the mask (see StopSignals).
        StopSignals.block()
        let log: @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let emulator: Emulator
        do {
            emulator = try Emulator(
                options: Emulator.Options(
                    backend: options.backend, host: options.host, port: options.port,
                    dataDirectory: options.dataDirectory, seedFile: options.seedFile,
                    importDirectory: options.importDirectory, exportOnExit: options.exportOnExit,
                    watch: options.watch, log: log, allowedHosts: options.allowedHosts,
                    allowedOrigins: options.allowedOrigins, limits: options.limits,
                    executionLimits: options.executionLimits))
            try emulator.start()
        } catch {
            log("error: \(error.message)")
            return 1
        }
        FileHandle.standardOutput.write(Data("ready \(emulator.url)\n".utf8))
        StopSignals.wait()
        log("stopping")
        emulator.stop()
        log("stopped")
        return 0
    }
}
