import DataConnectWire

/// Why a request cannot run: a value that does not fit, an expression that fails.
struct ExecutionError: Error, Sendable {
    let code: StatusCode
    let message: String
    /// Whether the whole request fails with the error's status (a limit, a shape the database refuses, the
    /// time limit) instead of a GraphQL error beside partial data.
    var isRequestLevel = false
    /// Whether it comes from a ``PlanError`` that only the emulator has (see ``PlanError/isEmulatorLimitation``).
    var isEmulatorLimitation = false
    /// The database's message when the error means the database is damaged (see ``StorageHealth``).
    var damage: String?
    /// The database's message when the error means the database could not be reached.
    var unreachable: String?

    init(code: StatusCode, message: String, isRequestLevel: Bool = false) {
        self.code = code
        self.message = message
        self.isRequestLevel = isRequestLevel
    }

    static func invalid(_ message: String) -> ExecutionError {
        ExecutionError(code: .invalidArgument, message: message)
    }

    /// A value the request gave that no database could use (a vector of the wrong size, a search query that
    /// does not parse): the request is refused with 400, as for a variable of the wrong type.
    static func badInput(_ message: String) -> ExecutionError {
        ExecutionError(code: .invalidArgument, message: message, isRequestLevel: true)
    }
}
