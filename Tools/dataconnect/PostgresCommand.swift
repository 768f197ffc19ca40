import ArgumentParsing
import Foundation
import PostgreSQLTesting

/// `dataconnect postgres start|stop DIR`: a development PostgreSQL server kept in a directory.
///
/// The same cluster the repository's `make postgres` starts (`PostgreSQLCluster.start(persistentAt:port:)`), so a
/// project made by `dataconnect init` can run its backend on PostgreSQL without this repository: `start` prints the
/// URL for `dataconnect emulator --postgres URL`, and the server keeps running until `stop`.
enum PostgresCommand {
    /// Runs the command; returns the exit status.
    static func run(_ options: PostgresOptions) -> Int32 {
        do {
            switch options.action {
            case .start(let port):
                let cluster = try PostgreSQLCluster.start(persistentAt: options.directory, port: port)
                print(cluster.url)
            case .stop:
                let wasRunning = try PostgreSQLCluster.stop(persistentAt: options.directory)
                print(wasRunning ? "stopped \(options.directory)" : "no server running in \(options.directory)")
            }
            return 0
        } catch {
            DataConnectTool.printError("dataconnect postgres: error: \(error)")
            return 1
        }
    }
}

// MARK: - Options

/// Options of `dataconnect postgres`: a development PostgreSQL server kept in a directory.
struct PostgresOptions: Equatable {
    /// Start (creating the cluster when missing) or stop.
    enum Action: Equatable {
        /// `postgres start DIR [--port N]`
        case start(port: Int)
        /// `postgres stop DIR`
        case stop
    }

    var action: Action
    /// The cluster's directory.
    var directory: String
}

extension PostgresOptions {
    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        guard let verb = reader.remaining.first else {
            throw UsageError(message: "postgres needs a subcommand: start, stop")
        }
        if verb == "-h" || verb == "--help" { return .help(topic: "postgres") }
        guard verb == "start" || verb == "stop" else {
            throw UsageError(message: ArgumentError(.unknownCommand(verb, known: ["start", "stop"])).message)
        }
        _ = reader.next()
        let command = "postgres \(verb)"
        let options: [Option] = verb == "start" ? [.value("--port", expecting: "a port number")] : []
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse(options, command: command)
        }
        if parsed.helpRequested { return .help(topic: "postgres") }
        guard let directory = parsed.positionals.first else {
            throw UsageError(message: "\(command) needs a directory")
        }
        if let extra = parsed.positionals.dropFirst().first { throw .unexpected(extra, for: command) }
        guard verb == "start" else { return .postgres(PostgresOptions(action: .stop, directory: directory)) }
        var port = 5432
        if let text = parsed.value("--port") {
            guard let number = Int(text), (1...65_535).contains(number) else {
                throw UsageError(message: "--port needs a number from 1 to 65535, got \"\(text)\"")
            }
            port = number
        }
        return .postgres(PostgresOptions(action: .start(port: port), directory: directory))
    }
}
