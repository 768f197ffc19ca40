import CLibPQ

/// A statement prepared on the server under a generated name, run many times with different parameters.
///
/// Made by ``PGConnection/prepare(_:)``. Running a prepared statement skips parsing and planning the SQL
/// again; the parameters travel as with ``PGConnection/query(_:_:)``.
///
/// ```swift
/// let find = try connection.prepare("SELECT title FROM movies WHERE id = $1")
/// let alien = try find.execute([.text("m1")]).string(row: 0, column: 0)
/// let heat = try find.execute([.text("m2")]).string(row: 0, column: 0)
/// ```
///
/// A statement belongs to its connection and follows its rule: one thread at a time. After
/// ``PGConnection/reset()`` or ``deallocate()`` it prepares itself again on its next use.
public final class PGStatement {
    /// The connection the statement was prepared on; kept alive as long as the statement.
    public let connection: PGConnection
    /// The server-side name (`s1`, `s2`, …).
    public let name: String
    /// The statement's SQL text.
    public let sql: String
    /// The connection session the statement exists in on the server, or `nil` when it does not exist there.
    private(set) var preparedSession: Int?

    init(connection: PGConnection, name: String, sql: String) {
        self.connection = connection
        self.name = name
        self.sql = sql
    }

    /// Prepares the statement on the server unless it exists there in the connection's current session.
    func prepareIfNeeded() throws(PGError) {
        guard preparedSession != connection.session else { return }
        try connection.prepareOnServer(name: name, sql: sql)
        preparedSession = connection.session
    }

    /// Runs the statement with `parameters` and returns its rows (`PQexecPrepared`).
    ///
    /// - Parameter parameters: One value per parameter `$1`, `$2`, ….
    /// - Returns: The rows, or for a command its tag and ``PGResult/affectedRows``.
    /// - Throws: ``PGError``.
    @discardableResult
    public func execute(_ parameters: [PGValue] = []) throws(PGError) -> PGResult {
        try prepareIfNeeded()
        let buffer = try PGParameterBuffer(parameters)
        let raw = buffer.withUnsafeArguments { count, values, lengths, formats in
            PQexecPrepared(connection.handle, name, count, values, lengths, formats, 0)
        }
        return try connection.result(of: raw)
    }

    /// Removes the statement from the server (`DEALLOCATE`); running it again prepares it again.
    ///
    /// Statements are not deallocated on deinit, which may run where the connection cannot be used (another
    /// thread, an aborted transaction); they live until the end of the session otherwise.
    ///
    /// - Throws: ``PGError``, e.g. inside a failed transaction.
    public func deallocate() throws(PGError) {
        guard preparedSession == connection.session else {
            preparedSession = nil
            return
        }
        try connection.execute("DEALLOCATE " + PGConnection.quoteIdentifier(name))
        preparedSession = nil
    }
}
