import DataConnectTime
import Foundation

/// A point in time with nanosecond precision: seconds and nanoseconds since 1970-01-01T00:00:00Z.
///
/// The nanoseconds are always in `0..<1_000_000_000`; the initializer carries any excess into the seconds.
/// In JSON a timestamp is an RFC 3339 string in UTC with 0, 3, 6 or 9 fractional digits.
///
/// ```swift
/// let launch = try Timestamp(rfc3339String: "2024-05-01T12:00:00.5+02:00")
/// launch.rfc3339String  // "2024-05-01T10:00:00.500Z"
/// Timestamp(seconds: 1, nanoseconds: -1) == Timestamp(seconds: 0, nanoseconds: 999_999_999)  // true
/// ```
public struct Timestamp: Hashable, Sendable {
    /// The whole seconds since the Unix epoch; negative before 1970.
    public let seconds: Int64
    /// The nanoseconds after ``seconds``, in `0..<1_000_000_000`.
    public let nanoseconds: Int32

    private static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// Creates a timestamp, carrying nanoseconds outside `0..<1_000_000_000` into the seconds.
    ///
    /// - Parameters:
    ///   - seconds: Seconds since the Unix epoch.
    ///   - nanoseconds: Nanoseconds to add; may be negative or a second or more.
    public init(seconds: Int64, nanoseconds: Int32) {
        let nanos = Int64(nanoseconds)
        var carry = nanos / Self.nanosecondsPerSecond
        var remainder = nanos % Self.nanosecondsPerSecond
        if remainder < 0 {
            remainder += Self.nanosecondsPerSecond
            carry -= 1
        }
        self.seconds = seconds &+ carry
        self.nanoseconds = Int32(remainder)
    }

    /// Creates a timestamp from a `Date`, rounded to the nearest nanosecond `Double` can express.
    public init(date: Date) {
        let interval = date.timeIntervalSince1970
        let whole = interval.rounded(.down)
        var nanos = Int64(((interval - whole) * 1e9).rounded())
        var seconds = Int64(whole)
        if nanos >= Self.nanosecondsPerSecond {
            nanos -= Self.nanosecondsPerSecond
            seconds += 1
        }
        self.init(seconds: seconds, nanoseconds: Int32(nanos))
    }

    /// Creates a timestamp for the current time.
    public init() {
        self.init(date: Date())
    }

    /// The timestamp as a `Date`, which keeps about microsecond precision for current dates.
    public func dateValue() -> Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }
}

extension Timestamp: Comparable {
    /// Orders timestamps in time.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}

// MARK: - RFC 3339

extension Timestamp {
    /// Why a string is not an RFC 3339 timestamp.
    public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The text that failed to parse.
        public let text: String
        /// What is wrong with it.
        public let reason: String

        /// Creates an error.
        public init(text: String, reason: String) {
            self.text = text
            self.reason = reason
        }

        /// The text and the reason.
        public var description: String {
            "invalid timestamp \"\(text)\": \(reason); expected RFC 3339 like 2024-05-01T10:00:00.123Z"
        }
    }

    /// Parses an RFC 3339 timestamp with any offset and 1 to 9 fractional digits after a `.`.
    ///
    /// The rule is the one Data Connect uses everywhere (`RFC3339Timestamp` in DataConnectTime): the text is
    /// `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm)`, `T` and `Z` in either case, naming a real date and time (no
    /// hour 24, no leap second) whose instant in UTC falls in years 0000-9999.
    ///
    /// - Parameter text: The timestamp, e.g. `2024-05-01T10:00:00Z` or `2024-05-01T12:00:00.123456+02:00`.
    /// - Throws: ``FormatError`` when the text does not match or the date does not exist.
    public init(rfc3339String text: String) throws(FormatError) {
        let parsed: RFC3339Timestamp
        do {
            parsed = try RFC3339Timestamp(parsing: text)
        } catch {
            throw FormatError(text: text, reason: error.reason)
        }
        self.init(seconds: parsed.seconds, nanoseconds: parsed.nanoseconds)
    }

    /// The timestamp in RFC 3339 form, in UTC with `Z`, with 0, 3, 6 or 9 fractional digits as needed.
    ///
    /// Years outside 0000-9999 are written with as many digits as they need, and a sign when negative,
    /// which RFC 3339 does not allow; encoding such a timestamp fails instead.
    public var rfc3339String: String {
        RFC3339Timestamp(seconds: seconds, nanoseconds: nanoseconds).formatted()
    }

    /// Whether the year is in 0000-9999, the range RFC 3339 can write.
    var isInRFC3339Range: Bool {
        (RFC3339Timestamp.earliestSeconds...RFC3339Timestamp.latestSeconds).contains(seconds)
    }
}

extension Timestamp: CustomStringConvertible {
    /// The RFC 3339 form; see ``rfc3339String``.
    public var description: String { rfc3339String }
}

extension Timestamp: Codable {
    /// Decodes an RFC 3339 string with any offset and 1 to 9 fractional digits; see ``init(rfc3339String:)``.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the bad text and what is wrong with it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(rfc3339String: text)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error
                )
            )
        }
    }

    /// Encodes the RFC 3339 string in UTC; see ``rfc3339String``.
    ///
    /// - Throws: `EncodingError.invalidValue` for years outside 0000-9999.
    public func encode(to encoder: any Encoder) throws {
        guard isInRFC3339Range else {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: encoder.codingPath, debugDescription: "timestamp \(self) is outside years 0000-9999"
                )
            )
        }
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339String)
    }
}
