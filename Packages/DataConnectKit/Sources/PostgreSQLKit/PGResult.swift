import CLibPQ

/// The rows and status of one successful statement, in text format.
///
/// Values read straight out of libpq's result buffer: ``withUnsafeBytes(row:column:_:)`` copies nothing, and
/// ``string(row:column:)`` copies once into a `String`. Rows and columns are 0-based.
///
/// ```swift
/// let result = try connection.query("SELECT id, title, rating FROM movies WHERE rating > $1", [.double(8)])
/// for row in 0..<result.rowCount {
///     let title = result.string(row: row, column: 1)
///     let rating = result.double(row: row, column: 2)
/// }
/// ```
///
/// A result is immutable once made, so reading it from several threads is safe (libpq documents `PGresult`
/// as independent of its connection); it frees its memory when the last reference goes.
public final class PGResult: @unchecked Sendable {
    /// The `PGresult *` handle, owned.
    let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    // MARK: Shape

    /// The number of rows.
    public var rowCount: Int {
        Int(PQntuples(handle))
    }

    /// The number of columns.
    public var columnCount: Int {
        Int(PQnfields(handle))
    }

    /// The name of the column at `index` (its alias when it has one).
    public func columnName(at index: Int) -> String {
        PQfname(handle, Int32(clamping: index)).map { String(cString: $0) } ?? ""
    }

    /// The names of all columns, in order.
    public var columnNames: [String] {
        (0..<columnCount).map { columnName(at: $0) }
    }

    /// The index of the column named exactly `name` (case-sensitive), or `nil`.
    public func columnIndex(named name: String) -> Int? {
        let index = PQfnumber(handle, PGConnection.quoteIdentifier(name))
        return index < 0 ? nil : Int(index)
    }

    /// The type OID of the column at `index` (`25` text, `20` int8, `701` float8, `17` bytea, `3802` jsonb…).
    public func columnType(at index: Int) -> UInt32 {
        PQftype(handle, Int32(clamping: index))
    }

    /// The number of rows the command changed, from its command tag (`UPDATE 3` gives 3); 0 for commands that
    /// report none.
    public var affectedRows: Int {
        guard let tuples = PQcmdTuples(handle), tuples.pointee != 0 else { return 0 }
        return Int(String(cString: tuples)) ?? 0
    }

    /// The command tag, e.g. `INSERT 0 1`, `UPDATE 3`, `SELECT 2`, `BEGIN`.
    public var commandStatus: String {
        PQcmdStatus(handle).map { String(cString: $0) } ?? ""
    }

    // MARK: Values

    /// Whether the value at `row`, `column` is `NULL`.
    public func isNull(row: Int, column: Int) -> Bool {
        PQgetisnull(handle, Int32(clamping: row), Int32(clamping: column)) != 0
    }

    /// Calls `body` with the bytes of the value at `row`, `column` (its text form), without copying; `nil` for
    /// `NULL`.
    ///
    /// The buffer points into the result and is valid only during the call.
    ///
    /// ```swift
    /// result.withUnsafeBytes(row: 0, column: 0) { json in writer.raw(json!) }  // a json column, unparsed
    /// ```
    public func withUnsafeBytes<Result>(
        row: Int, column: Int, _ body: (UnsafeRawBufferPointer?) throws -> Result
    ) rethrows -> Result {
        let rowIndex = Int32(clamping: row)
        let columnIndex = Int32(clamping: column)
        guard PQgetisnull(handle, rowIndex, columnIndex) == 0, let value = PQgetvalue(handle, rowIndex, columnIndex)
        else { return try body(nil) }
        let count = Int(PQgetlength(handle, rowIndex, columnIndex))
        return try body(UnsafeRawBufferPointer(start: value, count: count))
    }

    /// The bytes of the value at `row`, `column` (its text form, e.g. `\x0102` for `bytea`), or `nil` for
    /// `NULL`; see ``bytea(row:column:)`` for decoded `bytea`.
    public func bytes(row: Int, column: Int) -> [UInt8]? {
        withUnsafeBytes(row: row, column: column) { $0.map { Array($0) } }
    }

    /// The value at `row`, `column` as text, or `nil` for `NULL`.
    public func string(row: Int, column: Int) -> String? {
        withUnsafeBytes(row: row, column: column) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// The value at `row`, `column` as an integer, or `nil` for `NULL` or text that is not a 64-bit integer.
    public func int64(row: Int, column: Int) -> Int64? {
        withUnsafeBytes(row: row, column: column) { bytes in
            guard let bytes, !bytes.isEmpty else { return nil }
            var index = 0
            let negative = bytes[0] == UInt8(ascii: "-")
            if negative || bytes[0] == UInt8(ascii: "+") { index = 1 }
            guard index < bytes.count else { return nil }
            var value: Int64 = 0
            while index < bytes.count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
                let (next, overflowAdd) =
                    negative
                    ? shifted.subtractingReportingOverflow(Int64(digit)) : shifted.addingReportingOverflow(Int64(digit))
                guard !overflowShift, !overflowAdd else { return nil }
                value = next
                index += 1
            }
            return value
        }
    }

    /// The value at `row`, `column` as a double (`Infinity`, `-Infinity` and `NaN` included), or `nil` for
    /// `NULL` or text that is not a number.
    public func double(row: Int, column: Int) -> Double? {
        guard let text = string(row: row, column: column) else { return nil }
        switch text {
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        case "NaN": return .nan
        default: return Double(text)
        }
    }

    /// The value at `row`, `column` as a boolean (`t` or `f`, as PostgreSQL prints `boolean`), or `nil` for
    /// `NULL` or other text.
    public func bool(row: Int, column: Int) -> Bool? {
        withUnsafeBytes(row: row, column: column) { bytes -> Bool? in
            guard let bytes, bytes.count == 1 else { return nil }
            switch bytes[0] {
            case UInt8(ascii: "t"): return true
            case UInt8(ascii: "f"): return false
            default: return nil
            }
        }
    }

    /// The `bytea` value at `row`, `column`, decoded from its text form (hex `\x…` or the old escape format),
    /// or `nil` for `NULL`.
    public func bytea(row: Int, column: Int) -> [UInt8]? {
        withUnsafeBytes(row: row, column: column) { bytes -> [UInt8]? in
            guard let bytes else { return nil }
            if let decoded = PGResult.decodeHex(bytes) { return decoded }
            // Escape format (`bytea_output = escape`): let libpq undo it. It needs a NUL-terminated copy.
            var terminated = Array(bytes)
            terminated.append(0)
            var length = 0
            guard let unescaped = PQunescapeBytea(terminated, &length) else { return nil }
            defer { PQfreemem(unescaped) }
            return Array(UnsafeBufferPointer(start: unescaped, count: length))
        }
    }

    /// Decodes `\x0a1B…`; `nil` when `text` is not in hex format.
    private static func decodeHex(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0
        else { return nil }
        func nibble(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(text.count / 2 - 1)
        var index = 2
        while index < text.count {
            guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
            decoded.append(high << 4 | low)
            index += 2
        }
        return decoded
    }
}
