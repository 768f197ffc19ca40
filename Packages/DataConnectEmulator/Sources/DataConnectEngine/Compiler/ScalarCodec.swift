import DataConnectSchema
import DataConnectWire
import SQLiteKit

#if canImport(Glibc)
import Glibc
#endif

/// An instant as microseconds since 1970-01-01T00:00:00Z, with the calendar arithmetic the
/// emulator needs (RFC 3339 parsing and formatting, durations, truncation), without Foundation.
struct Instant: Comparable, Sendable {
    var microseconds: Int64

    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.microseconds < rhs.microseconds }

    /// Days since 1970-01-01 of a civil date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        Int(CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    /// The civil date of a day number.
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let (year, month, day) = CivilCalendar.civilFromDays(Int64(days))
        return (Int(year), Int(month), Int(day))
    }

    /// Parses RFC 3339 (any offset, 0–9 fractional digits); `nil` when invalid.
    init?(rfc3339 text: String) {
        guard ScalarFormats.isValidTimestamp(text) else { return nil }
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int {
            range.reduce(0) { $0 * 10 + Int(b[$1] - 48) }
        }
        let days = Self.days(year: number(0..<4), month: number(5..<7), day: number(8..<10))
        var seconds = Int64(days) * 86_400 + Int64(number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19))
        var micros: Int64 = 0
        var i = 19
        if b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if digits < 6 { micros = micros * 10 + Int64(b[i] - 48) }
                digits += 1
                i += 1
            }
            for _ in digits..<max(digits, 6) { micros *= 10 }
        }
        if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let offset = Int64(number((i + 1)..<(i + 3)) * 3600 + number((i + 4)..<(i + 6)) * 60)
            seconds += b[i] == UInt8(ascii: "+") ? -offset : offset
        }
        microseconds = seconds * 1_000_000 + micros
    }

    init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// The current time.
    static var now: Instant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Instant(microseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
    }

    private var parts: (days: Int, second: Int, micro: Int) {
        let total = microseconds
        var days = Int(total / 86_400_000_000)
        var rest = total % 86_400_000_000
        if rest < 0 {
            rest += 86_400_000_000
            days -= 1
        }
        return (days, Int(rest / 1_000_000), Int(rest % 1_000_000))
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// The storage form: fixed-width `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
    var storageText: String {
        let (days, second, micro) = parts
        let (y, m, d) = Self.civil(days: days)
        return "\(Self.pad(y, 4))-\(Self.pad(m, 2))-\(Self.pad(d, 2))T\(Self.pad(second / 3600, 2)):"
            + "\(Self.pad(second / 60 % 60, 2)):\(Self.pad(second % 60, 2)).\(Self.pad(micro, 6))Z"
    }

    /// The UTC calendar date, `YYYY-MM-DD`.
    var dateText: String {
        let (y, m, d) = Self.civil(days: parts.days)
        return "\(Self.pad(y, 4))-\(Self.pad(m, 2))-\(Self.pad(d, 2))"
    }

    /// Adds a calendar duration: months and years move the date (clamping the day), the rest is exact.
    func adding(
        years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0,
        seconds: Int = 0, milliseconds: Int = 0, sign: Int = 1
    ) -> Instant {
        var (dayNumber, second, micro) = parts
        if years != 0 || months != 0 {
            var (y, m, d) = Self.civil(days: dayNumber)
            let totalMonths = y * 12 + (m - 1) + sign * (years * 12 + months)
            y = totalMonths >= 0 ? totalMonths / 12 : (totalMonths - 11) / 12
            m = totalMonths - y * 12 + 1
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
            let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            d = min(d, lengths[m - 1])
            dayNumber = Self.days(year: y, month: m, day: d)
        }
        let base = (Int64(dayNumber) * 86_400 + Int64(second)) * 1_000_000 + Int64(micro)
        let delta =
            ((Int64(weeks) * 7 + Int64(days)) * 86_400 + Int64(hours) * 3600 + Int64(minutes) * 60 + Int64(seconds))
            * 1_000_000 + Int64(milliseconds) * 1000
        return Instant(microseconds: base + Int64(sign) * delta)
    }

    /// Truncates to the start of a unit: SECOND, MINUTE, HOUR, DAY, WEEK (Monday), MONTH, YEAR.
    func truncated(to unit: String) -> Instant {
        let (days, second, _) = parts
        let (y, m, _) = Self.civil(days: days)
        let start: Int64
        switch unit {
        case "SECOND": start = Int64(days) * 86_400 + Int64(second)
        case "MINUTE": start = Int64(days) * 86_400 + Int64(second / 60 * 60)
        case "HOUR": start = Int64(days) * 86_400 + Int64(second / 3600 * 3600)
        case "DAY": start = Int64(days) * 86_400
        case "WEEK":
            let weekday = ((days % 7) + 7 + 3) % 7  // 0 = Monday (1970-01-01 was a Thursday)
            start = Int64(days - weekday) * 86_400
        case "MONTH": start = Int64(Self.days(year: y, month: m, day: 1)) * 86_400
        case "YEAR": start = Int64(Self.days(year: y, month: 1, day: 1)) * 86_400
        default: return self
        }
        return Instant(microseconds: start * 1_000_000)
    }

    /// Midnight UTC of a `YYYY-MM-DD` date.
    init?(date text: String) {
        guard let canonical = ScalarFormats.canonicalDate(text) else { return nil }
        let b = Array(canonical.utf8)
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(b[$1] - 48) } }
        microseconds = Int64(Self.days(year: number(0..<4), month: number(5..<7), day: number(8..<10))) * 86_400_000_000
    }
}

/// Converts between JSON wire values and SQLite storage values, per column type.
enum ScalarCodec {
    /// Why a value does not fit a type.
    struct Mismatch: Error, Sendable {
        let expected: String
        let found: JSONValue
        var message: String {
            "expected \(expected), found \(found.jsonString())"
        }
    }

    /// Coerces a JSON value to a scalar's canonical wire form (UUID dashless, timestamps in storage
    /// form, Int64 as a number); throws when it does not fit.
    static func coerce(_ value: JSONValue, to scalar: String, enumValues: [String]? = nil) throws(Mismatch) -> JSONValue
    {
        if case .null = value { return .null }
        if let enumValues {
            guard case .string(let s) = value, enumValues.contains(s) else {
                throw Mismatch(expected: "one of \(enumValues.joined(separator: ", "))", found: value)
            }
            return value
        }
        switch scalar {
        case "String", "ID":
            if case .string = value { return value }
            if scalar == "ID", case .number(let n) = value, n.isInteger { return .string(n.text) }
        case "Int":
            if case .number(let n) = value, let i = n.int64Value, n.isInteger, ScalarFormats.isInt32(i) { return value }
        case "Int64":
            if case .number(let n) = value, n.isInteger, let i = n.int64Value { return .number(JSONNumber(i)) }
            if case .string(let s) = value, let i = ScalarFormats.int64(s) { return .number(JSONNumber(i)) }
        case "Float":
            if case .number(let n) = value, ScalarFormats.isRepresentableFloat(n.text) { return value }
        case "Boolean":
            if case .bool = value { return value }
        case "UUID":
            if case .string(let s) = value, let u = ScalarFormats.canonicalUUID(s) { return .string(u) }
        case "Date":
            if case .string(let s) = value, let d = ScalarFormats.canonicalDate(s) { return .string(d) }
        case "Timestamp":
            if case .string(let s) = value, let t = Instant(rfc3339: s) { return .string(t.storageText) }
        case "Any":
            return value
        case "Vector":
            if case .array(let items) = value, items.allSatisfy({ if case .number = $0 { true } else { false } }) {
                return value
            }
        default:
            if case .string = value { return value }
        }
        throw Mismatch(expected: scalar, found: value)
    }

    /// The SQLite value stored for a coerced JSON value of a column.
    static func storage(_ value: JSONValue, for column: Column) -> SQLiteValue {
        if case .null = value { return .null }
        if column.isList { return .text(listStorage(value, column: column)) }
        switch column.type {
        case .enumeration: return value.stringValue.map(SQLiteValue.text) ?? .null
        case .scalar(let scalar): return storage(value, scalar: scalar)
        }
    }

    /// The SQLite value for a coerced JSON value of a scalar type.
    static func storage(_ value: JSONValue, scalar: ScalarType) -> SQLiteValue {
        switch (scalar, value) {
        case (_, .null): return .null
        case (.int, .number(let n)), (.int64, .number(let n)): return .integer(n.int64Value ?? 0)
        case (.int64, .string(let s)): return .integer(Int64(s) ?? 0)
        case (.float, .number(let n)): return .real(n.doubleValue)
        case (.boolean, .bool(let b)): return .integer(b ? 1 : 0)
        // `Any` is stored canonically (keys sorted), so equal values compare equal in SQL, as jsonb does.
        case (.any, _): return .text(value.jsonString(canonical: true))
        case (.vector, _): return .text(value.jsonString())
        case (.timestamp, .string(let s)): return .text(Instant(rfc3339: s)?.storageText ?? s)
        case (_, .string(let s)): return .text(s)
        case (_, .number(let n)): return n.isInteger ? .integer(n.int64Value ?? 0) : .real(n.doubleValue)
        case (_, .bool(let b)): return .integer(b ? 1 : 0)
        default: return .text(value.jsonString())
        }
    }

    /// A list column's stored JSON: the wire form of each element (Int64 as strings, timestamps trimmed).
    static func listStorage(_ value: JSONValue, column: Column) -> String {
        guard case .array(let items) = value else { return "[]" }
        return JSONValue.array(items.map { wire($0, column: column) }).jsonString()
    }

    /// The wire form of one coerced element of a column's type.
    static func wire(_ value: JSONValue, column: Column) -> JSONValue {
        guard case .scalar(let scalar) = column.type else { return value }
        switch (scalar, value) {
        case (.int64, .number(let n)): return .string(n.text)
        case (.timestamp, .string(let s)): return .string(Instant(rfc3339: s).map(wireTimestamp) ?? s)
        default: return value
        }
    }

    /// The wire form of a timestamp: UTC, fraction trimmed to 0, 3 or 6 digits.
    static func wireTimestamp(_ instant: Instant) -> String {
        let text = instant.storageText
        if text.hasSuffix(".000000Z") { return String(text.prefix(19)) + "Z" }
        if text.hasSuffix("000Z") { return String(text.prefix(23)) + "Z" }
        return text
    }

    /// The JSON wire value of a stored SQLite value of a column (for key outputs and CEL bindings).
    static func wireValue(_ stored: SQLiteValue, column: Column) -> JSONValue {
        switch stored {
        case .null: return .null
        case .integer(let i):
            if column.type == .scalar(.boolean) { return .bool(i != 0) }
            if column.type == .scalar(.int64) { return .string(String(i)) }
            return .number(JSONNumber(i))
        case .real(let d): return .number(JSONNumber(d))
        case .text(let s):
            if column.isList || column.type == .scalar(.any) || column.type == .scalar(.vector) {
                return (try? JSONValue(parsing: s)) ?? .string(s)
            }
            if column.type == .scalar(.timestamp), let instant = Instant(rfc3339: s) {
                return .string(wireTimestamp(instant))
            }
            return .string(s)
        case .blob: return .null
        }
    }
}
