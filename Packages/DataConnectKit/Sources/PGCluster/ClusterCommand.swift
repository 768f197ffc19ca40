/// What `pg-cluster` was asked to do, parsed from its arguments.
enum ClusterCommand: Equatable {
    /// `pg-cluster start <dir> [--port N]`.
    case start(directory: String, port: Int)
    /// `pg-cluster stop <dir>`.
    case stop(directory: String)
    /// `pg-cluster help`, `-h`, `--help`.
    case help

    /// The usage text.
    static let usage = """
        usage: pg-cluster start <dir> [--port N]   start (creating if missing) a PostgreSQL cluster in <dir>
               pg-cluster stop <dir>               stop the cluster in <dir>
        """

    /// Parses the arguments after the program name.
    ///
    /// - Throws: A message for arguments that do not form a command.
    static func parse(_ arguments: [String]) throws(UsageError) -> ClusterCommand {
        guard let verb = arguments.first else { throw UsageError("missing command") }
        var rest = Array(arguments.dropFirst())
        switch verb {
        case "help", "-h", "--help":
            return .help
        case "start":
            var port = 5432
            if let index = rest.firstIndex(where: { $0 == "--port" || $0.hasPrefix("--port=") }) {
                let value: String
                if rest[index] == "--port" {
                    guard index + 1 < rest.count else { throw UsageError("--port needs a number") }
                    value = rest[index + 1]
                    rest.removeSubrange(index...index + 1)
                } else {
                    value = String(rest[index].dropFirst("--port=".count))
                    rest.remove(at: index)
                }
                guard let number = Int(value), (1...65_535).contains(number) else {
                    throw UsageError("invalid port \(value)")
                }
                port = number
            }
            guard rest.count == 1, let directory = rest.first, !directory.hasPrefix("-") else {
                throw UsageError("start takes one directory")
            }
            return .start(directory: directory, port: port)
        case "stop":
            guard rest.count == 1, let directory = rest.first, !directory.hasPrefix("-") else {
                throw UsageError("stop takes one directory")
            }
            return .stop(directory: directory)
        default:
            throw UsageError("unknown command \(verb)")
        }
    }
}

/// Arguments `pg-cluster` cannot make sense of.
struct UsageError: Error {
    /// What is wrong with them.
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
