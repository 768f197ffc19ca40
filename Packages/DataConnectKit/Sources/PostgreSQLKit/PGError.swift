import CLibPQ

/// A failure reported by PostgreSQL or by libpq: a connection that cannot be made or was lost, an error the
/// server raised for a statement, or a reply the client did not expect.
///
/// Server errors carry the five-character SQLSTATE and the fields PostgreSQL attaches to them (detail, hint,
/// constraint and table names). Match them with the helpers rather than raw codes:
///
/// ```swift
/// do {
///     try connection.query("INSERT INTO movies(id, slug) VALUES ($1, $2)", [.text("m2"), .text("alien")])
/// } catch where error.isUniqueViolation {
///     print(error.constraint ?? "?")  // movies_slug_key
/// }
/// ```
///
/// ``description`` is one line: for a connection failure it names the host, the port and the cause, e.g.
/// `cannot connect to PostgreSQL at 127.0.0.1:5999: connection refused`.
public struct PGError: Error, CustomStringConvertible, Sendable {
    /// Where a failure comes from.
    public enum Kind: Hashable, Sendable {
        /// The connection could not be made, or broke: the server is unreachable, refused the login, shut
        /// down, or the socket closed.
        case connection
        /// The server rejected a statement; ``PGError/sqlState`` says why.
        case server
        /// libpq returned something the client did not expect (an unexpected result status, a failure to
        /// enter or leave pipeline mode).
        case `protocol`
        /// The caller asked for something libpq cannot send, such as text with a NUL character.
        case misuse
    }

    /// Where the failure comes from.
    public var kind: Kind
    /// The SQLSTATE code (`23505`), when the server sent one.
    public var sqlState: String?
    /// The primary message, one line (`duplicate key value violates unique constraint "movies_slug_key"`).
    ///
    /// For a connection failure this is the whole one-line description, naming host, port and cause.
    public var message: String
    /// The server's detail line (`Key (slug)=(alien) already exists.`), if any.
    public var detail: String?
    /// The server's hint, if any.
    public var hint: String?
    /// The name of the violated constraint (`PG_DIAG_CONSTRAINT_NAME`), for integrity errors.
    public var constraint: String?
    /// The table the error concerns (`PG_DIAG_TABLE_NAME`), for integrity errors.
    public var table: String?
    /// The column the error concerns (`PG_DIAG_COLUMN_NAME`), e.g. for a not-null violation.
    public var column: String?
    /// The 1-based character position of the error in the statement text, for syntax errors.
    public var position: Int?

    /// Creates an error from its parts.
    public init(
        kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil, hint: String? = nil,
        constraint: String? = nil, table: String? = nil, column: String? = nil, position: Int? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
        self.table = table
        self.column = column
        self.position = position
    }

    /// One line: the message, then the SQLSTATE and the detail when present.
    ///
    /// `duplicate key value violates unique constraint "movies_slug_key" (SQLSTATE 23505): Key (slug)=(alien)
    /// already exists.`
    public var description: String {
        var text = message
        if let sqlState {
            text += " (SQLSTATE \(sqlState))"
        }
        if let detail {
            text += ": " + PGError.firstLine(of: detail)
        }
        return text
    }

    // MARK: Classifying

    /// `23505 unique_violation`: a unique or primary key constraint rejected a row.
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// `23503 foreign_key_violation`: a row references a missing key, or a referenced row is still in use.
    public var isForeignKeyViolation: Bool { sqlState == "23503" }
    /// `23502 not_null_violation`.
    public var isNotNullViolation: Bool { sqlState == "23502" }
    /// `23514 check_violation`.
    public var isCheckViolation: Bool { sqlState == "23514" }
    /// Whether the server found its stored data damaged: `XX001` (data_corrupted) or `XX002` (index_corrupted).
    public var isDataCorrupted: Bool { sqlState == "XX001" || sqlState == "XX002" }
    /// `57014 query_canceled`: a ``PGCanceller`` or `statement_timeout` stopped the statement.
    public var isQueryCanceled: Bool { sqlState == "57014" }
    /// `53200 out_of_memory`.
    public var isOutOfMemory: Bool { sqlState == "53200" }
    /// `22003 numeric_value_out_of_range`, e.g. an integer overflow.
    public var isNumericOutOfRange: Bool { sqlState == "22003" }
    /// Class `54 program_limit_exceeded`: a statement too complex, too many columns, a row too big.
    public var isProgramLimitExceeded: Bool { sqlState?.hasPrefix("54") == true }
    /// `42601 syntax_error`.
    public var isSyntaxError: Bool { sqlState == "42601" }

    /// Whether the connection is unusable until ``PGConnection/reset()``: a failure of ``Kind/connection``,
    /// SQLSTATE class `08` (connection exception), or `57P01`/`57P02`/`57P03` (the server is shutting down or
    /// not accepting connections).
    public var isConnectionFailure: Bool {
        if kind == .connection { return true }
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03"
    }
}

// MARK: Building errors from libpq

extension PGError {
    /// Diagnostic field codes (`PG_DIAG_*` in `postgres_ext.h`, which Swift does not import as constants).
    private enum Field {
        static let sqlState = Int32(UInt8(ascii: "C"))
        static let primary = Int32(UInt8(ascii: "M"))
        static let detail = Int32(UInt8(ascii: "D"))
        static let hint = Int32(UInt8(ascii: "H"))
        static let position = Int32(UInt8(ascii: "P"))
        static let table = Int32(UInt8(ascii: "t"))
        static let column = Int32(UInt8(ascii: "c"))
        static let constraint = Int32(UInt8(ascii: "n"))
    }

    /// The error carried by a failed result, or libpq's connection message when the result is missing.
    ///
    /// A result without SQLSTATE on a connection whose status went bad is a ``Kind/connection`` failure, as is
    /// any error after which the connection is bad (a `57P01` sent while the server shuts down).
    static func from(result: OpaquePointer?, connection: OpaquePointer) -> PGError {
        let connectionBroken = PQstatus(connection) == CONNECTION_BAD
        guard let result else {
            return PGError(
                kind: connectionBroken ? .connection : .protocol,
                message: firstMeaningfulLine(of: connectionMessage(connection)) ?? "no result from the server")
        }
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        let sqlState = field(Field.sqlState)
        let fallback = PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
        let message =
            field(Field.primary)
            ?? firstMeaningfulLine(of: fallback)
            ?? firstMeaningfulLine(of: connectionMessage(connection))
            ?? "unknown error"
        let kind: Kind = connectionBroken ? .connection : (sqlState == nil ? .protocol : .server)
        return PGError(
            kind: kind, sqlState: sqlState, message: message, detail: field(Field.detail), hint: field(Field.hint),
            constraint: field(Field.constraint), table: field(Field.table), column: field(Field.column),
            position: field(Field.position).flatMap { Int($0) })
    }

    /// A failure of the connection itself, with libpq's current message reduced to one line.
    static func connectionFailure(_ connection: OpaquePointer, doing action: String) -> PGError {
        let cause = firstMeaningfulLine(of: connectionMessage(connection)) ?? "unknown error"
        return PGError(kind: .connection, message: "\(action): \(cause)")
    }

    /// The one-line reason a connection attempt failed: `cannot connect to PostgreSQL at host:port: cause`.
    static func connectFailure(_ connection: OpaquePointer) -> PGError {
        let cause = firstMeaningfulLine(of: connectionMessage(connection)) ?? "unknown error"
        return PGError(kind: .connection, message: "cannot connect to PostgreSQL at \(endpoint(connection)): \(cause)")
    }

    /// `host:port` of a connection (the socket directory stands for the host on Unix sockets).
    static func endpoint(_ connection: OpaquePointer) -> String {
        let host = PQhost(connection).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
        let port = PQport(connection).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "5432"
        return "\(host):\(port)"
    }

    private static func connectionMessage(_ connection: OpaquePointer) -> String {
        PQerrorMessage(connection).map { String(cString: $0) } ?? ""
    }

    /// The first line of `text`.
    static func firstLine(of text: String) -> String {
        text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first.map(String.init) ?? text
    }

    /// The cause in libpq's multi-line message, without its framing.
    ///
    /// libpq writes `connection to server at "127.0.0.1", port 5999 failed: Connection refused` followed by an
    /// indented hint (`\tIs the server running on that host…`), and prefixes server messages with `FATAL:  `.
    /// This keeps `connection refused`: the first non-indented line, after the last `failed: ` of its prefix
    /// and the severity, with an initial capital lowered unless it starts an acronym.
    static func firstMeaningfulLine(of text: String) -> String? {
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = rawLine.first, first != "\t", first != " " else { continue }
            var line = Substring(rawLine)
            if line.hasPrefix("connection to server"), let range = line.firstRange(of: " failed: ") {
                line = line[range.upperBound...]
            }
            for severity in ["FATAL:", "ERROR:", "PANIC:"] where line.hasPrefix(severity) {
                line = line.dropFirst(severity.count)
            }
            line = line.drop(while: { $0 == " " })
            while line.last == " " || line.last == "\r" { line = line.dropLast() }
            guard !line.isEmpty else { continue }
            return lowercasingInitial(String(line))
        }
        return nil
    }

    /// `Connection refused` becomes `connection refused`; `SSL error` stays.
    private static func lowercasingInitial(_ line: String) -> String {
        var characters = line.makeIterator()
        guard let first = characters.next(), first.isUppercase else { return line }
        if let second = characters.next(), second.isUppercase { return line }
        return first.lowercased() + line.dropFirst()
    }
}
