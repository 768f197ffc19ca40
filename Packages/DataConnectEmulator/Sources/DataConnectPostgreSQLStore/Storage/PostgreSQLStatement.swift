import DataConnectEngine
import PostgreSQLKit

/// A prepared PostgreSQL statement as the engine steps it: bound values are kept until the first row is asked
/// for, then the statement runs once and its rows are read from the result.
///
/// Values arrive in their storage form (``SQLDialect``) and go as text; the dialect's placeholders cast them
/// to the columns' types. Read values come back in storage form too (``storedValue(at:)``).
final class PostgreSQLStatement: DatabaseStatement {
    let statement: PGStatement
    /// The connection's source, whose request budget is checked before the statement runs.
    unowned let source: PostgreSQLSource
    private var parameters: [PGValue] = []
    private var result: PGResult?
    private var row = -1

    init(_ statement: PGStatement, source: PostgreSQLSource) {
        self.statement = statement
        self.source = source
    }

    func bindParameters(_ values: [DatabaseValue]) throws(DatabaseError) {
        parameters = values.map(Self.parameter)
    }

    /// Binds the values in order: PostgreSQL numbers native SQL's `$1...$n` itself.
    func bindNumberedParameters(_ values: [DatabaseValue]) throws(DatabaseError) {
        try bindParameters(values)
    }

    /// `true`: PostgreSQL cannot tell before the statement runs; native SQL queries run in a read-only
    /// transaction instead.
    var isReadOnly: Bool { true }

    /// A storage value as a text parameter.
    static func parameter(_ value: DatabaseValue) -> PGValue {
        switch value {
        case .null: .null
        case .integer(let integer): .int(integer)
        case .real(let double): .double(double)
        case .text(let text): .text(text)
        case .blob(let bytes): .bytes(bytes)
        }
    }

    func nextRow() throws(DatabaseError) -> Bool {
        if result == nil {
            if source.budget?.shouldInterrupt() == true {
                throw DatabaseError(.interrupted, "the request's budget is spent")
            }
            do {
                result = try statement.execute(parameters)
            } catch {
                throw DatabaseError(error)
            }
            row = -1
        }
        guard let result else { return false }
        row += 1
        return row < result.rowCount
    }

    func storedValue(at index: Int) -> DatabaseValue {
        guard let result, row >= 0, row < result.rowCount, let text = result.string(row: row, column: index) else {
            return .null
        }
        return PostgreSQLStorage.storedValue(text, type: result.columnType(at: index))
    }

    func textBytes(at index: Int) -> [UInt8]? {
        guard let result, row >= 0, row < result.rowCount else { return nil }
        return result.bytes(row: row, column: index)
    }

    var rowsChanged: Int { result?.affectedRows ?? 0 }

    var columnCount: Int { result?.columnCount ?? 0 }

    var columnNames: [String] { result?.columnNames ?? [] }

    func finish() {
        result = nil
        row = -1
    }
}

/// PostgreSQL's text output turned into the engine's storage forms.
enum PostgreSQLStorage {
    /// Type OIDs of `pg_type` that need converting.
    enum TypeID {
        static let bool: UInt32 = 16
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
        static let uuid: UInt32 = 2950
        static let timestamptz: UInt32 = 1184
    }

    /// A column value in storage form: integers and booleans as `.integer`, floats as `.real`, UUIDs as 32 hex
    /// digits, timestamps as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (the session's time zone is UTC); text otherwise.
    static func storedValue(_ text: String, type: UInt32) -> DatabaseValue {
        switch type {
        case TypeID.bool: return .integer(text == "t" ? 1 : 0)
        case TypeID.int2, TypeID.int4, TypeID.int8: return Int64(text).map(DatabaseValue.integer) ?? .text(text)
        case TypeID.float4, TypeID.float8:
            switch text {
            case "Infinity": return .real(.infinity)
            case "-Infinity": return .real(-.infinity)
            case "NaN": return .real(.nan)
            default: return Double(text).map(DatabaseValue.real) ?? .text(text)
            }
        case TypeID.uuid: return .text(text.filter { $0 != "-" })
        case TypeID.timestamptz: return .text(storageTimestamp(text) ?? text)
        default: return .text(text)
        }
    }

    /// `2024-05-01 12:30:00.5+00` as `2024-05-01T12:30:00.500000Z`; `nil` when the text is not in that form.
    static func storageTimestamp(_ text: String) -> String? {
        let characters = Array(text.utf8)
        guard characters.count >= 22, characters[10] == UInt8(ascii: " ") else { return nil }
        var end = characters.count
        // The zone suffix: +00 (UTC is the session's zone), possibly +00:00.
        if let sign = characters.lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }), sign > 18 {
            end = sign
        }
        let date = String(decoding: characters[0..<10], as: UTF8.self)
        let time = String(decoding: characters[11..<19], as: UTF8.self)
        var fraction = ""
        if end > 20, characters[19] == UInt8(ascii: ".") {
            fraction = String(decoding: characters[20..<end], as: UTF8.self)
        }
        fraction = String((fraction + "000000").prefix(6))
        return date + "T" + time + "." + fraction + "Z"
    }
}

extension DatabaseError {
    /// A PostgreSQL error, classified by its SQLSTATE.
    init(_ error: PGError) {
        let kind: Kind
        if error.isConnectionFailure {
            kind = .unavailable
        } else if error.isUniqueViolation {
            kind = .uniqueViolation
        } else if error.isForeignKeyViolation {
            kind = .foreignKeyViolation
        } else if error.isNotNullViolation {
            kind = .notNullViolation
        } else if error.isCheckViolation || error.sqlState == "22001" {
            // 22001: a string longer than its varchar(n), which SQLite checks with a CHECK constraint.
            kind = .checkViolation
        } else if error.isNumericOutOfRange {
            kind = .numericOutOfRange
        } else if error.isQueryCanceled {
            kind = .interrupted
        } else if error.isOutOfMemory {
            kind = .outOfMemory
        } else if error.isProgramLimitExceeded {
            kind = .tooComplex
        } else if error.isDataCorrupted {
            kind = .damaged
        } else {
            kind = .other
        }
        self.init(kind, error.message)
    }
}
