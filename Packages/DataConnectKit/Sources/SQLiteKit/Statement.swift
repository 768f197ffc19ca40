import CSQLite

/// SQLite's `SQLITE_TRANSIENT`: bound text and blobs are copied before the bind call returns.
var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}

/// A prepared SQL statement: bind parameters, step through rows, read columns, reset, repeat.
///
/// Parameter indices start at **1** and column indices at **0**, as in SQLite's C API.
///
/// ```swift
/// let insert = try connection.prepare("INSERT INTO movies(title, rating) VALUES (:title, :rating)",
///                                     persistent: true)
/// for (title, rating) in [("Alien", 8.5), ("Heat", 8.3)] {
///     try insert.execute([.text(title), .real(rating)])
/// }
///
/// let select = try connection.prepare("SELECT id, title FROM movies ORDER BY id")
/// while try select.step() {
///     print(select.int64(at: 0), select.string(at: 1) ?? "")
/// }
/// ```
///
/// A statement belongs to one thread at a time and is not `Sendable`. Column values read through
/// ``withUnsafeText(at:_:)`` and ``unsafeText(at:)`` point into SQLite's memory and stay valid only until the
/// next ``step()``, ``reset()`` or the statement's end.
public final class Statement {
    /// The connection the statement runs on; kept alive as long as the statement.
    public let connection: Connection

    /// The `sqlite3_stmt *` handle.
    let handle: OpaquePointer

    private var cachedColumnNames: [String]?

    private init(connection: Connection, handle: OpaquePointer) {
        self.connection = connection
        self.handle = handle
    }

    /// Prepares exactly one statement from `sql`.
    convenience init(connection: Connection, sql: String, persistent: Bool) throws(SQLiteError) {
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = sql.withCString { start in
            Result { () throws(SQLiteError) -> OpaquePointer in
                var tail: UnsafePointer<CChar>?
                var handle: OpaquePointer?
                let code = sqlite3_prepare_v3(connection.handle, start, -1, flags, &handle, &tail)
                guard code == SQLITE_OK else {
                    throw SQLiteError(connection: connection.handle, code: code, sql: sql)
                }
                guard let handle else {
                    throw SQLiteError(extendedCode: .misuse, message: "no SQL statement to prepare", sql: sql)
                }
                if let tail, tail.pointee != 0 {
                    var extra: OpaquePointer?
                    let extraCode = sqlite3_prepare_v3(connection.handle, tail, -1, 0, &extra, nil)
                    if extraCode != SQLITE_OK || extra != nil {
                        sqlite3_finalize(extra)
                        sqlite3_finalize(handle)
                        throw SQLiteError(
                            extendedCode: .misuse,
                            message: "prepare accepts one statement; use Connection.execute for several", sql: sql
                        )
                    }
                }
                return handle
            }
        }
        self.init(connection: connection, handle: try result.get())
    }

    /// Prepares the first statement at `start` and sets `tail` past it; returns `nil` when only whitespace or
    /// comments remain.
    convenience init?(
        connection: Connection, start: UnsafePointer<CChar>, tail: inout UnsafePointer<CChar>?, flags: UInt32
    ) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, start, -1, flags, &handle, &tail)
        guard code == SQLITE_OK else {
            throw SQLiteError(connection: connection.handle, code: code, sql: String(cString: start))
        }
        guard let handle else { return nil }
        self.init(connection: connection, handle: handle)
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The statement's SQL text.
    public var sql: String {
        sqlite3_sql(handle).map { String(cString: $0) } ?? ""
    }

    /// Whether the statement leaves the database unchanged.
    public var isReadOnly: Bool {
        sqlite3_stmt_readonly(handle) != 0
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(connection: connection.handle, code: code, sql: sql)
    }

    // MARK: Parameters

    /// The number of parameters (the largest parameter index).
    public var parameterCount: Int {
        Int(sqlite3_bind_parameter_count(handle))
    }

    /// The name of the parameter at the 1-based `index`, with its prefix (`:id`), or `nil` for `?`.
    public func parameterName(at index: Int) -> String? {
        sqlite3_bind_parameter_name(handle, Int32(clamping: index)).map { String(cString: $0) }
    }

    /// The 1-based index of a named parameter; `name` may omit its prefix (`id` finds `:id`, `@id` or `$id`).
    public func parameterIndex(named name: String) -> Int? {
        let candidates = name.first.map { ":@$?".contains($0) } == true ? [name] : [":" + name, "@" + name, "$" + name]
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(handle, candidate)
            if index > 0 { return Int(index) }
        }
        return nil
    }

    /// Binds a value to the parameter at the 1-based `index`.
    ///
    /// Text and blobs are copied, so the value need not outlive the call.
    ///
    /// - Throws: ``SQLiteError``, e.g. ``ResultCode/range`` for an index out of range.
    public func bind(_ value: SQLiteValue, at index: Int) throws(SQLiteError) {
        let position = Int32(clamping: index)
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, position)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, position, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, position, real)
        case .text(let text):
            var text = text
            code = text.withUTF8 { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_text(handle, position, "", 0, nil)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text64(handle, position, $0, UInt64(buffer.count), sqliteTransient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_zeroblob(handle, position, 0)
                }
                return sqlite3_bind_blob64(handle, position, base, UInt64(buffer.count), sqliteTransient)
            }
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Binds a Swift value to the parameter at the 1-based `index`; `nil` binds `NULL`.
    ///
    /// - Throws: ``SQLiteError``, e.g. ``ResultCode/range`` for an index out of range.
    public func bind<Value: SQLiteValueConvertible>(_ value: Value, at index: Int) throws(SQLiteError) {
        try bind(value.sqliteValue, at: index)
    }

    /// Binds `NULL` to the parameter at the 1-based `index`.
    ///
    /// - Throws: ``SQLiteError`` for an index out of range.
    public func bindNull(at index: Int) throws(SQLiteError) {
        try bind(SQLiteValue.null, at: index)
    }

    /// Binds a Swift value to a named parameter; `name` may omit its prefix.
    ///
    /// - Throws: ``SQLiteError`` with ``ResultCode/range`` when the statement has no such parameter.
    public func bind<Value: SQLiteValueConvertible>(_ value: Value, named name: String) throws(SQLiteError) {
        guard let index = parameterIndex(named: name) else {
            throw SQLiteError(extendedCode: .range, message: "no parameter named \"\(name)\"", sql: sql)
        }
        try bind(value.sqliteValue, at: index)
    }

    /// Binds values to parameters 1, 2, …; the count must equal ``parameterCount``.
    ///
    /// - Throws: ``SQLiteError`` with ``ResultCode/range`` when the counts differ.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        guard values.count == parameterCount else {
            throw SQLiteError(
                extendedCode: .range,
                message: "\(values.count) bindings given for \(parameterCount) parameters", sql: sql
            )
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds values to named parameters; names may omit their prefix.
    ///
    /// - Throws: ``SQLiteError`` with ``ResultCode/range`` for a name the statement does not have.
    public func bind(named values: [String: SQLiteValue]) throws(SQLiteError) {
        for (name, value) in values {
            try bind(value, named: name)
        }
    }

    /// Sets every parameter back to `NULL`.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: Running

    /// Advances to the next row.
    ///
    /// - Returns: `true` when a row is available, `false` when the statement has finished.
    /// - Throws: ``SQLiteError``; the statement is reset so that it can run again.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let failure = error(code)
            sqlite3_reset(handle)
            throw failure
        }
    }

    /// Rewinds the statement so that it can run again; bindings are kept.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Rewinds, binds `bindings` when given, and runs the statement to the end, ignoring rows.
    ///
    /// - Throws: ``SQLiteError``.
    public func execute(_ bindings: [SQLiteValue]? = nil) throws(SQLiteError) {
        reset()
        if let bindings {
            try bind(bindings)
        }
        while try step() {}
    }

    /// Rewinds, binds `bindings` when given, runs the statement and returns its rows.
    ///
    /// - Throws: ``SQLiteError``.
    public func query(_ bindings: [SQLiteValue]? = nil) throws(SQLiteError) -> [Row] {
        reset()
        if let bindings {
            try bind(bindings)
        }
        return try rows()
    }

    /// Steps through the remaining rows, materializes them, and rewinds the statement.
    ///
    /// - Throws: ``SQLiteError``.
    public func rows() throws(SQLiteError) -> [Row] {
        var rows: [Row] = []
        while try step() {
            rows.append(row())
        }
        reset()
        return rows
    }

    /// The current row, copied out of SQLite.
    public func row() -> Row {
        let count = columnCount
        var values: [SQLiteValue] = []
        values.reserveCapacity(count)
        for index in 0..<count {
            values.append(value(at: index))
        }
        return Row(columnNames: columnNames, values: values)
    }

    // MARK: Columns

    /// The number of columns in a result row.
    public var columnCount: Int {
        Int(sqlite3_column_count(handle))
    }

    /// The name of the column at the 0-based `index` (its alias when it has one).
    public func columnName(at index: Int) -> String {
        sqlite3_column_name(handle, Int32(clamping: index)).map { String(cString: $0) } ?? ""
    }

    /// The names of all result columns, in order.
    public var columnNames: [String] {
        if let cachedColumnNames { return cachedColumnNames }
        let names = (0..<columnCount).map { columnName(at: $0) }
        cachedColumnNames = names
        return names
    }

    /// The 0-based index of the column named `name`, compared case-insensitively as SQLite does.
    public func columnIndex(named name: String) -> Int? {
        Row.index(of: name, in: columnNames)
    }

    /// The storage class of the column at `index` in the current row.
    public func columnType(at index: Int) -> ColumnType {
        switch sqlite3_column_type(handle, Int32(clamping: index)) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// Whether the column at `index` is `NULL` in the current row.
    public func isNull(at index: Int) -> Bool {
        columnType(at: index) == .null
    }

    /// The column at `index` as an integer; `NULL` reads as 0, other types convert as SQLite converts them.
    public func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(clamping: index))
    }

    /// The column at `index` as an `Int`; `NULL` reads as 0.
    public func int(at index: Int) -> Int {
        Int(truncatingIfNeeded: int64(at: index))
    }

    /// The column at `index` as a double; `NULL` reads as 0.
    public func double(at index: Int) -> Double {
        sqlite3_column_double(handle, Int32(clamping: index))
    }

    /// The column at `index` as a boolean: nonzero is `true`; `NULL` reads as `false`.
    public func bool(at index: Int) -> Bool {
        int64(at: index) != 0
    }

    /// The column at `index` as text, or `nil` when it is `NULL`; numbers convert to their text.
    public func string(at index: Int) -> String? {
        guard let text = unsafeText(at: index) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// The column at `index` as bytes, or `nil` when it is `NULL`.
    public func blob(at index: Int) -> [UInt8]? {
        let position = Int32(clamping: index)
        guard sqlite3_column_type(handle, position) != SQLITE_NULL else { return nil }
        let pointer = sqlite3_column_blob(handle, position)
        let count = Int(sqlite3_column_bytes(handle, position))
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column at `index` as a ``SQLiteValue`` of its storage class.
    public func value(at index: Int) -> SQLiteValue {
        switch columnType(at: index) {
        case .integer: return .integer(int64(at: index))
        case .real: return .real(double(at: index))
        case .text: return .text(string(at: index) ?? "")
        case .blob: return .blob(blob(at: index) ?? [])
        case .null: return .null
        }
    }

    /// The column at `index` converted to a Swift type, or `nil` when it is `NULL` or does not convert.
    public func column<Value: SQLiteValueConvertible>(at index: Int, as type: Value.Type = Value.self) -> Value? {
        Value(sqliteValue: value(at: index))
    }

    /// The UTF-8 bytes of the text column at `index`, without copying, or `nil` when it is `NULL`.
    ///
    /// The buffer points into SQLite's memory and stays valid only until the next ``step()``, ``reset()``, a
    /// different read of the same column, or the statement's end. Numbers convert to their text.
    public func unsafeText(at index: Int) -> UnsafeRawBufferPointer? {
        let position = Int32(clamping: index)
        guard let pointer = sqlite3_column_text(handle, position) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, position))
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    /// Calls `body` with the UTF-8 bytes of the text column at `index`, without copying; `NULL` gives an empty
    /// buffer.
    ///
    /// ```swift
    /// statement.withUnsafeText(at: 0) { writer.raw($0) }  // a JSON column straight into the response
    /// ```
    public func withUnsafeText<Result>(
        at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        try body(unsafeText(at: index) ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }
}
