/// The text formats of Data Connect's scalars, shared by literal validation and variable coercion.
public enum ScalarFormats {
    /// Normalizes a UUID to 32 lowercase hex digits.
    ///
    /// Accepts, case-insensitively, 32 hex digits, the dashed `8-4-4-4-12` form, `urn:uuid:` and braces.
    ///
    /// - Returns: the canonical form, or `nil` when the text is not a UUID.
    public static func canonicalUUID(_ text: String) -> String? {
        // Fast path: already canonical (the form every stored and returned UUID has).
        if text.utf8.count == 32
            && text.utf8.allSatisfy({
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
            })
        {
            return text
        }
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

    /// Parses a `Date`: `YYYY-MM-DD`, or the same date at exactly midnight UTC (`YYYY-MM-DDT00:00:00Z`, with
    /// any number of zero fractional digits), which is what many clients send for a date.
    ///
    /// Any other time part is refused rather than dropped: `2024-01-01T23:59:59-05:00` is January 2 in UTC,
    /// so keeping only its date would store another day than the caller meant.
    ///
    /// - Returns: the canonical `YYYY-MM-DD`, or `nil` when the text is not exactly a valid calendar date.
    public static func canonicalDate(_ text: String) -> String? {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        let datePart = parts.first ?? ""
        if parts.count == 2, !isUTCMidnight(parts[1]) { return nil }
        let bytes = Array(datePart.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = digits(bytes[0..<4]), let month = digits(bytes[5..<7]), let day = digits(bytes[8..<10]),
            isValidDay(year: year, month: month, day: day)
        else { return nil }
        return String(datePart)
    }

    /// Whether the text is an RFC 3339 timestamp with 0 to 9 fractional digits and a `Z` or `±hh:mm` offset,
    /// with a year between 1583 and 9999.
    public static func isValidTimestamp(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = digits(b[0..<4]), let month = digits(b[5..<7]), let day = digits(b[8..<10]),
            let hour = digits(b[11..<13]), let minute = digits(b[14..<16]), let second = digits(b[17..<19]),
            (1583...9999).contains(year), isValidDay(year: year, month: month, day: day),
            hour < 24, minute < 60, second < 61
        else { return false }
        var i = 19
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1 }
            guard i - start >= 1, i - start <= 9 else { return false }
        }
        guard i < b.count else { return false }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") { return i + 1 == b.count }
        guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), b.count == i + 6, b[i + 3] == UInt8(ascii: ":"),
            let oh = digits(b[(i + 1)..<(i + 3)]), let om = digits(b[(i + 4)..<(i + 6)]), oh < 24, om < 60
        else { return false }
        return true
    }

    /// Whether a timestamp's time part is `00:00:00`, optionally with zero fractional digits, then `Z`.
    private static func isUTCMidnight(_ time: Substring) -> Bool {
        let bytes = Array(time.utf8)
        guard bytes.count >= 9, Array(bytes[0..<8]) == Array("00:00:00".utf8), bytes.last == UInt8(ascii: "Z")
        else { return false }
        let fraction = bytes[8..<(bytes.count - 1)]
        guard let dot = fraction.first else { return true }
        return dot == UInt8(ascii: ".") && fraction.count > 1
            && fraction.dropFirst().allSatisfy { $0 == UInt8(ascii: "0") }
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

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func isValidDay(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }
}
