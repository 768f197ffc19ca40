import Foundation
import Testing

@testable import FirebaseDataConnect

@Suite struct LocalDateTests {
    @Test func acceptsLeapDaysOnlyInLeapYears() throws {
        // when
        let leap = try LocalDate(year: 2024, month: 2, day: 29)
        let century = try LocalDate(year: 2000, month: 2, day: 29)

        // then
        #expect(leap.description == "2024-02-29")
        #expect(century.description == "2000-02-29")
        #expect(throws: DataConnectCodecError.self) { try LocalDate(year: 2023, month: 2, day: 29) }
        #expect(throws: DataConnectCodecError.self) { try LocalDate(year: 1900, month: 2, day: 29) }
    }

    @Test(arguments: [(2024, 13, 1), (2024, 0, 1), (2024, 4, 31), (2024, 1, 0), (0, 1, 1), (10_000, 1, 1)])
    func rejectsImpossibleDates(year: Int, month: Int, day: Int) {
        // when / then
        #expect {
            try LocalDate(year: year, month: month, day: day)
        } throws: { error in
            (error as? DataConnectCodecError)?.code == .invalidLocalDateFormat
        }
    }

    @Test(arguments: [
        "2024-13-01", "2024-5-01", "2024/05/01", "24-05-01", "2024-05-01T00:00:00Z", "٢٠٢٤-٠٥-٠١", "",
    ])
    func rejectsBadStrings(text: String) {
        // when / then
        #expect {
            try LocalDate(localDateString: text)
        } throws: { error in
            (error as? DataConnectCodecError)?.code == .invalidLocalDateFormat
        }
    }

    @Test func writesASCIIDigitsWhateverTheLocale() throws {
        // given
        let date = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z

        // when
        let localDate = LocalDate(date: date)

        // then
        #expect(localDate.description == "2024-05-01")
        #expect(String(describing: localDate) == "2024-05-01")
        #expect(localDate.date == Date(timeIntervalSince1970: 1_714_521_600))
    }

    @Test func roundTripsThroughJSON() throws {
        // given
        struct Movie: Codable, Equatable { var released: LocalDate }
        let movie = Movie(released: try LocalDate(year: 1999, month: 3, day: 31))

        // when
        let data = try JSONEncoder().encode(movie)
        let decoded = try JSONDecoder().decode(Movie.self, from: data)

        // then
        #expect(String(decoding: data, as: UTF8.self) == #"{"released":"1999-03-31"}"#)
        #expect(decoded == movie)
        #expect(throws: DataConnectCodecError.self) {
            try JSONDecoder().decode(Movie.self, from: Data(#"{"released":"1999-02-30"}"#.utf8))
        }
    }

    @Test func ordersAndHashesByDay() throws {
        // given
        let dates = [
            try LocalDate(localDateString: "2024-01-02"), try LocalDate(localDateString: "0001-01-01"),
            try LocalDate(localDateString: "2023-12-31"),
        ]

        // when
        let sorted = dates.sorted()

        // then
        #expect(sorted.map(\.description) == ["0001-01-01", "2023-12-31", "2024-01-02"])
        #expect(Set(dates + dates).count == 3)
        #expect(LocalDate(date: sorted[0].date) == sorted[0])
    }
}
