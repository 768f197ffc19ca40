import DataConnectTime

/// The text formats of Data Connect's scalars, shared by literal validation and variable coercion.
public enum ScalarFormats {
    /// Normalizes a UUID to 32 lowercase hex digits.
    ///
    /// Accepts, case-insensitively, 32 hex digits, the dashed `8-4-4-4-12` form, `urn:uuid:` and braces.
    ///
    /// - Returns: the canonical form, or `nil` when the text is not a UUID.
    public static func canonicalUUID(_ text: String) -> String? {
        // Fast path: already canonical (the form every stored and returned UUID has).
        if text.utf8.count == 32, isLowercaseHex(text) { return text }
        var body = Substring(text)
        if body.count >= 9, body.prefix(9).lowercased() == "urn:uuid:" { body = body.dropFirst(9) }
        if body.first == "{" {
            guard body.last == "}" else { return nil }
            body = body.dropFirst().dropLast()
        }
        var hex: [UInt8] = []
        hex.reserveCapacity(32)
        let utf8 = Array(body.utf8)
        let dashed = utf8.count == 36
        if !dashed && utf8.count != 32 { return nil }
        for (i, byte) in utf8.enumerated() {
            if dashed && (i == 8 || i == 13 || i == 18 || i == 23) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): hex.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): hex.append(byte + 32)
            default: return nil
            }
        }
        return hex.count == 32 ? String(decoding: hex, as: UTF8.self) : nil
    }

    /// Whether every byte of `text` is a lowercase hex digit, read from its contiguous UTF-8 when it has one (a
    /// native string does): this runs for every UUID variable of every request.
    private static func isLowercaseHex(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return true }
            var index = 0
            // Eight bytes at a time: every byte below 0x80, and each in `0`...`9` or `a`...`f`.
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)
                guard isLowercaseHexWord(word) else { return false }
                index += 8
            }
            while index < bytes.count {
                let byte = bytes[index]
                guard byte &- UInt8(ascii: "0") < 10 || byte &- UInt8(ascii: "a") < 6 else { return false }
                index += 1
            }
            return true
        }
    }

    /// Whether each byte of `word` is a lowercase hexadecimal digit, compared lane by lane in one word.
    @inline(__always)
    private static func isLowercaseHexWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        guard word & high == 0 else { return false }
        // With every byte below 0x80, adding 0x80 - n sets a byte's high bit exactly when the byte is at least n,
        // and no lane carries into the next.
        func atLeast(_ n: UInt64) -> UInt64 { (word &+ ones &* (0x80 - n)) & high }
        let digit = atLeast(0x30) & ~atLeast(0x3A)
        let letter = atLeast(0x61) & ~atLeast(0x67)
        return digit | letter == high
    }

    /// Parses a `Date`: `YYYY-MM-DD`, or a timestamp whose date is kept and whose time part is dropped.
    ///
    /// Google's rule: an input with a time part (as the `Timestamp` scalar writes it) is accepted and only the
    /// text before the `T` is used, so `2024-05-01T23:30:00-05:00` is `2024-05-01`, the local date as written,
    /// not the date of that instant in UTC. The time part must still be valid (`2024-05-01T25:00:00Z` and
    /// `2024-05-01T10:00:00`, with no offset, are not dates). The rule is `CivilDate.init(parsingDroppingTime:)`.
    ///
    /// - Returns: the canonical `YYYY-MM-DD`, or `nil` when the text is neither a valid calendar date nor one
    ///   followed by a valid time part.
    public static func canonicalDate(_ text: String) -> String? {
        guard let date = try? CivilDate(parsingDroppingTime: text) else { return nil }
        return date.description
    }

    /// The first instant a `Timestamp` holds: 1583-01-01T00:00:00Z, the first whole year of the Gregorian
    /// calendar.
    public static let earliestTimestamp = RFC3339Timestamp(
        seconds: CivilCalendar.days(year: 1583, month: 1, day: 1) * CivilCalendar.secondsPerDay)

    /// Parses a `Timestamp`: RFC 3339 by the rule of `RFC3339Timestamp` (1 to 9 fractional digits after a `.`,
    /// `Z` or a `±hh:mm` offset, no leap second), for an instant from 1583 to 9999 in UTC.
    ///
    /// - Returns: the instant, or `nil` when the text is not a valid timestamp in that range.
    public static func timestamp(_ text: String) -> RFC3339Timestamp? {
        guard let timestamp = try? RFC3339Timestamp(parsing: text), timestamp >= earliestTimestamp else { return nil }
        return timestamp
    }

    /// Whether the text is a `Timestamp`; see ``timestamp(_:)``.
    public static func isValidTimestamp(_ text: String) -> Bool {
        timestamp(text) != nil
    }

    /// Whether a decimal number reads as a finite `Float` (a double) that is zero only when the number is:
    /// `1e999` overflows and `1e-999` underflows to 0, and both are refused rather than stored changed.
    public static func isRepresentableFloat(_ text: String) -> Bool {
        guard let value = Double(text), value.isFinite else { return false }
        if value != 0 { return true }
        // Zero only when every digit of the mantissa is zero.
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        return mantissa.allSatisfy { $0 == "0" || $0 == "." || $0 == "-" || $0 == "+" }
    }

    /// Parses an `Int64` written as decimal text (an optional `-`, no leading `+`).
    public static func int64(_ text: String) -> Int64? {
        guard !text.isEmpty, !text.hasPrefix("+") else { return nil }
        return Int64(text)
    }

    /// Whether the integer fits GraphQL's `Int` (32-bit signed).
    public static func isInt32(_ value: Int64) -> Bool { value >= Int64(Int32.min) && value <= Int64(Int32.max) }
}
