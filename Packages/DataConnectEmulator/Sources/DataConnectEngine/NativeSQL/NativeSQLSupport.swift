import DataConnectSchema

/// How a dialect runs native SQL (`_select`, `_execute`, ...): the statements that wrap the user's SQL so the
/// database renders each row as a JSON object, or `nil` when rows are read column by column.
public protocol NativeSQLSupport: SQLDialect {
    /// The statement that runs `sql` and answers one row with one column: the JSON of the rows (an array,
    /// or for `isFirstRow` the first row's object), or `nil` to run `sql` as is and read its columns.
    func nativeSQLWrapping(_ sql: String, field: NativeSQLField) -> String?
    /// Statements that make what runs between them read-only: (before, after success, after failure).
    /// `insideTransaction` says whether a transaction is open on the connection.
    func readOnlyBrackets(insideTransaction: Bool) -> (begin: [String], end: [String], failed: [String])
    /// The message of a statement the database refuses to prepare.
    func nativeSQLRefusal(_ message: String) -> String
}
