import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection to a PostgreSQL server through libpq: run scripts, query with parameters, prepare statements,
/// pipeline batches, listen for notifications, and cancel a running statement from another thread.
///
/// ```swift
/// let connection = try PGConnection("postgres://postgres@127.0.0.1:5432/movies?sslmode=disable")
/// try connection.execute("""
///     CREATE TABLE IF NOT EXISTS movies(id text PRIMARY KEY, title text NOT NULL, rating float8);
///     """)
/// try connection.execute("BEGIN")
/// let insert = try connection.prepare("INSERT INTO movies VALUES ($1, $2, $3)")
/// try insert.execute([.text("m1"), .text("Alien"), .double(8.5)])
/// try connection.execute("COMMIT")
/// let result = try connection.query("SELECT title FROM movies WHERE rating > $1", [.double(8)])
/// let title = result.string(row: 0, column: 0)
/// ```
///
/// Parameters go in text format with their types inferred by the server, and results come back in text format
/// (see ``PGValue`` and ``PGResult``). Server notices (`NOTICE: … skipping`) are dropped.
///
/// ## Threads
///
/// libpq connections are not thread-safe: use a connection, and the statements prepared on it, **from one
/// thread at a time**, for example by handing connections out of a lock-guarded pool. The type is
/// `@unchecked Sendable` so that it can move between threads under that rule. The exception is
/// ``makeCanceller()``: the ``PGCanceller`` it returns may be used from any thread while the connection's own
/// thread is blocked in a statement.
///
/// ## Failures and recovery
///
/// Every failure is a ``PGError``. When the server restarts or the network drops, calls fail with
/// ``PGError/isConnectionFailure`` and ``isConnected`` turns `false`; ``reset()`` reconnects with the same
/// parameters, and statements prepared earlier prepare themselves again on their next use.
///
/// The connection closes when the last reference goes.
public final class PGConnection: @unchecked Sendable {
    /// The `PGconn *` handle, owned.
    let handle: OpaquePointer
    /// The number of the next generated statement name (`s1`, `s2`, …).
    private var nextStatementNumber = 1
    /// Counts the server sessions this connection has had; ``reset()`` starts a new one, in which statements
    /// prepared before no longer exist.
    private(set) var session = 0

    /// Connects to a server.
    ///
    /// ```swift
    /// try PGConnection("postgresql://app:secret@db.internal:5432/movies?sslmode=require")
    /// try PGConnection("host=127.0.0.1 port=5432 user=postgres dbname=movies")
    /// ```
    ///
    /// The client encoding is UTF-8 unless the string says otherwise.
    ///
    /// - Parameters:
    ///   - connectionString: A `postgres://` or `postgresql://` URI, or a `key=value` conninfo string; libpq
    ///     reads both, and the `PG*` environment variables fill in what it omits.
    ///   - connectTimeout: Seconds to wait for each connection attempt, unless the string sets
    ///     `connect_timeout` itself: 30 by default, a bound for a server that never answers (a refused connection
    ///     fails at once) generous enough for a server starting a backend on a loaded machine.
    /// - Throws: ``PGError`` of kind ``PGError/Kind/connection`` whose description is one line naming host,
    ///   port and cause: `cannot connect to PostgreSQL at 127.0.0.1:5999: connection refused`.
    public init(_ connectionString: String, connectTimeout: Int = 30) throws(PGError) {
        // Parameters before `dbname` are defaults that the expanded connection string may override.
        let keywords = ["connect_timeout", "client_encoding", "dbname"]
        let values = [String(connectTimeout), "UTF8", connectionString]
        let connection = PGConnection.withCStrings(keywords) { keywords in
            PGConnection.withCStrings(values) { values in
                PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let connection else {
            throw PGError(kind: .connection, message: "cannot connect to PostgreSQL: libpq is out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let error = PGError.connectFailure(connection)
            PQfinish(connection)
            throw error
        }
        clibpq_silence_notices(connection)
        self.handle = connection
    }

    deinit {
        PQfinish(handle)
    }

    /// Calls `body` with a NUL-terminated array of C strings, valid during the call.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    // MARK: The server

    /// The server's version as a number: `150018` for 15.18 (`PQserverVersion`); 0 when disconnected.
    public var serverVersion: Int {
        Int(PQserverVersion(handle))
    }

    /// The server's version as it spells it (`SHOW server_version`), e.g. `15.18 (Debian 15.18-0+deb12u1)`.
    ///
    /// - Throws: ``PGError`` when the query fails.
    public var serverVersionString: String {
        get throws(PGError) {
            try query("SHOW server_version").string(row: 0, column: 0) ?? ""
        }
    }

    /// The process ID of the server process serving this connection.
    public var backendPID: Int {
        Int(PQbackendPID(handle))
    }

    /// The host connected to (or the Unix socket directory).
    public var host: String {
        PQhost(handle).map { String(cString: $0) } ?? ""
    }

    /// The port connected to.
    public var port: Int {
        PQport(handle).flatMap { Int(String(cString: $0)) } ?? 0
    }

    /// The database connected to.
    public var databaseName: String {
        PQdb(handle).map { String(cString: $0) } ?? ""
    }

    /// The user connected as.
    public var userName: String {
        PQuser(handle).map { String(cString: $0) } ?? ""
    }

    // MARK: Liveness

    /// Whether the connection is up as far as libpq knows (`PQstatus` is `CONNECTION_OK`).
    ///
    /// A server that went away is noticed only by the next call that talks to it; that call fails with
    /// ``PGError/isConnectionFailure`` and this turns `false`.
    public var isConnected: Bool {
        PQstatus(handle) == CONNECTION_OK
    }

    /// Closes the connection and connects again with the same parameters (`PQreset`), for example after the
    /// server restarted.
    ///
    /// A new server session starts: session settings, `LISTEN`s and any open transaction are gone. Statements
    /// prepared earlier prepare again on their next use; cancellers made earlier no longer reach the new
    /// session, so make new ones.
    ///
    /// - Throws: ``PGError`` of kind ``PGError/Kind/connection`` when the server cannot be reached.
    public func reset() throws(PGError) {
        PQreset(handle)
        session += 1
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PGError.connectFailure(handle)
        }
    }

    // MARK: Running SQL

    /// Runs one or more SQL statements separated by `;`, with the simple query protocol.
    ///
    /// For scripts and commands without parameters: DDL, `BEGIN`, `COMMIT`, `SAVEPOINT`. Unless the script
    /// manages its own transaction, the statements run in one implicit transaction: all or none apply.
    ///
    /// ```swift
    /// try connection.execute("""
    ///     CREATE TABLE genres(name text PRIMARY KEY);
    ///     INSERT INTO genres VALUES ('drama'), ('sci-fi');
    ///     """)
    /// ```
    ///
    /// - Throws: ``PGError`` from the first statement that fails.
    public func execute(_ sql: String) throws(PGError) {
        _ = try result(of: PQexec(handle, sql))
    }

    /// Runs one statement with parameters `$1`, `$2`, … and returns its rows (the extended query protocol).
    ///
    /// ```swift
    /// let result = try connection.query("SELECT title FROM movies WHERE id = $1", [.text("m1")])
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one statement.
    ///   - parameters: One value per parameter; their types are inferred by the server.
    /// - Returns: The rows, or for a command its tag and ``PGResult/affectedRows``.
    /// - Throws: ``PGError``.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PGValue] = []) throws(PGError) -> PGResult {
        let buffer = try PGParameterBuffer(parameters)
        let raw = buffer.withUnsafeArguments { count, values, lengths, formats in
            PQexecParams(handle, sql, count, nil, values, lengths, formats, 0)
        }
        return try result(of: raw)
    }

    /// Prepares one statement on the server under a generated name (`s1`, `s2`, …), its parameter types
    /// inferred.
    ///
    /// Keep the statement and run it many times; the connection does not cache statements itself. A statement
    /// lives on the server until ``PGStatement/deallocate()`` or the end of the session.
    ///
    /// ```swift
    /// let insert = try connection.prepare("INSERT INTO movies(id, title) VALUES ($1, $2)")
    /// for movie in movies {
    ///     try insert.execute([.text(movie.id), .text(movie.title)])
    /// }
    /// ```
    ///
    /// - Throws: ``PGError`` for a syntax error, an unknown table or column, or a parameter whose type
    ///   cannot be inferred.
    public func prepare(_ sql: String) throws(PGError) -> PGStatement {
        let name = "s\(nextStatementNumber)"
        nextStatementNumber += 1
        let statement = PGStatement(connection: self, name: name, sql: sql)
        try statement.prepareIfNeeded()
        return statement
    }

    /// Prepares `sql` under `name` on the server (`PQprepare`).
    func prepareOnServer(name: String, sql: String) throws(PGError) {
        _ = try result(of: PQprepare(handle, name, sql, 0, nil))
    }

    /// Wraps a result from libpq, or throws the error it carries (and frees it).
    func result(of raw: OpaquePointer?) throws(PGError) -> PGResult {
        guard let raw else { throw PGError.from(result: nil, connection: handle) }
        switch PQresultStatus(raw) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_SINGLE_TUPLE:
            return PGResult(handle: raw)
        case PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR, PGRES_BAD_RESPONSE:
            let error = PGError.from(result: raw, connection: handle)
            PQclear(raw)
            throw error
        default:
            let status = PQresStatus(PQresultStatus(raw)).map { String(cString: $0) } ?? "unknown"
            PQclear(raw)
            throw PGError(kind: .protocol, message: "unexpected result status \(status) (COPY is not supported)")
        }
    }

    // MARK: Transactions

    /// Where the connection stands with respect to transactions (`PQtransactionStatus`).
    public var transactionStatus: PGTransactionStatus {
        switch PQtransactionStatus(handle) {
        case PQTRANS_IDLE: return .idle
        case PQTRANS_ACTIVE: return .active
        case PQTRANS_INTRANS: return .inTransaction
        case PQTRANS_INERROR: return .inError
        default: return .unknown
        }
    }

    // MARK: Cancelling

    /// Makes a canceller that stops this connection's running statement from another thread.
    ///
    /// ```swift
    /// let canceller = try connection.makeCanceller()
    /// // On another thread, while `connection` runs a long statement:
    /// try canceller.cancel()  // the statement fails with PGError.isQueryCanceled
    /// ```
    ///
    /// - Throws: ``PGError`` of kind ``PGError/Kind/connection`` when the connection is down.
    public func makeCanceller() throws(PGError) -> PGCanceller {
        guard let cancel = PQgetCancel(handle) else {
            throw PGError(kind: .connection, message: "cannot cancel: not connected to \(PGError.endpoint(handle))")
        }
        return PGCanceller(handle: cancel)
    }

    // MARK: Quoting

    /// Quotes an identifier for SQL text: `movie "cut"` becomes `"movie ""cut"""`.
    ///
    /// Use it when a table, column or channel name must go into a DDL script or another place parameters
    /// cannot reach.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    /// Quotes a string literal for SQL text: `it's` becomes `'it''s'`, and text with a backslash takes the
    /// escape-string form `E'a\\b'`, which reads the same whatever `standard_conforming_strings` says.
    ///
    /// Prefer parameters; this is for DDL scripts (defaults, comments), which cannot take them. The text must
    /// not contain a NUL character.
    public static func quoteLiteral(_ text: String) -> String {
        let quoted = text.replacing("'", with: "''")
        guard quoted.contains("\\") else { return "'" + quoted + "'" }
        return "E'" + quoted.replacing("\\", with: "\\\\") + "'"
    }
}
