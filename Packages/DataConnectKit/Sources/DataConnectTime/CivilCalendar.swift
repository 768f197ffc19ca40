/// Proleptic Gregorian calendar arithmetic in UTC, independent of `Calendar`, `Locale` and time zones.
///
/// Days are counted from 1970-01-01, which is day 0; earlier dates have negative day numbers. The Gregorian
/// leap-year rule applies to every year, including those before 1582 and year 0 (1 BC), as in RFC 3339 and
/// ISO 8601. The conversions are Howard Hinnant's `days_from_civil` and `civil_from_days`, exact for every year
/// whose day number fits an `Int64`.
///
/// ```swift
/// CivilCalendar.days(year: 2024, month: 2, day: 29)  // 19782
/// CivilCalendar.date(days: 19782)                    // (2024, 2, 29)
/// CivilCalendar.daysInMonth(year: 2023, month: 2)    // 28
/// ```
public enum CivilCalendar {
    /// The seconds in one calendar day; a day in UTC always has this many, as leap seconds are not counted.
    public static let secondsPerDay: Int64 = 86_400

    /// The number of days from 1970-01-01 to a date.
    ///
    /// The date is not checked: a day past the end of its month counts on into the next month.
    ///
    /// - Parameters:
    ///   - year: The year; 0 is 1 BC.
    ///   - month: The month, 1 to 12.
    ///   - day: The day of the month, from 1.
    /// - Returns: The day number, negative before 1970.
    public static func days(year: Int64, month: Int, day: Int) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let shiftedMonth = Int64((month + 9) % 12)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date a number of days after 1970-01-01.
    ///
    /// - Parameter days: The day number, negative before 1970.
    /// - Returns: The year, the month (1 to 12) and the day of the month (from 1).
    public static func date(days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Whether a year is a Gregorian leap year: divisible by 4, and by 400 when divisible by 100.
    ///
    /// - Parameter year: The year; 0 is 1 BC, a leap year.
    /// - Returns: `true` for 2000 and 2024, `false` for 1900 and 2023.
    public static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in a month.
    ///
    /// - Parameters:
    ///   - year: The year, which decides February.
    ///   - month: The month, 1 to 12.
    /// - Returns: 28 to 31, or 0 when `month` is not 1 to 12.
    public static func daysInMonth(year: Int64, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    /// The day number of a day's second and the second within that day, for seconds since 1970-01-01T00:00:00Z.
    ///
    /// - Parameter seconds: Seconds since the Unix epoch, negative before 1970.
    /// - Returns: The day number (rounded down) and the second of that day, 0 to 86 399.
    public static func dayAndSecond(ofUnixSeconds seconds: Int64) -> (days: Int64, secondOfDay: Int64) {
        let days = seconds >= 0 ? seconds / secondsPerDay : (seconds - (secondsPerDay - 1)) / secondsPerDay
        return (days, seconds - days * secondsPerDay)
    }

    /// A number as decimal ASCII digits, zero-padded on the left to a width, as dates and times are written.
    ///
    /// ```swift
    /// CivilCalendar.padded(7, width: 2)   // "07"
    /// CivilCalendar.padded(-5, width: 4)  // "-0005"
    /// ```
    ///
    /// - Parameters:
    ///   - value: The number; a negative number gets a leading `-`.
    ///   - width: The least number of digits.
    /// - Returns: The digits.
    public static func padded(_ value: Int64, width: Int) -> String {
        var bytes: [UInt8] = []
        ASCII.appendPadded(value, width: width, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
