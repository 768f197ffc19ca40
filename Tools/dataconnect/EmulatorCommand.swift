import DataConnectEmulator
import EmulatorHTTP
import Foundation

/// `dataconnect emulator`: serve until SIGINT or SIGTERM.
enum EmulatorCommand {
    /// The environment variable firebase-tools reads for an external PostgreSQL database.
    static let postgreSQLVariable = "FIREBASE_DATACONNECT_POSTGRESQL_STRING"

    /// The project the Auth emulator's key-based calls act on: `--project`, else `$FIREBASE_PROJECT_ID`, else
    /// `$GCLOUD_PROJECT`, else `demo-project`.
    ///
    /// - Parameters:
    ///   - option: The `--project` value, if given.
    ///   - environment: The process environment.
    /// - Returns: The project id.
    static func projectID(_ option: String?, environment: [String: String]) -> String {
        if let option { return option }
        for name in ["FIREBASE_PROJECT_ID", "GCLOUD_PROJECT"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return "demo-project"
    }

    static func run(_ options: EmulatorOptions) -> Int32 {
        // Before any thread starts, so every thread inherits the mask (see StopSignals).
        StopSignals.block()
        // A process-wide setting, so here rather than in the library: a request's memory is reused, not returned to
        // the kernel and faulted back in by the next one (ServerAllocator).
        ServerAllocator.keepWorkingMemory()
        let log: @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let emulator: Emulator
        // As firebase-tools: the environment names an external PostgreSQL database unless --postgres does.
        var postgreSQL = options.postgreSQL
        if postgreSQL == nil, options.dataDirectory == nil,
            let environment = ProcessInfo.processInfo.environment[Self.postgreSQLVariable], !environment.isEmpty
        {
            postgreSQL = environment
        }
        do {
            emulator = try Emulator(
                options: Emulator.Options(
                    backend: options.backend, host: options.host, port: options.port,
                    dataDirectory: options.dataDirectory, postgreSQL: postgreSQL, seedFile: options.seedFile,
                    importDirectory: options.importDirectory, exportOnExit: options.exportOnExit,
                    watch: options.watch, log: log, allowedHosts: options.allowedHosts,
                    allowedOrigins: options.allowedOrigins, limits: options.limits,
                    executionLimits: options.executionLimits, console: options.console, auth: options.auth,
                    authPort: options.authPort,
                    projectID: Self.projectID(options.projectID, environment: ProcessInfo.processInfo.environment),
                    slowLaneCapacity: options.slowLaneCapacity, embeddings: options.embeddings))
            try emulator.start()
        } catch {
            // A refused backend or seed file prints the `file:line:col: error:` lines `dataconnect validate` prints.
            log(error.diagnostics.isEmpty ? "error: \(error.message)" : error.message)
            return 1
        }
        if options.console {
            log(
                "console: \(emulator.url)/ (schema, data, operations, GraphQL, realtime, requests; "
                    + "--no-console turns it off)")
        }
        if let authURL = emulator.authEmulatorURL, let auth = emulator.auth {
            log(
                "auth: \(authURL) (Firebase Auth emulator, project \(auth.defaultProjectID); connect the SDKs' "
                    + "useEmulator to it, --no-auth turns it off)")
        }
        FileHandle.standardOutput.write(Data("ready \(emulator.url)\n".utf8))
        StopSignals.wait()
        log("stopping")
        emulator.stop()
        log("stopped")
        return 0
    }
}
