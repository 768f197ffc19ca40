/// A calendar date without a time zone, written `YYYY-MM-DD`: the value of Data Connect's `Date` scalar.
///
/// Dates follow the proleptic Gregorian calendar of ``CivilCalendar``. Text is read strictly:
///
/// - ``init(parsing:)`` takes exactly `YYYY-MM-DD` (RFC 3339's `full-date`): ten characters, ASCII digits, a
///   month from 01 to 12 and a day that exists in that month, so `2024-02-29` is a date and `2023-02-29`,
///   `2024-2-9`, ` 2024-02-09` and `2024-02-09Z` are not.
/// - ``init(parsingDateOrUTCMidnight:)`` also takes the same date at exactly midnight UTC,
///   `YYYY-MM-DDT00:00:00Z`, optionally with a `.` and one or more zeros before the `Z`, which is what many
///   clients send for a date. Any other time is refused rather than dropped: `2024-01-01T23:59:59-05:00` is
///   January 2 in UTC, so keeping only its date would store another day than the caller meant. The `T` and the
///   `Z` must be upper case here.
///
/// ```swift
/// let date = try CivilDate(parsing: "2024-02-29")
/// date.daysSinceEpoch                                                  // 19782
/// try CivilDate(parsingDateOrUTCMidnight: "2024-02-29T00:00:00.000Z")  // 2024-02-29
/// CivilDate(year: 2023, month: 2, day: 29)                             // nil
/// ```
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year; 0 is 1 BC. Text holds 0000 to 9999; arithmetic may reach beyond.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to 31.
    public let day: Int

    /// Creates a date, or `nil` when the month or the day does not exist.
    ///
    /// - Parameters:
    ///   - year: The year; 0 is 1 BC.
    ///   - month: The month, 1 to 12.
    ///   - day: The day of the month, from 1 to the month's length.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: Int64(year), month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date a number of days after 1970-01-01.
    ///
    /// - Parameter daysSinceEpoch: The day number; negative before 1970.
    public init(daysSinceEpoch: Int64) {
        let (year, month, day) = CivilCalendar.date(days: daysSinceEpoch)
        self.year = Int(year)
        self.month = month
        self.day = day
    }

    /// The number of days from 1970-01-01 to this date, negative before 1970.
    public var daysSinceEpoch: Int64 {
        CivilCalendar.days(year: Int64(year), month: month, day: day)
    }

    /// Parses exactly `YYYY-MM-DD`.
    ///
    /// - Parameter text: The date, e.g. `2024-05-01`.
    /// - Throws: ``TimeFormatError`` when the text is not in that form or the date does not exist.
    public init(parsing text: String) throws(TimeFormatError) {
        self = try text.withContiguousUTF8 { bytes in
            var scanner = ASCII.Scanner(bytes)
            return Self.scan(&scanner).flatMap { date in
                scanner.isAtEnd ? .success(date) : .failure(TimeFormatError(reason: "unexpected text after the date"))
            }
        }.get()
    }

    /// Parses `YYYY-MM-DD`, or that date followed by exactly `T00:00:00Z` (with optionally `.` and one or more
    /// zeros before the `Z`): the input rule of Data Connect's `Date` scalar.
    ///
    /// - Parameter text: The date, e.g. `2024-05-01` or `2024-05-01T00:00:00.000Z`.
    /// - Throws: ``TimeFormatError`` when the text is neither form, or the date does not exist.
    public init(parsingDateOrUTCMidnight text: String) throws(TimeFormatError) {
        self = try text.withContiguousUTF8 { bytes in
            var scanner = ASCII.Scanner(bytes)
            return Self.scan(&scanner).flatMap { date in
                Self.skipUTCMidnight(&scanner) ? .success(date) : .failure(TimeFormatError(reason: Self.timeReason))
            }
        }.get()
    }

    /// Whether the bytes left are nothing, or `T00:00:00` with an optional all-zero fraction and `Z`.
    private static func skipUTCMidnight(_ scanner: inout ASCII.Scanner) -> Bool {
        if scanner.isAtEnd { return true }
        guard scanner.skip(UInt8(ascii: "T")) else { return false }
        for byte in "00:00:00".utf8 {
            guard scanner.skip(byte) else { return false }
        }
        if scanner.skip(UInt8(ascii: ".")) {
            guard scanner.skip(ASCII.zero) else { return false }
            while scanner.skip(ASCII.zero) {}
        }
        return scanner.skip(UInt8(ascii: "Z")) && scanner.isAtEnd
    }

    private static let timeReason = "a date has no time part, other than exactly T00:00:00Z"

    /// Reads `YYYY-MM-DD` at the scanner, checking that the date exists.
    static func scan(_ scanner: inout ASCII.Scanner) -> Result<CivilDate, TimeFormatError> {
        guard let year = scanner.number(digits: 4), scanner.skip(UInt8(ascii: "-")),
            let month = scanner.number(digits: 2), scanner.skip(UInt8(ascii: "-")),
            let day = scanner.number(digits: 2)
        else { return .failure(TimeFormatError(reason: "expected a date written YYYY-MM-DD")) }
        guard (1...12).contains(month) else {
            return .failure(
                TimeFormatError(reason: "month \(CivilCalendar.padded(Int64(month), width: 2)) does not exist"))
        }
        guard let date = CivilDate(year: year, month: month, day: day) else {
            let name = "\(CivilCalendar.padded(Int64(year), width: 4))-\(CivilCalendar.padded(Int64(month), width: 2))"
            return .failure(
                TimeFormatError(reason: "day \(CivilCalendar.padded(Int64(day), width: 2)) does not exist in \(name)"))
        }
        return .success(date)
    }

    /// The date as `YYYY-MM-DD`; years outside 0000-9999 take more digits or a `-`.
    public var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10)
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `YYYY-MM-DD`.
    func appendText(to bytes: inout [UInt8]) {
        ASCII.appendPadded(Int64(year), width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        ASCII.appendPadded(Int64(month), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        ASCII.appendPadded(Int64(day), width: 2, to: &bytes)
    }

    /// Orders dates in time.
    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
