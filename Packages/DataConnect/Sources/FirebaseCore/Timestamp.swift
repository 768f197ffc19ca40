import Foundation

/// A point in time with nanosecond precision: seconds and nanoseconds since 1970-01-01T00:00:00Z.
///
/// The nanoseconds are always in `0..<1_000_000_000`; the initializer carries any excess into the seconds.
/// In JSON a timestamp is an RFC 3339 string in UTC with 0, 3, 6 or 9 fractional digits.
///
/// ```swift
/// let launch = try Timestamp(rfc3339String: "2024-05-01T12:00:00.5+02:00")
/// launch.rfc3339String  // "2024-05-01T10:00:00.500Z"
/// Timestamp(seconds: 1, nanoseconds: -1) == Timestamp(seconds: 0, nanoseconds: 999_999_999)  // true
/// ```
public struct Timestamp: Hashable, Sendable {
    /// The whole seconds since the Unix epoch; negative before 1970.
    public let seconds: Int64
    /// The nanoseconds after ``seconds``, in `0..<1_000_000_000`.
    public let nanoseconds: Int32

    private static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// Creates a timestamp, carrying nanoseconds outside `0..<1_000_000_000` into the seconds.
    ///
    /// - Parameters:
    ///   - seconds: Seconds since the Unix epoch.
    ///   - nanoseconds: Nanoseconds to add; may be negative or a second or more.
    public init(seconds: Int64, nanoseconds: Int32) {
        let nanos = Int64(nanoseconds)
        var carry = nanos / Self.nanosecondsPerSecond
        var remainder = nanos % Self.nanosecondsPerSecond
        if remainder < 0 {
            remainder += Self.nanosecondsPerSecond
            carry -= 1
        }
        self.seconds = seconds &+ carry
        self.nanoseconds = Int32(remainder)
    }

    /// Creates a timestamp from a `Date`, rounded to the nearest nanosecond `Double` can express.
    public init(date: Date) {
        let interval = date.timeIntervalSince1970
        let whole = interval.rounded(.down)
        var nanos = Int64(((interval - whole) * 1e9).rounded())
        var seconds = Int64(whole)
        if nanos >= Self.nanosecondsPerSecond {
            nanos -= Self.nanosecondsPerSecond
            seconds += 1
        }
        self.init(seconds: seconds, nanoseconds: Int32(nanos))
    }

    /// Creates a timestamp for the current time.
    public init() {
        self.init(date: Date())
    }

    /// The timestamp as a `Date`, which keeps about microsecond precision for current dates.
    public func dateValue() -> Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }
}

extension Timestamp: Comparable {
    /// Orders timestamps in time.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}

// MARK: - RFC 3339

extension Timestamp {
    /// Why a string is not an RFC 3339 timestamp.
    public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The text that failed to parse.
        public let text: String
        /// What is wrong with it.
        public let reason: String

        /// Creates an error.
        public init(text: String, reason: String) {
            self.text = text
            self.reason = reason
        }

        /// The text and the reason.
        public var description: String {
            "invalid timestamp \"\(text)\": \(reason); expected RFC 3339 like 2024-05-01T10:00:00.123Z"
        }
    }

    /// Parses an RFC 3339 timestamp with any offset and 0 to 9 fractional digits.
    ///
    /// Letters may be in either case: the text must match
    /// `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{0,9})?(Z|[+-]\d{2}:\d{2})$` once uppercased, and name a
    /// real date and time.
    ///
    /// - Parameter text: The timestamp, e.g. `2024-05-01T10:00:00Z` or `2024-05-01T12:00:00.123456+02:00`.
    /// - Throws: ``FormatError`` when the text does not match or the date does not exist.
    public init(rfc3339String text: String) throws(FormatError) {
        let bytes = Array(text.utf8)
        var position = 0
        func fail(_ reason: String) -> FormatError {
            FormatError(text: text, reason: reason)
        }
        func number(_ count: Int, _ what: String) throws(FormatError) -> Int {
            guard position + count <= bytes.count else { throw fail("missing \(what)") }
            var value = 0
            for byte in bytes[position..<(position + count)] {
                guard byte >= 0x30 && byte <= 0x39 else { throw fail("expected \(count) digits for \(what)") }
                value = value * 10 + Int(byte - 0x30)
            }
            position += count
            return value
        }
        func expect(_ characters: String, _ what: String) throws(FormatError) -> UInt8 {
            guard position < bytes.count else { throw fail("missing \(what)") }
            let byte = bytes[position]
            let upper = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
            guard characters.utf8.contains(upper) else { throw fail("expected \(what) at offset \(position)") }
            position += 1
            return upper
        }

        let year = try number(4, "the year")
        _ = try expect("-", "'-'")
        let month = try number(2, "the month")
        _ = try expect("-", "'-'")
        let day = try number(2, "the day")
        _ = try expect("T", "'T'")
        let hour = try number(2, "the hour")
        _ = try expect(":", "':'")
        let minute = try number(2, "the minute")
        _ = try expect(":", "':'")
        let second = try number(2, "the second")
        var nanos = 0
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            var digits = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                guard digits < 9 else { throw fail("more than 9 fractional digits") }
                nanos = nanos * 10 + Int(bytes[position] - 0x30)
                digits += 1
                position += 1
            }
            for _ in digits..<9 {
                nanos *= 10
            }
        }
        var offsetMinutes = 0
        let zone = try expect("Z+-", "'Z' or an offset")
        if zone != UInt8(ascii: "Z") {
            let offsetHour = try number(2, "the offset hours")
            _ = try expect(":", "':' in the offset")
            let offsetMinute = try number(2, "the offset minutes")
            guard offsetHour < 24, offsetMinute < 60 else { throw fail("offset out of range") }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (zone == UInt8(ascii: "-") ? -1 : 1)
        }
        guard position == bytes.count else { throw fail("unexpected text after the time zone") }
        guard (1...12).contains(month) else { throw fail("month \(month) out of range") }
        guard day >= 1, day <= CivilCalendar.daysInMonth(year: Int64(year), month: month) else {
            throw fail("day \(day) does not exist in \(CivilCalendar.padded(Int64(year), width: 4))-\(month)")
        }
        guard hour < 24, minute < 60, second < 60 else { throw fail("time of day out of range") }
        let days = CivilCalendar.days(year: Int64(year), month: month, day: day)
        let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(seconds: local - Int64(offsetMinutes * 60), nanoseconds: Int32(nanos))
    }

    /// The timestamp in RFC 3339 form, in UTC with `Z`, with 0, 3, 6 or 9 fractional digits as needed.
    ///
    /// Years outside 0000-9999 are written with as many digits as they need, and a sign when negative,
    /// which RFC 3339 does not allow; encoding such a timestamp fails instead.
    public var rfc3339String: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let date = CivilCalendar.date(days: days)
        var text = CivilCalendar.padded(date.year, width: 4) + "-" + CivilCalendar.padded(Int64(date.month), width: 2)
        text += "-" + CivilCalendar.padded(Int64(date.day), width: 2) + "T"
        text += CivilCalendar.padded(secondOfDay / 3600, width: 2) + ":"
        text += CivilCalendar.padded(secondOfDay % 3600 / 60, width: 2) + ":"
        text += CivilCalendar.padded(secondOfDay % 60, width: 2)
        let nanos = Int64(nanoseconds)
        if nanos % 1_000_000 == 0 && nanos != 0 {
            text += "." + CivilCalendar.padded(nanos / 1_000_000, width: 3)
        } else if nanos % 1000 == 0 && nanos != 0 {
            text += "." + CivilCalendar.padded(nanos / 1000, width: 6)
        } else if nanos != 0 {
            text += "." + CivilCalendar.padded(nanos, width: 9)
        }
        return text + "Z"
    }

    /// Whether the year is in 0000-9999, the range RFC 3339 can write.
    var isInRFC3339Range: Bool {
        seconds >= -62_167_219_200 && seconds <= 253_402_300_799
    }
}

extension Timestamp: CustomStringConvertible {
    /// The RFC 3339 form; see ``rfc3339String``.
    public var description: String { rfc3339String }
}

extension Timestamp: Codable {
    /// Decodes an RFC 3339 string with any offset and 0 to 9 fractional digits.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the bad text and what is wrong with it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(rfc3339String: text)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error
                )
            )
        }
    }

    /// Encodes the RFC 3339 string in UTC; see ``rfc3339String``.
    ///
    /// - Throws: `EncodingError.invalidValue` for years outside 0000-9999.
    public func encode(to encoder: any Encoder) throws {
        guard isInRFC3339Range else {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: encoder.codingPath, debugDescription: "timestamp \(self) is outside years 0000-9999"
                )
            )
        }
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339String)
    }
}
