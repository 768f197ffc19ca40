import DataConnectEngine
import SQLiteKit
import Synchronization

/// A pooled SQLite connection lent to one request.
extension SQLitePooledConnection: StatementSource {
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
        budgetSlot.budget = budget
        guard !budgetSlot.handlerInstalled else { return }
        // Installed once, then left in place: a request only sets and clears the budget it asks. The connection
        // owns the handler, so the handler does not hold the connection.
        budgetSlot.handlerInstalled = true
        connection.setProgressHandler(every: RequestBudget.checkInterval) { [budgetSlot, unowned connection] in
            guard let budget = budgetSlot.budget, budget.shouldInterrupt() else { return false }
            // The SQL functions implemented in Swift stop too, from their next call.
            connection.interrupt()
            return true
        }
    }

    /// Stops asking the budget: the progress handler lets statements run until the next budget is installed.
    public func removeBudget(_ budget: RequestBudget) {
        budgetSlot.budget = nil
    }

    /// `sqlite3_interrupt`, and the flag the engine's SQL functions check.
    public var interrupter: @Sendable () -> Void {
        { [connection] in connection.interrupt() }
    }
}

/// SQLite's prepared statement as the engine steps it. `columnCount`, `columnNames` and `isReadOnly`
/// (`sqlite3_stmt_readonly`, known before the statement runs) are the statement's own.
extension Statement: DatabaseStatement {
    /// Binds the values in order, each straight through `sqlite3_bind_*`.
    ///
    /// - Throws: ``DatabaseError`` when the count differs from the statement's parameters, or a bind fails.
    public func bindParameters(_ values: [DatabaseValue]) throws(DatabaseError) {
        guard values.count == parameterCount else {
            throw DatabaseError(
                SQLiteError(
                    extendedCode: .range, message: "\(values.count) bindings given for \(parameterCount) parameters",
                    sql: sql))
        }
        var index = 1
        for value in values {
            try bind(value, at: index)
            index += 1
        }
    }

    /// Binds each parameter by its name: SQLite names native SQL's parameters `$1`, `$2`, … in the order they
    /// first appear, so `$N` gets `values[N - 1]`.
    ///
    /// - Throws: ``DatabaseError/unnumberedParameter`` for a parameter of another name or without a value.
    public func bindNumberedParameters(_ values: [DatabaseValue]) throws(DatabaseError) {
        guard parameterCount > 0 else { return }
        for index in 1...parameterCount {
            guard let name = parameterName(at: index), name.hasPrefix("$"), let number = Int(name.dropFirst()),
                values.indices.contains(number - 1)
            else { throw .unnumberedParameter }
            try bind(values[number - 1], at: index)
        }
    }

    /// Binds one value to the parameter at the 1-based `index`.
    func bind(_ value: DatabaseValue, at index: Int) throws(DatabaseError) {
        do {
            switch value {
            case .null: try bindNull(at: index)
            case .integer(let integer): try bind(SQLiteValue.integer(integer), at: index)
            case .real(let real): try bind(SQLiteValue.real(real), at: index)
            case .text(let text): try bind(SQLiteValue.text(text), at: index)
            case .blob(let bytes): try bind(SQLiteValue.blob(bytes), at: index)
            }
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

    /// The column as SQLite stores it, read by its storage class.
    public func storedValue(at index: Int) -> DatabaseValue {
        switch columnType(at: index) {
        case .integer: .integer(int64(at: index))
        case .real: .real(double(at: index))
        case .text: .text(string(at: index) ?? "")
        case .blob: .blob(blob(at: index) ?? [])
        case .null: .null
        }
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

/// The engine's access to a ``SQLitePool``.
public struct PoolAccess: DatabaseAccess {
    /// The pool.
    public let pool: SQLitePool

    /// Wraps a pool.
    public init(_ pool: SQLitePool) {
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

/// The budget a pooled connection's progress handler asks (``SQLitePooledConnection/installBudget(_:)``), only
/// touched by the connection's borrower.
final class BudgetSlot {
    /// The budget of the request holding the connection; `nil` between requests.
    var budget: RequestBudget?
    /// Whether the connection's progress handler is installed.
    var handlerInstalled = false
}
