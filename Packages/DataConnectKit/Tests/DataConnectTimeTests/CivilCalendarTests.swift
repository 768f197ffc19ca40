import DataConnectTime
import Testing

@Suite struct CivilCalendarTests {
    @Test(
        arguments: [
            (1970, 1, 1, 0),
            (1969, 12, 31, -1),
            (2000, 3, 1, 11_017),
            (2024, 2, 29, 19_782),
            (1583, 1, 1, -141_349),
            (1, 1, 1, -719_162),
            (0, 1, 1, -719_528),
            (9999, 12, 31, 2_932_896),
        ] as [(Int64, Int, Int, Int64)])
    func convertsBothWays(year: Int64, month: Int, day: Int, days: Int64) {
        // when / then
        #expect(CivilCalendar.days(year: year, month: month, day: day) == days)
        #expect(CivilCalendar.date(days: days) == (year, month, day))
    }

    @Test func roundTripsEveryDayOfFourCenturies() {
        // given: 400 years repeat the Gregorian calendar
        let first = CivilCalendar.days(year: 1600, month: 3, day: 1)

        // when / then
        var expected = (year: Int64(1600), month: 3, day: 1)
        for days in first..<(first + 146_097) {
            let date = CivilCalendar.date(days: days)
            #expect(date == expected)
            #expect(CivilCalendar.days(year: date.year, month: date.month, day: date.day) == days)
            if expected.day < CivilCalendar.daysInMonth(year: expected.year, month: expected.month) {
                expected.day += 1
            } else if expected.month < 12 {
                expected = (expected.year, expected.month + 1, 1)
            } else {
                expected = (expected.year + 1, 1, 1)
            }
        }
    }

    @Test(
        arguments: [
            (2024, true), (2023, false), (2000, true), (1900, false), (1600, true), (0, true), (-4, true),
            (-100, false),
        ] as [(Int64, Bool)])
    func knowsLeapYears(year: Int64, isLeap: Bool) {
        // when / then
        #expect(CivilCalendar.isLeapYear(year) == isLeap)
        #expect(CivilCalendar.daysInMonth(year: year, month: 2) == (isLeap ? 29 : 28))
    }

    @Test func countsDaysInMonths() {
        // when
        let lengths = (1...12).map { CivilCalendar.daysInMonth(year: 2023, month: $0) }

        // then
        #expect(lengths == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CivilCalendar.daysInMonth(year: 2023, month: 0) == 0)
        #expect(CivilCalendar.daysInMonth(year: 2023, month: 13) == 0)
    }

    @Test func splitsSecondsIntoDaysFlooringBeforeTheEpoch() {
        // when / then
        #expect(CivilCalendar.dayAndSecond(ofUnixSeconds: 0) == (0, 0))
        #expect(CivilCalendar.dayAndSecond(ofUnixSeconds: 86_399) == (0, 86_399))
        #expect(CivilCalendar.dayAndSecond(ofUnixSeconds: -1) == (-1, 86_399))
        #expect(CivilCalendar.dayAndSecond(ofUnixSeconds: -86_400) == (-1, 0))
    }

    @Test func padsNumbers() {
        // when / then
        #expect(CivilCalendar.padded(7, width: 2) == "07")
        #expect(CivilCalendar.padded(2024, width: 2) == "2024")
        #expect(CivilCalendar.padded(-5, width: 4) == "-0005")
        #expect(CivilCalendar.padded(0, width: 4) == "0000")
    }
}
