import CSQLite

/// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended (`SQLITE_CONSTRAINT_UNIQUE`).
///
/// Extended codes refine a primary code in their low byte: ``primary`` recovers it. Compare errors by the
/// extended code when the detail matters and by the primary one otherwise:
///
/// ```swift
/// catch let error as SQLiteError where error.extendedCode == .constraintUnique { ... }
/// catch let error as SQLiteError where error.code == .busy { ... }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable {
    /// The numeric code.
    public var rawValue: Int32

    /// Creates a code from its number.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code, the low byte of an extended code.
    public var primary: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// SQLite's English description of the code, e.g. `constraint failed`.
    public var explanation: String {
        String(cString: sqlite3_errstr(rawValue))
    }

    /// `SQLITE_OK`.
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR`: a generic error, such as an SQL syntax error.
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_INTERNAL`.
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    /// `SQLITE_PERM`: access permission denied.
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    /// `SQLITE_ABORT`: the operation was aborted.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY`: the database file is locked by another connection.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a table is locked within the same connection or shared cache.
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM`.
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY`: an attempt to write a read-only database.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: the operation was interrupted by ``Connection/interrupt()``.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`.
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`.
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the database file cannot be opened.
    public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_SCHEMA`: the schema changed.
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    /// `SQLITE_TOOBIG`: a string or blob is too large.
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// `SQLITE_CONSTRAINT`: a constraint was violated.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`: a data type mismatch.
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`: the library was used incorrectly.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_RANGE`: a parameter index out of range.
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)

    /// `SQLITE_CONSTRAINT_CHECK`: a `CHECK` constraint failed.
    public static let constraintCheck = ResultCode(rawValue: SQLITE_CONSTRAINT | (1 << 8))
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a foreign key constraint failed.
    public static let constraintForeignKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (3 << 8))
    /// `SQLITE_CONSTRAINT_NOTNULL`: a `NOT NULL` constraint failed.
    public static let constraintNotNull = ResultCode(rawValue: SQLITE_CONSTRAINT | (5 << 8))
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a `PRIMARY KEY` constraint failed.
    public static let constraintPrimaryKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    /// `SQLITE_CONSTRAINT_UNIQUE`: a `UNIQUE` constraint failed.
    public static let constraintUnique = ResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
    /// `SQLITE_CONSTRAINT_ROWID`: a rowid is not unique.
    public static let constraintRowID = ResultCode(rawValue: SQLITE_CONSTRAINT | (10 << 8))
    /// `SQLITE_BUSY_SNAPSHOT`: a WAL read transaction cannot be upgraded to a write transaction.
    public static let busySnapshot = ResultCode(rawValue: SQLITE_BUSY | (2 << 8))
}

extension ResultCode: CustomStringConvertible {
    /// The number and SQLite's description, e.g. `2067 (constraint failed)`.
    public var description: String {
        "\(rawValue) (\(explanation))"
    }
}

/// An error reported by SQLite, with the statement that caused it.
///
/// ```swift
/// do {
///     try connection.execute("INSERT INTO users(email) VALUES ('a@example.com')")
/// } catch let error as SQLiteError where error.extendedCode == .constraintUnique {
///     print(error.message)  // UNIQUE constraint failed: users.email
/// }
/// ```
public struct SQLiteError: Error, Hashable, Sendable {
    /// The primary result code, e.g. ``ResultCode/constraint``.
    public var code: ResultCode {
        extendedCode.primary
    }
    /// The extended result code, e.g. ``ResultCode/constraintUnique``.
    public var extendedCode: ResultCode
    /// SQLite's message, e.g. `UNIQUE constraint failed: users.email`.
    public var message: String
    /// The SQL being prepared or run, when there was one.
    public var sql: String?

    /// Creates an error.
    public init(extendedCode: ResultCode, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Reads the current error of a connection; `code` is the result the failing call returned.
    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        var extended = code
        var message = String(cString: sqlite3_errstr(code))
        if let connection, sqlite3_errcode(connection) & 0xFF == code & 0xFF {
            extended = sqlite3_extended_errcode(connection)
            message = String(cString: sqlite3_errmsg(connection))
        }
        self.init(extendedCode: ResultCode(rawValue: extended), message: message, sql: sql)
    }
}

extension SQLiteError: CustomStringConvertible {
    /// The code, the message and the SQL: `SQLite error 2067: UNIQUE constraint failed: t.x (in "INSERT …")`.
    public var description: String {
        var text = "SQLite error \(extendedCode.rawValue): \(message)"
        if let sql {
            text += " (in \"\(sql)\")"
        }
        return text
    }
}
