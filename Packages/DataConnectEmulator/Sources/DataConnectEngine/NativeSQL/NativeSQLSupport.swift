import DataConnectSchema

/// How a dialect runs native SQL (`_select`, `_execute`, ...): the statements that wrap the user's SQL so the
/// database renders each row as a JSON object, or `nil` when rows are read column by column.
protocol NativeSQLSupport: SQLDialect {
    /// The statement that runs `sql` and answers one row with one column: the JSON of the rows (an array,
    /// or for `isFirstRow` the first row's object), or `nil` to run `sql` as is and read its columns.
    func nativeSQLWrapping(_ sql: String, field: NativeSQLField) -> String?
    /// Statements that make what runs between them read-only: (before, after success, after failure).
    /// `insideTransaction` says whether a transaction is open on the connection.
    func readOnlyBrackets(insideTransaction: Bool) -> (begin: [String], end: [String], failed: [String])
    /// The message of a statement the database refuses to prepare.
    func nativeSQLRefusal(_ message: String) -> String
}

extension SQLiteDialect: NativeSQLSupport {
    /// SQLite reads the columns of the statement itself: its SQL cannot be wrapped without knowing them.
    func nativeSQLWrapping(_ sql: String, field: NativeSQLField) -> String? { nil }

    /// None: SQLite asks the prepared statement whether it writes (`sqlite3_stmt_readonly`).
    func readOnlyBrackets(insideTransaction: Bool) -> (begin: [String], end: [String], failed: [String]) {
        ([], [], [])
    }

    /// The database's message, with the hint that native SQL is written for PostgreSQL.
    func nativeSQLRefusal(_ message: String) -> String {
        "SQLite cannot run this native SQL (\(message)); native SQL is PostgreSQL SQL: run the emulator with --postgres to use it as the service does"
    }
}

extension PostgreSQLDialect: NativeSQLSupport {
    func nativeSQLWrapping(_ sql: String, field: NativeSQLField) -> String? {
        switch field {
        case .select:
            "SELECT coalesce(json_agg(row_to_json(dc_row)), '[]'::json)::text FROM (\(sql)) AS dc_row"
        case .selectFirst:
            "SELECT row_to_json(dc_row)::text FROM (\(sql)) AS dc_row LIMIT 1"
        case .execute:
            nil
        case .executeReturning:
            "WITH dc_row AS (\(sql)) SELECT coalesce(json_agg(row_to_json(dc_row)), '[]'::json)::text FROM dc_row"
        case .executeReturningFirst:
            "WITH dc_row AS (\(sql)) SELECT row_to_json(dc_row)::text FROM dc_row LIMIT 1"
        }
    }

    /// A read-only transaction, or inside a mutation's transaction a savepoint made read-only and rolled
    /// back after (which restores the transaction's mode).
    func readOnlyBrackets(insideTransaction: Bool) -> (begin: [String], end: [String], failed: [String]) {
        if insideTransaction {
            let rollback = ["ROLLBACK TO SAVEPOINT dc_native_sql", "RELEASE SAVEPOINT dc_native_sql"]
            return (["SAVEPOINT dc_native_sql", "SET LOCAL transaction_read_only = on"], rollback, rollback)
        }
        return (["BEGIN READ ONLY"], ["COMMIT"], ["ROLLBACK"])
    }

    func nativeSQLRefusal(_ message: String) -> String { message }
}
