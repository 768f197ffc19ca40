/// Base64url (RFC 4648 §5) without padding, as JWTs use it.
///
/// Decoding is lenient in the ways tokens found in the wild are: it also accepts the standard alphabet
/// (`+` and `/`) and trailing `=` padding. It rejects any other character and impossible lengths.
///
/// ```swift
/// Base64URL.encode(Array("hi".utf8))  // "aGk"
/// Base64URL.decode("aGk")             // [104, 105]
/// ```
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes` with the URL-safe alphabet and no padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining == 1 {
            let chunk = UInt32(bytes[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
        } else if remaining == 2 {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url text, with or without padding; returns `nil` when the text is not base64.
    static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        var digits = Array(text.utf8)
        if digits.count % 4 == 0 {
            var padding = 0
            while padding < 2, digits.last == UInt8(ascii: "=") {
                digits.removeLast()
                padding += 1
            }
        }
        guard digits.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(digits.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for digit in digits {
            guard let value = sextet(digit) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return output
    }

    private static func sextet(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return digit - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return digit - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"), UInt8(ascii: "+"): return 62
        case UInt8(ascii: "_"), UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
