import DataConnectSchema
import DataConnectTime

#if canImport(Glibc)
import Glibc
#endif

/// An instant as microseconds since 1970-01-01T00:00:00Z, the precision of a `Timestamp` column, with the
/// calendar arithmetic relative dates need (durations, truncation).
///
/// Reading and writing text is the kit's: ``init(rfc3339:)`` applies the `Timestamp` scalar's rule
/// (`ScalarFormats.timestamp(_:)`), ``init(date:)`` the `Date` scalar's, and the texts come from
/// `RFC3339Timestamp` and `CivilDate`.
struct Instant: Comparable, Sendable {
    var microseconds: Int64

    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.microseconds < rhs.microseconds }

    init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// Parses a `Timestamp`: RFC 3339, any offset, 1 to 9 fractional digits (truncated to microseconds), years
    /// 1583 to 9999; `nil` when invalid.
    init?(rfc3339 text: String) {
        guard let timestamp = ScalarFormats.timestamp(text) else { return nil }
        microseconds = timestamp.unixMicroseconds
    }

    /// Midnight UTC of a `Date` read by the `Date` scalar's rule (`YYYY-MM-DD`, or that date followed by a
    /// timestamp's time part, which is dropped); `nil` when invalid.
    init?(date text: String) {
        guard let date = try? CivilDate(parsingDroppingTime: text) else { return nil }
        microseconds = date.daysSinceEpoch * Self.microsecondsPerDay
    }

    /// The current time.
    static var now: Instant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Instant(microseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
    }

    private static let microsecondsPerDay: Int64 = 86_400_000_000

    private var timestamp: RFC3339Timestamp { RFC3339Timestamp(unixMicroseconds: microseconds) }

    private var parts: (days: Int64, second: Int64, micro: Int64) {
        var days = microseconds / Self.microsecondsPerDay
        var rest = microseconds % Self.microsecondsPerDay
        if rest < 0 {
            rest += Self.microsecondsPerDay
            days -= 1
        }
        return (days, rest / 1_000_000, rest % 1_000_000)
    }

    /// The storage form: fixed-width `YYYY-MM-DDTHH:MM:SS.ffffffZ`, which sorts in time order.
    var storageText: String {
        timestamp.formatted(fraction: .fixed(digits: 6))
    }

    /// The wire form: UTC, the fraction trimmed to 0, 3 or 6 digits.
    var wireText: String {
        timestamp.formatted(fraction: .trimmed)
    }

    /// The UTC calendar date, `YYYY-MM-DD`.
    var dateText: String {
        CivilDate(daysSinceEpoch: parts.days).description
    }

    /// Adds a calendar duration: months and years move the date (clamping the day), the rest is exact.
    func adding(
        years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0,
        seconds: Int = 0, milliseconds: Int = 0, sign: Int = 1
    ) -> Instant {
        var (dayNumber, second, micro) = parts
        if years != 0 || months != 0 {
            let date = CivilCalendar.date(days: dayNumber)
            let totalMonths = date.year * 12 + Int64(date.month - 1) + Int64(sign * (years * 12 + months))
            let year = totalMonths >= 0 ? totalMonths / 12 : (totalMonths - 11) / 12
            let month = Int(totalMonths - year * 12) + 1
            let day = min(date.day, CivilCalendar.daysInMonth(year: year, month: month))
            dayNumber = CivilCalendar.days(year: year, month: month, day: day)
        }
        let base = (dayNumber * 86_400 + second) * 1_000_000 + micro
        let delta =
            ((Int64(weeks) * 7 + Int64(days)) * 86_400 + Int64(hours) * 3600 + Int64(minutes) * 60 + Int64(seconds))
            * 1_000_000 + Int64(milliseconds) * 1000
        return Instant(microseconds: base + Int64(sign) * delta)
    }

    /// Truncates to the start of a unit: SECOND, MINUTE, HOUR, DAY, WEEK (Monday), MONTH, YEAR.
    func truncated(to unit: String) -> Instant {
        let (days, second, _) = parts
        let date = CivilCalendar.date(days: days)
        let start: Int64
        switch unit {
        case "SECOND": start = days * 86_400 + second
        case "MINUTE": start = days * 86_400 + second / 60 * 60
        case "HOUR": start = days * 86_400 + second / 3600 * 3600
        case "DAY": start = days * 86_400
        case "WEEK":
            let weekday = ((days % 7) + 7 + 3) % 7  // 0 = Monday (1970-01-01 was a Thursday)
            start = (days - weekday) * 86_400
        case "MONTH": start = CivilCalendar.days(year: date.year, month: date.month, day: 1) * 86_400
        case "YEAR": start = CivilCalendar.days(year: date.year, month: 1, day: 1) * 86_400
        default: return self
        }
        return Instant(microseconds: start * 1_000_000)
    }
}
