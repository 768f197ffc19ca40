import DataConnectTime
import Testing

/// 2024-05-01T10:00:00Z.
private let may1: Int64 = 1_714_557_600

/// The one table of RFC 3339 text the kit accepts and refuses, for timestamps and for dates.
@Suite struct RFC3339Tests {
    // MARK: Timestamps

    @Test(
        arguments: [
            // offsets
            ("2024-05-01T10:00:00Z", may1, 0),
            ("2024-05-01T12:00:00+02:00", may1, 0),
            ("2024-05-01T05:30:00-04:30", may1, 0),
            ("2024-05-01T10:00:00+00:00", may1, 0),
            ("2024-05-01T10:00:00-00:00", may1, 0),
            ("2024-05-02T09:59:00+23:59", may1, 0),
            ("2024-04-30T10:01:00-23:59", may1, 0),
            // lower-case t and z
            ("2024-05-01t10:00:00z", may1, 0),
            ("2024-05-01t12:00:00+02:00", may1, 0),
            // fractions of 1 to 9 digits
            ("2024-05-01T10:00:00.1Z", may1, 100_000_000),
            ("2024-05-01T10:00:00.12Z", may1, 120_000_000),
            ("2024-05-01T10:00:00.123Z", may1, 123_000_000),
            ("2024-05-01T10:00:00.1234Z", may1, 123_400_000),
            ("2024-05-01T10:00:00.12345Z", may1, 123_450_000),
            ("2024-05-01T10:00:00.123456Z", may1, 123_456_000),
            ("2024-05-01T10:00:00.1234567Z", may1, 123_456_700),
            ("2024-05-01T10:00:00.12345678Z", may1, 123_456_780),
            ("2024-05-01T10:00:00.123456789Z", may1, 123_456_789),
            ("2024-05-01T10:00:00.000000000Z", may1, 0),
            ("2024-05-01T12:00:00.5+02:00", may1, 500_000_000),
            // leap years and month ends
            ("2024-02-29T00:00:00Z", 1_709_164_800, 0),
            ("2000-02-29T00:00:00Z", 951_782_400, 0),
            ("2023-01-31T00:00:00Z", 1_675_123_200, 0),
            ("2023-04-30T00:00:00Z", 1_682_812_800, 0),
            ("2024-12-31T23:59:59Z", 1_735_689_599, 0),
            // the ends of the day and of the epoch
            ("1969-12-31T23:59:59.999999999Z", -1, 999_999_999),
            ("1970-01-01T00:00:00Z", 0, 0),
            // years 0000 and 9999
            ("0000-01-01T00:00:00Z", -62_167_219_200, 0),
            ("0001-01-01T00:00:00Z", -62_135_596_800, 0),
            ("1583-01-01T00:00:00Z", -12_212_553_600, 0),
            ("9999-12-31T23:59:59.999999999Z", 253_402_300_799, 999_999_999),
            ("9999-12-31T23:59:59+01:00", 253_402_297_199, 0),
        ] as [(String, Int64, Int32)])
    func acceptsTimestamp(text: String, seconds: Int64, nanoseconds: Int32) throws {
        // when
        let timestamp = try RFC3339Timestamp(parsing: text)

        // then
        #expect(timestamp.seconds == seconds)
        #expect(timestamp.nanoseconds == nanoseconds)
    }

    @Test(arguments: [
        // missing parts
        ("", "YYYY-MM-DD"),
        ("2024-05-01", "'T'"),
        ("2024-05-01T", "hh:mm:ss"),
        ("2024-05-01T10:00", "hh:mm:ss"),
        ("2024-05-01T10:00:00", "time zone"),
        ("2024-05-01 10:00:00Z", "'T'"),
        ("T10:00:00Z", "YYYY-MM-DD"),
        ("2024-05-01T10:00:00+02", "+hh:mm"),
        ("2024-05-01T10:00:00+0200", "+hh:mm"),
        ("2024-05-01T10:00:00+2:00", "+hh:mm"),
        // field widths and characters
        ("24-05-01T10:00:00Z", "YYYY-MM-DD"),
        ("+2024-05-01T10:00:00Z", "YYYY-MM-DD"),
        ("-2024-05-01T10:00:00Z", "YYYY-MM-DD"),
        ("12024-05-01T10:00:00Z", "YYYY-MM-DD"),
        ("2024-5-01T10:00:00Z", "YYYY-MM-DD"),
        ("2024-05-1T10:00:00Z", "YYYY-MM-DD"),
        ("2024-05-01T1:00:00Z", "hh:mm:ss"),
        ("2024/05/01T10:00:00Z", "YYYY-MM-DD"),
        ("２０２４-05-01T10:00:00Z", "YYYY-MM-DD"),
        ("2024-05-01T10:00:00UTC", "time zone"),
        ("2024-05-01T10:00:00GMT", "time zone"),
        ("2024-05-01T10:00:00Zz", "unexpected text"),
        ("2024-05-01T10:00:00Z+02:00", "unexpected text"),
        // whitespace
        (" 2024-05-01T10:00:00Z", "YYYY-MM-DD"),
        ("2024-05-01T10:00:00Z ", "unexpected text"),
        ("2024-05-01T10:00:00Z\n", "unexpected text"),
        ("2024-05-01 T10:00:00Z", "'T'"),
        ("2024-05-01T10:00:00 Z", "time zone"),
        ("2024-05-01T10:00:00.5 Z", "time zone"),
        // fractions: none after the dot, or more than 9 digits, or no dot
        ("2024-05-01T10:00:00.Z", "1 to 9 digits"),
        ("2024-05-01T10:00:00.+02:00", "1 to 9 digits"),
        ("2024-05-01T10:00:00.1234567890Z", "more than 9"),
        ("2024-05-01T10:00:00.000000000000Z", "more than 9"),
        ("2024-05-01T10:00:00,5Z", "time zone"),
        ("2024-05-01T10:00:00.5.5Z", "time zone"),
        // month and day ranges
        ("2024-00-01T00:00:00Z", "month 00"),
        ("2024-13-01T00:00:00Z", "month 13"),
        ("2024-05-00T00:00:00Z", "day 00"),
        ("2024-05-32T00:00:00Z", "day 32"),
        ("2024-04-31T00:00:00Z", "day 31 does not exist in 2024-04"),
        ("2023-02-29T00:00:00Z", "day 29 does not exist in 2023-02"),
        ("1900-02-29T00:00:00Z", "day 29 does not exist in 1900-02"),
        ("2024-02-30T00:00:00Z", "day 30"),
        // time ranges: hour 24 and the leap second are refused
        ("2024-05-01T24:00:00Z", "hour 24"),
        ("2024-05-01T23:60:00Z", "minute 60"),
        ("2016-12-31T23:59:60Z", "second 60"),
        ("2016-12-31T23:59:60.5Z", "second 60"),
        ("2024-05-01T10:00:00+24:00", "offset"),
        ("2024-05-01T10:00:00+10:60", "offset"),
        // instants outside years 0000-9999 in UTC
        ("0000-01-01T00:00:00+00:01", "outside years 0000-9999"),
        ("9999-12-31T23:59:59-00:01", "outside years 0000-9999"),
    ])
    func refusesTimestamp(text: String, reason: String) {
        // when / then
        #expect {
            _ = try RFC3339Timestamp(parsing: text)
        } throws: { error in
            (error as? TimeFormatError)?.reason.contains(reason) == true
        }
    }

    @Test(arguments: [
        (RFC3339Timestamp(seconds: 0), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000000Z"),
        (
            RFC3339Timestamp(seconds: may1, nanoseconds: 500_000_000), "2024-05-01T10:00:00.500Z",
            "2024-05-01T10:00:00.500000Z"
        ),
        (
            RFC3339Timestamp(seconds: may1, nanoseconds: 123_456_000), "2024-05-01T10:00:00.123456Z",
            "2024-05-01T10:00:00.123456Z"
        ),
        (
            RFC3339Timestamp(seconds: may1, nanoseconds: 1), "2024-05-01T10:00:00.000000001Z",
            "2024-05-01T10:00:00.000000Z"
        ),
        (
            RFC3339Timestamp(seconds: -1, nanoseconds: 999_999_999), "1969-12-31T23:59:59.999999999Z",
            "1969-12-31T23:59:59.999999Z"
        ),
        (RFC3339Timestamp(seconds: -62_167_219_200), "0000-01-01T00:00:00Z", "0000-01-01T00:00:00.000000Z"),
        (RFC3339Timestamp(seconds: 253_402_300_799), "9999-12-31T23:59:59Z", "9999-12-31T23:59:59.000000Z"),
        (RFC3339Timestamp(seconds: 253_402_300_800), "10000-01-01T00:00:00Z", "10000-01-01T00:00:00.000000Z"),
        (RFC3339Timestamp(seconds: -62_167_219_201), "-0001-12-31T23:59:59Z", "-0001-12-31T23:59:59.000000Z"),
    ])
    func writesUTCTrimmedOrFixed(timestamp: RFC3339Timestamp, trimmed: String, sixDigits: String) throws {
        // when / then
        #expect(timestamp.formatted() == trimmed)
        #expect(timestamp.formatted(fraction: .fixed(digits: 6)) == sixDigits)
        #expect(timestamp.description == trimmed)
    }

    @Test(arguments: ["2024-05-01T12:00:00.5+02:00", "1583-01-01T00:00:00Z", "2024-02-29T23:59:59.000000001-12:00"])
    func readsBackWhatItWrites(text: String) throws {
        // given
        let timestamp = try RFC3339Timestamp(parsing: text)

        // when
        let trimmed = try RFC3339Timestamp(parsing: timestamp.formatted())
        let nine = try RFC3339Timestamp(parsing: timestamp.formatted(fraction: .fixed(digits: 9)))

        // then
        #expect(trimmed == timestamp)
        #expect(nine == timestamp)
    }

    @Test func normalizesNanosecondsAndConvertsMicroseconds() {
        // when / then
        #expect(RFC3339Timestamp(seconds: 1, nanoseconds: -1) == RFC3339Timestamp(seconds: 0, nanoseconds: 999_999_999))
        #expect(
            RFC3339Timestamp(seconds: 0, nanoseconds: 1_500_000_000)
                == RFC3339Timestamp(seconds: 1, nanoseconds: 500_000_000))
        #expect(RFC3339Timestamp(unixMicroseconds: -1) == RFC3339Timestamp(seconds: -1, nanoseconds: 999_999_000))
        #expect(RFC3339Timestamp(unixMicroseconds: -1).unixMicroseconds == -1)
        #expect(
            RFC3339Timestamp(seconds: may1, nanoseconds: 123_456_789).unixMicroseconds == may1 * 1_000_000 + 123_456)
        #expect(RFC3339Timestamp(seconds: -1).date == CivilDate(year: 1969, month: 12, day: 31))
    }

    // MARK: Dates

    @Test(arguments: [
        ("2024-05-01", 2024, 5, 1),
        ("2024-02-29", 2024, 2, 29),
        ("2000-02-29", 2000, 2, 29),
        ("0000-02-29", 0, 2, 29),
        ("0000-01-01", 0, 1, 1),
        ("9999-12-31", 9999, 12, 31),
        ("1969-12-31", 1969, 12, 31),
    ])
    func acceptsDate(text: String, year: Int, month: Int, day: Int) throws {
        // when
        let strict = try CivilDate(parsing: text)
        let lenient = try CivilDate(parsingDroppingTime: text)

        // then
        #expect(strict == CivilDate(year: year, month: month, day: day))
        #expect(lenient == strict)
        #expect(strict.description == text)
    }

    @Test(arguments: [
        ("2024-05-01T00:00:00Z", "2024-05-01"),
        ("2024-05-01T00:00:00.000Z", "2024-05-01"),
        ("2024-05-01T09:00:00Z", "2024-05-01"),
        // the date as written, not the UTC date (May 2 04:30 UTC)
        ("2024-05-01T23:30:00-05:00", "2024-05-01"),
        // the date as written, not the UTC date (April 30 23:30 UTC)
        ("2024-05-01T00:30:00+01:00", "2024-05-01"),
        ("2024-05-01T23:59:59.123456+01:00", "2024-05-01"),
        ("2024-05-01T12:00:00.123456789-00:00", "2024-05-01"),
        ("2024-02-29T23:59:59-23:59", "2024-02-29"),
        ("2024-05-01t10:00:00z", "2024-05-01"),
        // a date whose instant RFC3339Timestamp refuses (before year 0000 in UTC) is still that date
        ("0000-01-01T00:00:00+01:00", "0000-01-01"),
        ("9999-12-31T23:00:00-05:00", "9999-12-31"),
    ])
    func acceptsDateWithATimePartAndKeepsTheDateAsWritten(text: String, expected: String) throws {
        // when
        let date = try CivilDate(parsingDroppingTime: text)

        // then
        #expect(date.description == expected)
        #expect(throws: TimeFormatError.self) { try CivilDate(parsing: text) }
    }

    @Test(arguments: [
        // missing parts and widths
        "", "2024", "2024-05", "2024-5-01", "2024-05-1", "24-05-01", "20240501", "2024/05/01", "+2024-05-01",
        "12024-05-01", "２０２４-05-01",
        // whitespace
        " 2024-05-01", "2024-05-01 ", "2024-05-01\n",
        // ranges
        "2024-00-01", "2024-13-01", "2024-05-00", "2024-05-32", "2024-04-31", "2023-02-29", "1900-02-29",
        // a date that does not exist, with a valid time part
        "2024-02-30T10:00:00Z", "2023-02-29T00:00:00Z",
        // a time part a timestamp would refuse
        "2024-05-01T", "2024-05-01T00:00:00", "2024-05-01T10:00:00", "2024-05-01T00:00Z", "2024-05-01T25:00:00Z",
        "2024-05-01T24:00:00Z", "2024-05-01T10:60:00Z", "2024-05-01T10:00:60Z", "2024-05-01T00:00:00.Z",
        "2024-05-01T00:00:00.1234567890Z", "2024-05-01T00:00:00+0100", "2024-05-01T00:00:00+24:00",
        "2024-05-01T00:00:00+01:60", "2024-05-01T00:00:00Z ", "2024-05-01T00:00:00ZZ", "2024-05-01 10:00:00Z",
        "2024-05-01Z", "2024-05-01T10:00:00Zjunk", "yesterday",
    ])
    func refusesDate(text: String) {
        // when / then
        #expect(throws: TimeFormatError.self) { try CivilDate(parsing: text) }
        #expect(throws: TimeFormatError.self) { try CivilDate(parsingDroppingTime: text) }
    }

    @Test(arguments: [
        ("2024-05-01T25:00:00Z", "hour 25 is out of range 00-23"),
        ("2024-05-01T10:00:00", "expected the time zone: 'Z' or an offset like +02:00"),
        ("2024-05-01T", "expected a time written hh:mm:ss"),
        ("2024-05-01Z", "expected 'T' between the date and the time"),
        ("2024-02-30T10:00:00Z", "day 30 does not exist in 2024-02"),
    ])
    func namesWhatIsWrongWithADateLikeATimestampWould(text: String, reason: String) {
        // when
        let error = #expect(throws: TimeFormatError.self) { try CivilDate(parsingDroppingTime: text) }

        // then: the reason the timestamp parser gives for the same text
        #expect(error?.reason == reason)
        let timestampError = #expect(throws: TimeFormatError.self) { try RFC3339Timestamp(parsing: text) }
        #expect(timestampError?.reason == reason)
    }
}
