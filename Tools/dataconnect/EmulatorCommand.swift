import ArgumentParsing
import DataConnectEmulator
import DataConnectEngine
import DataConnectSchema
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
                    watch: options.watch, threads: options.threads ?? HTTPServer.Configuration.onlineCoreCount,
                    log: log, allowedHosts: options.allowedHosts,
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

// MARK: - Options

/// Options of `dataconnect emulator`.
struct EmulatorOptions: Equatable {
    /// `--backend`; `nil` with `--no-backend`: serve nothing until `POST /emulator/configure` names a folder.
    var backend: String? = "."
    var host = "127.0.0.1"
    var port: UInt16 = 9399
    var dataDirectory: String?
    /// `--postgres URL` (or `FIREBASE_DATACONNECT_POSTGRESQL_STRING`): serve from a PostgreSQL database instead of
    /// the embedded SQLite one.
    var postgreSQL: String?
    var seedFile: String?
    var importDirectory: String?
    var exportOnExit: String?
    var watch = true
    /// `--no-console` turns the browser console off.
    var console = true
    /// `--allow-host`: further names requests may give in `Host`.
    var allowedHosts: [String] = []
    /// `--allow-origin`: further web origins whose pages may call the emulator.
    var allowedOrigins: [String] = []
    /// `--no-auth` turns the Firebase Auth emulator off.
    var auth = true
    /// `--auth-port N`: also serve the Auth API alone on this port (firebase-tools' is 9099).
    var authPort: UInt16?
    /// `--project ID`; `nil` to read `FIREBASE_PROJECT_ID`, then `GCLOUD_PROJECT`, when the command runs.
    var projectID: String?
    /// `--max-selected-fields`, `--max-depth`, `--max-aliases`: bounds on each operation's merged selection.
    var limits = OperationLimits.default
    /// `--max-filter-terms`, `--request-timeout`, `--slow-lane-after`: bounds on each request's execution.
    var executionLimits = ExecutionLimits.default
    /// `--slow-lane N`: slow requests that may run at once; `nil` for the emulator's default.
    var slowLaneCapacity: Int?
    /// `--threads N`: the threads that serve connections and run requests; `nil` for one per online core.
    var threads: Int?
    /// `--embeddings vertex|hashing|URL` with `--embeddings-model` and `--embeddings-key-env`: the provider of
    /// `_embed` vectors, over `dataconnect.yaml`'s; `nil` to leave the choice to the file.
    var embeddings: EmbeddingsSetting?
}

extension EmulatorOptions {
    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse(
                [
                    backendOption, .value("--host"), .value("--port"), .value("--listen"), .value("--data-dir"),
                    .value("--postgres"),
                    .value("--seed"), .value("--import"), .value("--export-on-exit"), .flag("--no-watch"),
                    .flag("--no-backend"), .flag("--no-console"), .value("--allow-host"), .value("--allow-origin"),
                    .flag("--no-auth"), .value("--auth-port"), .value("--project"), .value("--max-selected-fields"),
                    .value("--max-depth"), .value("--max-aliases"), .value("--max-filter-terms"),
                    .value("--request-timeout"), .value("--slow-lane-after"), .value("--slow-lane"),
                    .value("--threads"),
                    .value("--embeddings", expecting: "vertex, hashing or a URL"),
                    .value("--embeddings-model", expecting: "NAME=MODEL"),
                    .value("--embeddings-key-env", expecting: "an environment variable's name"),
                ], command: "emulator")
        }
        if parsed.helpRequested { return .help(topic: "emulator") }
        if let extra = parsed.positionals.first { throw .unexpected(extra, for: "emulator") }
        var options = EmulatorOptions()
        var embeddingModels: [String: String] = [:]
        var embeddingsKeyVariable: String?
        for occurrence in parsed.occurrences {
            let option = occurrence.option
            let text = occurrence.value ?? ""
            switch option {
            case "--backend": options.backend = text
            case "--host": options.host = text
            case "--port":
                guard let port = UInt16(text) else {
                    throw UsageError(message: "--port needs a number from 0 to 65535, got \"\(text)\"")
                }
                options.port = port
            case "--listen":
                guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
                    throw UsageError(message: "--listen needs HOST:PORT, got \"\(text)\"")
                }
                options.host = String(text[..<colon])
                options.port = port
            case "--data-dir": options.dataDirectory = text
            case "--postgres":
                guard !text.isEmpty else {
                    throw UsageError(message: "--postgres needs a connection URL such as postgres://127.0.0.1:5432/db")
                }
                options.postgreSQL = text
            case "--seed": options.seedFile = text
            case "--import": options.importDirectory = text
            case "--export-on-exit": options.exportOnExit = text
            case "--no-watch": options.watch = false
            case "--no-backend": options.backend = nil
            case "--no-console": options.console = false
            case "--no-auth": options.auth = false
            case "--auth-port":
                guard let port = UInt16(text) else {
                    throw UsageError(message: "--auth-port needs a number from 0 to 65535, got \"\(text)\"")
                }
                options.authPort = port
            case "--project":
                guard !text.isEmpty, !text.contains("/") else {
                    throw UsageError(message: "--project needs a project id such as demo-project, got \"\(text)\"")
                }
                options.projectID = text
            case "--allow-host":
                guard RequestOriginPolicy.normalizedAllowedHost(text) != nil else {
                    throw UsageError(
                        message: "--allow-host needs a host name or address such as devbox.local, .example.test "
                            + "or 192.168.1.5, got \"\(text)\"")
                }
                options.allowedHosts.append(text)
            case "--allow-origin":
                guard RequestOriginPolicy.normalizedOrigin(text) != nil else {
                    throw UsageError(
                        message: "--allow-origin needs scheme://host[:port] such as http://devbox.local:3000, "
                            + "got \"\(text)\"")
                }
                options.allowedOrigins.append(text)
            case "--max-selected-fields": options.limits.maxSelectedFields = try positiveInteger(text, for: option)
            case "--max-depth": options.limits.maxDepth = try positiveInteger(text, for: option)
            case "--max-aliases": options.limits.maxAliases = try positiveInteger(text, for: option)
            case "--max-filter-terms":
                options.executionLimits.maximumFilterTerms = try positiveInteger(text, for: option)
            case "--request-timeout":
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw UsageError(
                        message: "--request-timeout needs a number of seconds from 0 to 86400, got \"\(text)\"")
                }
                options.executionLimits.requestTimeout = .milliseconds(Int64((seconds * 1_000).rounded(.up)))
            case "--slow-lane-after":
                guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
                    throw UsageError(
                        message: "--slow-lane-after needs a number of seconds from 0 to 86400, got \"\(text)\"")
                }
                options.executionLimits.slowLaneAfter = .milliseconds(Int64((seconds * 1_000).rounded(.up)))
            case "--slow-lane": options.slowLaneCapacity = try positiveInteger(text, for: option)
            case "--threads":
                guard let threads = Int(text), (1...Self.maximumThreads).contains(threads) else {
                    throw UsageError(
                        message: "--threads needs a whole number from 1 to \(Self.maximumThreads), got \"\(text)\"")
                }
                options.threads = threads
            case "--embeddings":
                do {
                    options.embeddings = try EmbeddingsSetting(parsing: text)
                } catch {
                    throw UsageError(
                        message: "--embeddings needs vertex, hashing or an http:// or https:// URL, got \"\(text)\"")
                }
            case "--embeddings-model":
                guard let equals = text.firstIndex(of: "="), equals != text.startIndex,
                    text.index(after: equals) != text.endIndex
                else {
                    throw UsageError(
                        message:
                            "--embeddings-model needs NAME=MODEL, such as textembedding-gecko@003=nomic-embed-text, "
                            + "got \"\(text)\"")
                }
                embeddingModels[String(text[..<equals])] = String(text[text.index(after: equals)...])
            case "--embeddings-key-env":
                guard EmbeddingsSetting.isVariableName(text) else {
                    throw UsageError(
                        message: "--embeddings-key-env needs an environment variable's name (letters, digits and _), "
                            + "got \"\(text)\"")
                }
                embeddingsKeyVariable = text
            default: break
            }
        }
        if !embeddingModels.isEmpty || embeddingsKeyVariable != nil {
            guard case .http(let url, _, _)? = options.embeddings else {
                let flag = embeddingModels.isEmpty ? "--embeddings-key-env" : "--embeddings-model"
                throw UsageError(message: "\(flag) applies to an embeddings server: give --embeddings URL too")
            }
            options.embeddings = .http(url: url, models: embeddingModels, apiKeyVariable: embeddingsKeyVariable)
        }
        if !options.auth, options.authPort != nil {
            throw UsageError(message: "--auth-port serves the Auth emulator; it cannot be combined with --no-auth")
        }
        if options.postgreSQL != nil, options.dataDirectory != nil {
            throw UsageError(
                message: "--data-dir keeps an SQLite database; it cannot be combined with --postgres (the data "
                    + "lives in the PostgreSQL server)")
        }
        return .emulator(options)
    }

    /// An option's value as a whole number of at least 1.
    /// The most `--threads` accepts: each is a thread of its own, with a stack.
    static let maximumThreads = 256

    private static func positiveInteger(_ text: String, for option: String) throws(UsageError) -> Int {
        guard let number = Int(text), number >= 1 else {
            throw UsageError(message: "\(option) needs a whole number of at least 1, got \"\(text)\"")
        }
        return number
    }
}
