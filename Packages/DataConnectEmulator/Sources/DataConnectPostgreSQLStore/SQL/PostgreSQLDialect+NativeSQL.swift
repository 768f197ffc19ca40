import DataConnectEngine
import DataConnectSchema

extension PostgreSQLDialect: NativeSQLSupport {
    /// The user's SQL in a subquery (a CTE for writes) whose rows `json_agg(row_to_json(...))` renders; `nil`
    /// for `_execute`, whose rows are not read.
    public func nativeSQLWrapping(_ sql: String, field: NativeSQLField) -> String? {
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
    public func readOnlyBrackets(insideTransaction: Bool) -> (begin: [String], end: [String], failed: [String]) {
        if insideTransaction {
            let rollback = ["ROLLBACK TO SAVEPOINT dc_native_sql", "RELEASE SAVEPOINT dc_native_sql"]
            return (["SAVEPOINT dc_native_sql", "SET LOCAL transaction_read_only = on"], rollback, rollback)
        }
        return (["BEGIN READ ONLY"], ["COMMIT"], ["ROLLBACK"])
    }

    /// The database's message as it is: native SQL is PostgreSQL SQL.
    public func nativeSQLRefusal(_ message: String) -> String { message }
}
