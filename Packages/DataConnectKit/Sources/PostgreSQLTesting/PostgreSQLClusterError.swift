/// Why a throwaway or development PostgreSQL cluster could not be made, started or stopped.
///
/// The message says what failed and, when a server program failed, ends with its output or the tail of the
/// server log, so that a failing test explains itself.
public struct PostgreSQLClusterError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, possibly over several lines.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String {
        message
    }

    /// The server programs are missing, with how to install them.
    static func notInstalled(searched: [String]) -> PostgreSQLClusterError {
        PostgreSQLClusterError(
            """
            PostgreSQL is not installed: no initdb and pg_ctl in \(searched.joined(separator: ", ")). \
            Install the server with `apt-get install postgresql` (or run `make bootstrap`).
            """)
    }
}
