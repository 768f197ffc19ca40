/// An instant with nanosecond precision, read from and written as RFC 3339 text.
///
/// The value is ``seconds`` and ``nanoseconds`` since 1970-01-01T00:00:00Z, the shape of
/// `google.protobuf.Timestamp`, whose JSON form is the wire form of Data Connect's `Timestamp` scalar.
///
/// ## The accepted text
///
/// One rule, shared by the SDK's `Timestamp`, the schema's literal validation, the emulator's storage and CEL's
/// `timestamp()`; the `Date` scalar accepts the same time part after a date, and drops it
/// (``CivilDate/init(parsingDroppingTime:)``):
///
/// ```
/// date-time = YYYY "-" MM "-" DD ("T" / "t") hh ":" mm ":" ss ["." 1*9DIGIT] ("Z" / "z" / offset)
/// offset    = ("+" / "-") hh ":" mm
/// ```
///
/// - Every field has exactly the digits shown, in ASCII. Nothing else is allowed: no spaces around or inside
///   the text, no sign on the year, no missing parts, no offset without its colon (`+0200`).
/// - MM is 01-12 and DD a day of that month in the proleptic Gregorian calendar (Feb 29 only in leap years).
/// - hh is 00-23 (`24:00:00` is refused), mm 00-59, and ss 00-59: a leap second (`23:59:60`) is refused, since
///   a protobuf `Timestamp` has no leap seconds (they are smeared).
/// - A `.` must be followed by 1 to 9 digits: `10:00:00.Z` and ten fractional digits are refused.
/// - An offset has hours 00-23 and minutes 00-59; `-00:00` means UTC, like `Z`.
/// - The instant, in UTC, must fall in years 0000 to 9999, which is what RFC 3339 can write. Callers with a
///   narrower range check it on the parsed value: Data Connect's `Timestamp` scalar starts at 1583 and a CEL
///   timestamp at year 1.
///
/// ## Writing
///
/// ``formatted(fraction:)`` writes UTC with `Z`; ``FractionDigits`` chooses the fraction: trimmed to 0, 3, 6 or 9
/// digits (the protobuf JSON form, used on the wire), or a fixed count (the emulator stores six, so stored text
/// sorts in time order).
///
/// ```swift
/// let launch = try RFC3339Timestamp(parsing: "2024-05-01T12:00:00.5+02:00")
/// launch.seconds                                // 1_714_557_600
/// launch.formatted()                            // "2024-05-01T10:00:00.500Z"
/// launch.formatted(fraction: .fixed(digits: 6))  // "2024-05-01T10:00:00.500000Z"
/// ```
public struct RFC3339Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The whole seconds since 1970-01-01T00:00:00Z; negative before 1970.
    public let seconds: Int64
    /// The nanoseconds after ``seconds``, in `0..<1_000_000_000`.
    public let nanoseconds: Int32

    /// The first second of year 0000: 0000-01-01T00:00:00Z.
    public static let earliestSeconds: Int64 = -62_167_219_200
    /// The last second of year 9999: 9999-12-31T23:59:59Z.
    public static let latestSeconds: Int64 = 253_402_300_799

    private static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// Creates a timestamp, carrying nanoseconds outside `0..<1_000_000_000` into the seconds.
    ///
    /// - Parameters:
    ///   - seconds: Seconds since the Unix epoch.
    ///   - nanoseconds: Nanoseconds to add; may be negative or a second or more.
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        let (carry, remainder) = Int64(nanoseconds).quotientAndRemainder(dividingBy: Self.nanosecondsPerSecond)
        if remainder < 0 {
            self.seconds = seconds &+ carry &- 1
            self.nanoseconds = Int32(remainder + Self.nanosecondsPerSecond)
        } else {
            self.seconds = seconds &+ carry
            self.nanoseconds = Int32(remainder)
        }
    }

    /// Creates a timestamp from microseconds since the Unix epoch.
    ///
    /// - Parameter unixMicroseconds: Microseconds since 1970-01-01T00:00:00Z; negative before 1970.
    public init(unixMicroseconds: Int64) {
        let (seconds, micros) = unixMicroseconds.quotientAndRemainder(dividingBy: 1_000_000)
        self.init(seconds: seconds, nanoseconds: Int32(micros * 1000))
    }

    /// The instant as microseconds since the Unix epoch, dropping the nanoseconds below a microsecond.
    ///
    /// The result wraps for instants beyond about 292 000 years from 1970, far outside what text can hold.
    public var unixMicroseconds: Int64 {
        seconds &* 1_000_000 &+ Int64(nanoseconds / 1000)
    }

    /// The date of the instant in UTC.
    public var date: CivilDate {
        CivilDate(daysSinceEpoch: CivilCalendar.dayAndSecond(ofUnixSeconds: seconds).days)
    }

    /// Orders timestamps in time.
    public static func < (lhs: RFC3339Timestamp, rhs: RFC3339Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}

// MARK: - Parsing

extension RFC3339Timestamp {
    /// Parses RFC 3339 text by the rule in the type's documentation.
    ///
    /// ```swift
    /// try RFC3339Timestamp(parsing: "2024-05-01t10:00:00z").seconds  // 1_714_557_600
    /// try RFC3339Timestamp(parsing: "2024-05-01T10:00:60Z")          // throws: second 60 is out of range 00-59
    /// ```
    ///
    /// - Parameter text: The timestamp, e.g. `2024-05-01T10:00:00Z` or `2024-05-01T12:00:00.123456+02:00`.
    /// - Throws: ``TimeFormatError`` naming the first problem.
    public init(parsing text: String) throws(TimeFormatError) {
        self = try text.withContiguousUTF8 { bytes in
            var scanner = ASCII.Scanner(bytes)
            return Self.scan(&scanner)
        }.get()
    }

    private static func scan(_ scanner: inout ASCII.Scanner) -> Result<RFC3339Timestamp, TimeFormatError> {
        CivilDate.scan(&scanner).flatMap { date in
            scanTime(&scanner).flatMap { time in
                let local = date.daysSinceEpoch * CivilCalendar.secondsPerDay + Int64(time.secondOfDay)
                let seconds = local - Int64(time.offsetSeconds)
                guard seconds >= earliestSeconds, seconds <= latestSeconds else {
                    return .failure(TimeFormatError(reason: "the instant in UTC is outside years 0000-9999"))
                }
                return .success(RFC3339Timestamp(seconds: seconds, nanoseconds: Int32(time.nanoseconds)))
            }
        }
    }

    /// The part of RFC 3339 text after the date, as written: the time of day and the offset from UTC.
    struct TimePart {
        /// The seconds since local midnight, `0..<86_400`.
        let secondOfDay: Int
        /// The fraction of the second, in nanoseconds.
        let nanoseconds: Int
        /// The offset from UTC in seconds, e.g. -18_000 for `-05:00`.
        let offsetSeconds: Int
    }

    /// Reads what follows the date, to the end of the text: `T` (or `t`), `hh:mm:ss`, an optional fraction of 1
    /// to 9 digits, and `Z` (or `z`) or an offset `±hh:mm`.
    ///
    /// The timestamp parser and the `Date` scalar's (``CivilDate/init(parsingDroppingTime:)``) both read the time
    /// part here, so a date accepts exactly the time parts a timestamp does.
    static func scanTime(_ scanner: inout ASCII.Scanner) -> Result<TimePart, TimeFormatError> {
        func failure(_ reason: String) -> Result<TimePart, TimeFormatError> {
            .failure(TimeFormatError(reason: reason))
        }
        guard scanner.skip(letterIgnoringCase: UInt8(ascii: "T")) else {
            return failure("expected 'T' between the date and the time")
        }
        guard let hour = scanner.number(digits: 2), scanner.skip(UInt8(ascii: ":")),
            let minute = scanner.number(digits: 2), scanner.skip(UInt8(ascii: ":")),
            let second = scanner.number(digits: 2)
        else { return failure("expected a time written hh:mm:ss") }
        guard hour < 24 else { return failure("hour \(hour) is out of range 00-23") }
        guard minute < 60 else { return failure("minute \(minute) is out of range 00-59") }
        guard second < 60 else { return failure("second \(second) is out of range 00-59") }

        var nanoseconds = 0
        if scanner.skip(UInt8(ascii: ".")) {
            var digits = 0
            while let byte = scanner.next, byte >= ASCII.zero, byte <= ASCII.zero + 9 {
                digits += 1
                guard digits <= 9 else { return failure("more than 9 fractional digits") }
                nanoseconds = nanoseconds * 10 + Int(byte - ASCII.zero)
                scanner.position += 1
            }
            guard digits > 0 else { return failure("expected 1 to 9 digits after '.'") }
            for _ in digits..<9 { nanoseconds *= 10 }
        }

        var offsetSeconds = 0
        if !scanner.skip(letterIgnoringCase: UInt8(ascii: "Z")) {
            let sign: Int
            if scanner.skip(UInt8(ascii: "+")) {
                sign = 1
            } else if scanner.skip(UInt8(ascii: "-")) {
                sign = -1
            } else {
                return failure("expected the time zone: 'Z' or an offset like +02:00")
            }
            guard let offsetHour = scanner.number(digits: 2), scanner.skip(UInt8(ascii: ":")),
                let offsetMinute = scanner.number(digits: 2)
            else { return failure("expected an offset written +hh:mm or -hh:mm") }
            guard offsetHour < 24, offsetMinute < 60 else { return failure("the offset is out of range") }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        }
        guard scanner.isAtEnd else { return failure("unexpected text after the time zone") }
        return .success(
            TimePart(
                secondOfDay: hour * 3600 + minute * 60 + second, nanoseconds: nanoseconds,
                offsetSeconds: offsetSeconds))
    }
}

// MARK: - Writing

extension RFC3339Timestamp {
    /// How many fractional digits ``RFC3339Timestamp/formatted(fraction:)`` writes.
    public enum FractionDigits: Hashable, Sendable {
        /// None for a whole second, else 3, 6 or 9 digits, the fewest that keep every nonzero digit:
        /// `10:00:00Z`, `10:00:00.500Z`, `10:00:00.000001Z`. The protobuf JSON form.
        case trimmed
        /// Exactly `digits` digits (0 to 9), truncating the rest; 0 writes no `.`.
        case fixed(digits: Int)
    }

    /// The timestamp in UTC: `YYYY-MM-DDThh:mm:ss[.fraction]Z`.
    ///
    /// Years outside 0000-9999 (possible only for timestamps made from numbers) are written with as many digits
    /// as they need and a `-` when negative, which RFC 3339 does not allow.
    ///
    /// ```swift
    /// RFC3339Timestamp(seconds: 0, nanoseconds: 250_000_000).formatted()  // "1970-01-01T00:00:00.250Z"
    /// RFC3339Timestamp(seconds: 0).formatted(fraction: .fixed(digits: 6))  // "1970-01-01T00:00:00.000000Z"
    /// ```
    ///
    /// - Parameter fraction: How many fractional digits to write; trimmed to 0, 3, 6 or 9 by default.
    /// - Returns: The text.
    public func formatted(fraction: FractionDigits = .trimmed) -> String {
        let (days, secondOfDay) = CivilCalendar.dayAndSecond(ofUnixSeconds: seconds)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(30)
        CivilDate(daysSinceEpoch: days).appendText(to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        ASCII.appendPadded(secondOfDay / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCII.appendPadded(secondOfDay % 3600 / 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCII.appendPadded(secondOfDay % 60, width: 2, to: &bytes)
        let digits: Int
        switch fraction {
        case .trimmed:
            if nanoseconds == 0 {
                digits = 0
            } else if nanoseconds % 1_000_000 == 0 {
                digits = 3
            } else if nanoseconds % 1000 == 0 {
                digits = 6
            } else {
                digits = 9
            }
        case .fixed(let count):
            digits = min(max(count, 0), 9)
        }
        if digits > 0 {
            var scale: Int64 = 1
            for _ in digits..<9 { scale *= 10 }
            bytes.append(UInt8(ascii: "."))
            ASCII.appendPadded(Int64(nanoseconds) / scale, width: digits, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text with the fraction trimmed; see ``formatted(fraction:)``.
    public var description: String { formatted() }
}
