import FirebaseCore
import Foundation

/// A calendar date without a time or time zone, the GraphQL `Date` scalar.
///
/// In JSON it is `"YYYY-MM-DD"` with ASCII digits, whatever the device's locale or calendar: dates are
/// computed in the Gregorian calendar in UTC.
///
/// ```swift
/// let release = try LocalDate(year: 2024, month: 2, day: 29)
/// release.description                                   // "2024-02-29"
/// try LocalDate(localDateString: "2023-02-29")          // throws invalidLocalDateFormat
/// ```
public struct LocalDate: Codable, Comparable, CustomStringConvertible, Equatable, Hashable, Sendable {
    private let year: Int
    private let month: Int
    private let day: Int

    /// Creates a date from its components.
    ///
    /// - Parameters:
    ///   - year: The year, 1 through 9999.
    ///   - month: The month, 1 through 12.
    ///   - day: The day of the month.
    /// - Throws: ``DataConnectCodecError`` with code `invalidLocalDateFormat` for a date that does not exist.
    public init(year: Int, month: Int, day: Int) throws {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CivilCalendar.daysInMonth(year: Int64(year), month: month)
        else {
            throw DataConnectCodecError(
                code: .invalidLocalDateFormat,
                message: "no such date: year \(year), month \(month), day \(day)"
            )
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates the date, in UTC, on which `date` falls.
    public init(date: Date) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let civil = CivilCalendar.date(days: days)
        year = Int(civil.year)
        month = civil.month
        day = civil.day
    }

    /// Parses `YYYY-MM-DD` with ASCII digits.
    ///
    /// - Parameter localDateString: The date, e.g. `2024-05-01`.
    /// - Throws: ``DataConnectCodecError`` with code `invalidLocalDateFormat` when the text is not in that
    ///   form or names a date that does not exist.
    public init(localDateString: String) throws {
        let bytes = Array(localDateString.utf8)
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes.indices.allSatisfy({ $0 == 4 || $0 == 7 || isDigit(bytes[$0]) })
        else {
            throw DataConnectCodecError(
                code: .invalidLocalDateFormat,
                message: "invalid date \"\(localDateString)\"; expected YYYY-MM-DD"
            )
        }
        func number(_ range: Range<Int>) -> Int {
            bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        try self.init(year: number(0..<4), month: number(5..<7), day: number(8..<10))
    }

    /// Midnight UTC at the start of the date.
    public var date: Date {
        let days = CivilCalendar.days(year: Int64(year), month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400))
    }

    /// The date as `YYYY-MM-DD`.
    public var description: String {
        CivilCalendar.padded(Int64(year), width: 4) + "-" + CivilCalendar.padded(Int64(month), width: 2) + "-"
            + CivilCalendar.padded(Int64(day), width: 2)
    }

    /// Orders dates in time.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Decodes a `YYYY-MM-DD` string.
    ///
    /// - Throws: ``DataConnectCodecError`` with code `invalidLocalDateFormat` for bad text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        try self.init(localDateString: try container.decode(String.self))
    }

    /// Encodes the `YYYY-MM-DD` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
