/// A calendar date without a time zone, written `YYYY-MM-DD`: the value of Data Connect's `Date` scalar.
///
/// Dates follow the proleptic Gregorian calendar of ``CivilCalendar``. Text is read strictly:
///
/// - ``init(parsing:)`` takes exactly `YYYY-MM-DD` (RFC 3339's `full-date`): ten characters, ASCII digits, a
///   month from 01 to 12 and a day that exists in that month, so `2024-02-29` is a date and `2023-02-29`,
///   `2024-2-9`, ` 2024-02-09` and `2024-02-09Z` are not.
/// - ``init(parsingDroppingTime:)`` also takes the date followed by the time part of a timestamp, `T` then a
///   time and an offset exactly as ``RFC3339Timestamp`` reads them, and keeps the date as written: the input rule
///   of Data Connect's `Date` scalar. `2024-05-01T23:30:00-05:00` is `2024-05-01`, the local date written before
///   the `T`, although that instant falls on May 2 in UTC. The time part is checked, then dropped, so
///   `2024-05-01T25:00:00Z`, `2024-05-01T10:00:00` (no offset) and `2024-05-01T` are refused.
///
/// ```swift
/// let date = try CivilDate(parsing: "2024-02-29")
/// date.daysSinceEpoch                                                 // 19782
/// try CivilDate(parsingDroppingTime: "2024-02-29T23:30:00.5-05:00")  // 2024-02-29
/// CivilDate(year: 2023, month: 2, day: 29)                            // nil
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

    /// Parses `YYYY-MM-DD`, or that date followed by a timestamp's time part, which is checked and dropped: the
    /// input rule of Data Connect's `Date` scalar.
    ///
    /// What follows the date, when anything does, must be what ``RFC3339Timestamp/init(parsing:)`` reads after a
    /// date: `T` (or `t`), `hh:mm:ss`, an optional fraction of 1 to 9 digits, and `Z` (or `z`) or an offset
    /// `±hh:mm`. The result is the date as written before the `T`, not the date of the instant in UTC.
    ///
    /// ```swift
    /// try CivilDate(parsingDroppingTime: "2024-05-01")                 // 2024-05-01
    /// try CivilDate(parsingDroppingTime: "2024-05-01T23:30:00-05:00")  // 2024-05-01
    /// try CivilDate(parsingDroppingTime: "2024-05-01T10:00:00")        // throws: no time zone
    /// ```
    ///
    /// - Parameter text: The date, e.g. `2024-05-01` or `2024-05-01T12:00:00.123456+02:00`.
    /// - Throws: ``TimeFormatError`` when the date does not exist, or the text after it is not a timestamp's time
    ///   part.
    public init(parsingDroppingTime text: String) throws(TimeFormatError) {
        self = try text.withContiguousUTF8 { bytes in
            var scanner = ASCII.Scanner(bytes)
            return Self.scan(&scanner).flatMap { date in
                if scanner.isAtEnd { return .success(date) }
                return RFC3339Timestamp.scanTime(&scanner).map { _ in date }
            }
        }.get()
    }

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
