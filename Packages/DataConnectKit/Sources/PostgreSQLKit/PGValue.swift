/// A statement parameter: `NULL`, text the server parses into the parameter's type, or raw `bytea` bytes.
///
/// Parameters travel in PostgreSQL's text format with type OID 0, so the server infers each parameter's type
/// from the statement (`$1::int8` pins it). Numbers and booleans therefore go as their text:
///
/// ```swift
/// try connection.query(
///     "INSERT INTO movies(id, rating, poster) VALUES ($1, $2, $3)",
///     [.text("m1"), .double(8.5), .bytes(png)])
/// ```
///
/// ``bytes(_:)`` is sent in binary format, so it reaches a `bytea` parameter unescaped.
public enum PGValue: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// Text in PostgreSQL's input syntax for the parameter's type (`42`, `2024-05-01`, `{"a":1}`).
    ///
    /// The text must not contain a NUL character, which PostgreSQL text cannot hold.
    case text(String)
    /// Raw bytes for a `bytea` parameter, sent in binary format.
    case bytes([UInt8])

    /// An integer, as its decimal text.
    public static func int(_ value: Int64) -> PGValue {
        .text(String(value))
    }

    /// A double as the shortest text that reads back the same value; `Infinity`, `-Infinity` and `NaN` as
    /// PostgreSQL spells them.
    public static func double(_ value: Double) -> PGValue {
        .text(PGValue.text(of: value))
    }

    /// A boolean, as `true` or `false`.
    public static func bool(_ value: Bool) -> PGValue {
        .text(value ? "true" : "false")
    }

    /// The text PostgreSQL reads back as exactly `value` (Swift's shortest round-trip digits).
    static func text(of value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return value.description
    }
}

extension PGValue: ExpressibleByNilLiteral {
    /// `nil` is ``null``.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension PGValue: ExpressibleByStringLiteral {
    /// A string literal is ``text(_:)``.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension PGValue: ExpressibleByIntegerLiteral {
    /// An integer literal is ``int(_:)``.
    public init(integerLiteral value: Int64) {
        self = .int(value)
    }
}

extension PGValue: ExpressibleByFloatLiteral {
    /// A floating-point literal is ``double(_:)``.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension PGValue: ExpressibleByBooleanLiteral {
    /// A boolean literal is ``bool(_:)``.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}
