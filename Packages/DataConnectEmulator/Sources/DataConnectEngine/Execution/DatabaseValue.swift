/// A value as the engine binds it to a statement and reads it from a row: null, an integer, a real, text or
/// bytes, in the storage form of its column (``SQLDialect``).
///
/// Each store converts between these values and its driver's own: SQLite stores them as they are, PostgreSQL
/// sends them as text parameters that the dialect's placeholders cast to the columns' types.
///
/// Literals make bindings read naturally:
///
/// ```swift
/// let values: [DatabaseValue] = [1, "Alien", 8.5, nil]
/// try statement.bindParameters(values)
/// ```
public enum DatabaseValue: Hashable, Sendable {
    /// `NULL`.
    case null
    /// A 64-bit signed integer (also `Int`, `Int64` and `Boolean` as 0 or 1).
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text (also UUIDs, dates, timestamps and JSON in their storage form).
    case text(String)
    /// Bytes.
    case blob([UInt8])

    /// Whether the value is `NULL`.
    public var isNull: Bool {
        self == .null
    }
}

extension DatabaseValue: ExpressibleByNilLiteral {
    /// `NULL`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension DatabaseValue: ExpressibleByIntegerLiteral {
    /// An integer.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension DatabaseValue: ExpressibleByFloatLiteral {
    /// A real.
    public init(floatLiteral value: Double) {
        self = .real(value)
    }
}

extension DatabaseValue: ExpressibleByStringLiteral {
    /// Text.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension DatabaseValue: ExpressibleByBooleanLiteral {
    /// Booleans are stored as the integers 0 and 1.
    public init(booleanLiteral value: Bool) {
        self = .integer(value ? 1 : 0)
    }
}

extension DatabaseValue: CustomStringConvertible {
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
            return "'" + value.replacing("'", with: "''") + "'"
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
