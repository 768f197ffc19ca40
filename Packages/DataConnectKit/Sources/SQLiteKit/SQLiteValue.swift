/// A value SQLite stores: null, an integer, a real, text or a blob.
///
/// Literals make bindings read naturally:
///
/// ```swift
/// try connection.execute("INSERT INTO movies(id, title, rating, poster) VALUES (?, ?, ?, ?)",
///                        [1, "Alien", 8.5, nil])
/// ```
public enum SQLiteValue: Hashable, Sendable {
    /// `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob([UInt8])

    /// The storage class of the value.
    public var type: ColumnType {
        switch self {
        case .null: return .null
        case .integer: return .integer
        case .real: return .real
        case .text: return .text
        case .blob: return .blob
        }
    }

    /// Whether the value is `NULL`.
    public var isNull: Bool {
        self == .null
    }
}

/// The storage class of a value or of a column in the current row.
public enum ColumnType: Hashable, Sendable {
    /// A 64-bit signed integer.
    case integer
    /// A double.
    case real
    /// UTF-8 text.
    case text
    /// Bytes.
    case blob
    /// `NULL`.
    case null
}

extension SQLiteValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) {
        self = .real(value)
    }
}

extension SQLiteValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
    /// Booleans are stored as the integers 0 and 1, as SQLite does.
    public init(booleanLiteral value: Bool) {
        self = .integer(value ? 1 : 0)
    }
}

extension SQLiteValue: CustomStringConvertible {
    /// The value as an SQL literal, e.g. `NULL`, `42`, `'it''s'`, `X'00FF'`.
    public var description: String {
        switch self {
        case .null:
            return "NULL"
        case .integer(let value):
            return String(value)
        case .real(let value):
            return String(value)
        case .text(let value):
            return "'" + value.replacingAll("'", with: "''") + "'"
        case .blob(let bytes):
            let hexDigits = Array("0123456789ABCDEF")
            var text = "X'"
            for byte in bytes {
                text.append(hexDigits[Int(byte >> 4)])
                text.append(hexDigits[Int(byte & 0x0F)])
            }
            return text + "'"
        }
    }
}

extension String {
    /// The string with every `target` character replaced by `replacement`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target {
                result += replacement
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// A Swift type that converts to and from ``SQLiteValue``, for bindings and typed column reads.
///
/// The library conforms `Int`, `Int64`, `Int32`, `Double`, `String`, `Bool`, `[UInt8]`, ``SQLiteValue`` and
/// `Optional` of any of them.
///
/// ```swift
/// let statement = try connection.prepare("SELECT title FROM movies WHERE id = ?")
/// try statement.bind(42, at: 1)
/// let title: String? = try statement.step() ? statement.column(at: 0) : nil
/// ```
public protocol SQLiteValueConvertible {
    /// The value to store.
    var sqliteValue: SQLiteValue { get }

    /// Converts a stored value, or returns `nil` when it does not fit this type.
    init?(sqliteValue: SQLiteValue)
}

extension SQLiteValue: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self }

    public init?(sqliteValue: SQLiteValue) {
        self = sqliteValue
    }
}

extension Int64: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self) }

    /// Reads an integer, or a real with an exact integer value.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value
        case .real(let value):
            guard let exact = Int64(exactly: value) else { return nil }
            self = exact
        default: return nil
        }
    }
}

extension Int: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }

    /// Reads an integer in `Int` range, or a real with an exact integer value.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue), let exact = Int(exactly: value) else { return nil }
        self = exact
    }
}

extension Int32: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }

    /// Reads an integer in `Int32` range, or a real with an exact integer value.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue), let exact = Int32(exactly: value) else { return nil }
        self = exact
    }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }

    /// Reads a real or an integer.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: SQLiteValueConvertible {
    /// Stored as the integers 0 and 1.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }

    /// Reads an integer: zero is `false`, anything else `true`.
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value != 0
    }
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }

    /// Reads text.
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Array: SQLiteValueConvertible where Element == UInt8 {
    public var sqliteValue: SQLiteValue { .blob(self) }

    /// Reads a blob, or the UTF-8 bytes of text.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .blob(let bytes): self = bytes
        case .text(let text): self = Array(text.utf8)
        default: return nil
        }
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    /// `NULL` for `nil`.
    public var sqliteValue: SQLiteValue {
        switch self {
        case .none: return .null
        case .some(let wrapped): return wrapped.sqliteValue
        }
    }

    /// Reads `NULL` as `nil`, anything else as the wrapped type.
    public init?(sqliteValue: SQLiteValue) {
        if case .null = sqliteValue {
            self = .none
            return
        }
        guard let wrapped = Wrapped(sqliteValue: sqliteValue) else { return nil }
        self = .some(wrapped)
    }
}
