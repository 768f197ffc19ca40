import Foundation
import Testing

@testable import FirebaseCore

@Suite struct TimestampTests {
    @Test func normalizesNanosecondsIntoSeconds() {
        // given / when
        let negative = Timestamp(seconds: 1, nanoseconds: -1)
        let excess = Timestamp(seconds: 0, nanoseconds: 1_500_000_000)

        // then
        #expect(negative == Timestamp(seconds: 0, nanoseconds: 999_999_999))
        #expect(excess.seconds == 1)
        #expect(excess.nanoseconds == 500_000_000)
    }

    @Test func ordersBySecondsThenNanoseconds() {
        // given
        let values = [
            Timestamp(seconds: 5, nanoseconds: 1), Timestamp(seconds: -1, nanoseconds: 0),
            Timestamp(seconds: 5, nanoseconds: 0),
        ]

        // when
        let sorted = values.sorted()

        // then
        #expect(sorted.map(\.seconds) == [-1, 5, 5])
        #expect(sorted.map(\.nanoseconds) == [0, 0, 1])
    }

    @Test func convertsDates() {
        // given
        let date = Date(timeIntervalSince1970: 1_714_557_600.25)

        // when
        let timestamp = Timestamp(date: date)

        // then
        #expect(timestamp == Timestamp(seconds: 1_714_557_600, nanoseconds: 250_000_000))
        #expect(timestamp.dateValue() == date)
        let before = Date()
        let now = Timestamp().dateValue()
        let after = Date()
        #expect(before.addingTimeInterval(-0.001) <= now && now <= after.addingTimeInterval(0.001), "\(now)")
    }

    @Test(arguments: [
        (Timestamp(seconds: 0, nanoseconds: 0), "1970-01-01T00:00:00Z"),
        (Timestamp(seconds: 1_714_557_600, nanoseconds: 500_000_000), "2024-05-01T10:00:00.500Z"),
        (Timestamp(seconds: 1_714_557_600, nanoseconds: 123_456_000), "2024-05-01T10:00:00.123456Z"),
        (Timestamp(seconds: 1_714_557_600, nanoseconds: 1), "2024-05-01T10:00:00.000000001Z"),
        (Timestamp(seconds: -1, nanoseconds: 0), "1969-12-31T23:59:59Z"),
        (Timestamp(seconds: 951_782_400, nanoseconds: 0), "2000-02-29T00:00:00Z"),
        (Timestamp(seconds: -62_135_596_800, nanoseconds: 0), "0001-01-01T00:00:00Z"),
        (Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999), "9999-12-31T23:59:59.999999999Z"),
    ])
    func writesUTCWithThreeSixOrNineDigits(timestamp: Timestamp, text: String) throws {
        // when
        let written = timestamp.rfc3339String
        let encoded = try JSONEncoder().encode([timestamp])

        // then
        #expect(written == text)
        #expect(String(decoding: encoded, as: UTF8.self) == "[\"\(text)\"]")
        #expect(try Timestamp(rfc3339String: written) == timestamp)
    }

    @Test(arguments: [
        ("2024-05-01T12:00:00+02:00", Timestamp(seconds: 1_714_557_600, nanoseconds: 0)),
        ("2024-05-01t10:00:00z", Timestamp(seconds: 1_714_557_600, nanoseconds: 0)),
        ("2024-05-01T05:30:00.1-04:30", Timestamp(seconds: 1_714_557_600, nanoseconds: 100_000_000)),
        ("2024-05-01T10:00:00.12345678Z", Timestamp(seconds: 1_714_557_600, nanoseconds: 123_456_780)),
    ])
    func readsAnyOffsetAndPrecision(text: String, expected: Timestamp) throws {
        // when
        let decoded = try JSONDecoder().decode([Timestamp].self, from: Data("[\"\(text)\"]".utf8))

        // then
        #expect(decoded == [expected])
    }

    @Test(arguments: [
        "2024-05-01", "2024-05-01T10:00:00", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
        "2024-05-01T24:00:00Z", "2024-05-01T10:00:00.1234567890Z", "2024-05-01T10:00:00+0200",
        "２０２４-05-01T10:00:00Z", "2024-05-01T10:00:00Z ", "", "2024-05-01T10:00:00.Z",
    ])
    func rejectsBadTextWithDecodingError(text: String) {
        // when / then
        #expect {
            _ = try JSONDecoder().decode([Timestamp].self, from: Data("[\"\(text)\"]".utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.contains("invalid timestamp")
        }
    }

    @Test func refusesToEncodeYearsOutsideRFC3339() {
        // given
        let farFuture = Timestamp(seconds: 253_402_300_800, nanoseconds: 0)

        // when / then
        #expect(throws: EncodingError.self) { try JSONEncoder().encode([farFuture]) }
    }
}
