import SQLiteKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension PooledConnection: StatementSource {
    /// The pooled connection's cached statement for `sql`.
    public func statement(_ sql: String) throws(DatabaseError) -> any DatabaseStatement {
        do {
            return try cachedStatement(sql)
        } catch {
            throw DatabaseError(error)
        }
    }

    /// Runs `sql` on the connection.
    public func execute(_ sql: String) throws(DatabaseError) {
        do {
            try connection.execute(sql)
        } catch {
            throw DatabaseError(error)
        }
    }

    /// Checks the budget every ``RequestBudget/checkInterval`` virtual-machine steps (SQLite's progress
    /// handler), interrupting the statement once the budget says to stop; an interrupt left by an earlier
    /// request is forgotten first.
    public func installBudget(_ budget: RequestBudget) {
        connection.clearInterrupt()
        connection.setProgressHandler(every: RequestBudget.checkInterval) { [budget, connection] in
            guard budget.shouldInterrupt() else { return false }
            // The SQL functions implemented in Swift stop too, from their next call.
            connection.interrupt()
            return true
        }
    }

    /// Removes the progress handler.
    public func removeBudget(_ budget: RequestBudget) {
        connection.setProgressHandler(every: 0, nil)
    }

    /// `sqlite3_interrupt`, and the flag the engine's SQL functions check.
    public var interrupter: @Sendable () -> Void {
        { [connection] in connection.interrupt() }
    }
}

extension Statement: DatabaseStatement {
    /// Binds the values in order.
    public func bindParameters(_ values: [SQLiteValue]) throws(DatabaseError) {
        do {
            try bind(values)
        } catch {
            throw DatabaseError(error)
        }
    }

    /// Steps to the next row.
    public func nextRow() throws(DatabaseError) -> Bool {
        do {
            return try step()
        } catch {
            throw DatabaseError(error)
        }
    }

    /// The column as SQLite stores it.
    public func storedValue(at index: Int) -> SQLiteValue {
        value(at: index)
    }

    /// The column's text bytes, copied.
    public func textBytes(at index: Int) -> [UInt8]? {
        unsafeText(at: index).map { Array($0) }
    }

    /// The connection's change count after the last statement.
    public var rowsChanged: Int { connection.changes }

    /// Resets the statement.
    public func finish() {
        reset()
    }
}

/// Prepares each connection once for the engine's SQL: case-sensitive `LIKE` (GraphQL string filters are
/// case-sensitive), the `dataconnect_regexp(pattern, text, flags)` function behind `pattern.regex`,
/// `dataconnect_float(x)`, the shortest JSON number that reads back as the same double (SQLite's JSON keeps
/// only 15 significant digits), and the two functions that mark text as JSON for SQLite's JSON functions
/// without parsing it again: `dataconnect_embed(x)` for JSON that SQLite wrote (a subquery's object),
/// `dataconnect_stored_json(x)`, checked, for JSON read from a column.
enum ConnectionSetup {
    /// A prepared connection, held weakly: once it is freed, a new connection may get the same address.
    struct PreparedConnection: Sendable {
        weak var connection: Connection?
    }

    static let prepared = Mutex<[ObjectIdentifier: PreparedConnection]>([:])

    static func prepare(_ connection: Connection) throws {
        let id = ObjectIdentifier(connection)
        let isNew = prepared.withLock { entries in
            if entries[id]?.connection === connection { return false }
            entries = entries.filter { $0.value.connection != nil }
            entries[id] = PreparedConnection(connection: connection)
            return true
        }
        guard isNew else { return }
        try connection.execute("PRAGMA case_sensitive_like = ON")
        try connection.createFunction("dataconnect_regexp", argumentCount: 3) { arguments in
            guard case .text(let pattern) = arguments[0], case .text(let subject) = arguments[1] else { return .null }
            var flags: String = ""
            if case .text(let f) = arguments[2] { flags = f }
            return .integer(try POSIXRegex.matches(pattern, subject, ignoreCase: flags.contains("i")) ? 1 : 0)
        }
        try SearchFunctions.register(on: connection)
        try connection.createJSONNumberFunction("dataconnect_float")
        try connection.createInterruptCheckFunction(SQLiteDialect.interruptCheckFunction)
        try connection.createJSONTextFunction(SQLiteDialect.embedFunction, checked: false)
        try connection.createJSONTextFunction(SQLiteDialect.storedJSONFunction, checked: true)
    }
}

/// POSIX extended regular expressions (`regcomp`), as upstream's `pattern.regex` promises.
enum POSIXRegex {
    struct InvalidPattern: Error, CustomStringConvertible {
        let pattern: String
        var description: String { "invalid regular expression \"\(pattern)\"" }
    }

    /// Whether `pattern` compiles as a POSIX extended regular expression.
    static func isValid(_ pattern: String) -> Bool {
        var regex = regex_t()
        guard regcomp(&regex, pattern, REG_EXTENDED | REG_NOSUB) == 0 else { return false }
        regfree(&regex)
        return true
    }

    static func matches(_ pattern: String, _ subject: String, ignoreCase: Bool) throws -> Bool {
        var regex = regex_t()
        let flags = REG_EXTENDED | REG_NOSUB | (ignoreCase ? REG_ICASE : 0)
        guard regcomp(&regex, pattern, flags) == 0 else { throw InvalidPattern(pattern: pattern) }
        defer { regfree(&regex) }
        return regexec(&regex, subject, 0, nil, 0) == 0
    }
}

/// The engine's access to a ``DatabasePool``.
public struct PoolAccess: DatabaseAccess {
    /// The pool.
    public let pool: DatabasePool

    /// Wraps a pool.
    public init(_ pool: DatabasePool) {
        self.pool = pool
    }

    public func read<T>(_ body: (any StatementSource) throws -> T) throws -> T {
        try pool.read { connection in
            if !connection.isPreparedForEngine {
                try ConnectionSetup.prepare(connection.connection)
                connection.isPreparedForEngine = true
            }
            return try body(connection)
        }
    }

    public var isClosing: Bool { pool.isClosing }

    public var health: StorageHealth? { pool.health }

    public func write<T>(_ body: (any StatementSource) throws -> T) throws -> T {
        try pool.write { connection in
            if !connection.isPreparedForEngine {
                try ConnectionSetup.prepare(connection.connection)
                connection.isPreparedForEngine = true
            }
            return try body(connection)
        }
    }
}
