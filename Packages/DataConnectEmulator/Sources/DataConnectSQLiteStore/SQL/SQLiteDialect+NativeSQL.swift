import DataConnectEngine
import DataConnectSchema

extension SQLiteDialect: NativeSQLSupport {
    /// SQLite reads the columns of the statement itself: its SQL cannot be wrapped without knowing them.
    public func nativeSQLWrapping(_ sql: String, field: NativeSQLField) -> String? { nil }

    /// None: SQLite asks the prepared statement whether it writes (`sqlite3_stmt_readonly`).
    public func readOnlyBrackets(insideTransaction: Bool) -> (begin: [String], end: [String], failed: [String]) {
        ([], [], [])
    }

    /// The database's message, with the hint that native SQL is written for PostgreSQL.
    public func nativeSQLRefusal(_ message: String) -> String {
        "SQLite cannot run this native SQL (\(message)); native SQL is PostgreSQL SQL: run the emulator with --postgres to use it as the service does"
    }
}
