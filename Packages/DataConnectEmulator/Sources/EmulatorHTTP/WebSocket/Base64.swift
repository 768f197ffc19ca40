/// Base64 (RFC 4648, standard alphabet, padded), for the WebSocket handshake's key and accept values.
///
/// ```swift
/// Base64.encode([1, 2, 3])            // "AQID"
/// Base64.decode("AQID")               // [1, 2, 3]
/// ```
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padded encoding of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let first = bytes[index]
            let second = remaining > 1 ? bytes[index + 1] : 0
            let third = remaining > 2 ? bytes[index + 2] : 0
            output.append(alphabet[Int(first >> 2)])
            output.append(alphabet[Int((first & 0x03) << 4 | second >> 4)])
            output.append(remaining > 1 ? alphabet[Int((second & 0x0F) << 2 | third >> 6)] : UInt8(ascii: "="))
            output.append(remaining > 2 ? alphabet[Int(third & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes, or `nil` when it is not padded base64 (a length that is not a multiple of 4, a
    /// character outside the alphabet, misplaced padding, or padding bits that are not zero).
    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        for start in stride(from: 0, to: input.count, by: 4) {
            let isLast = start + 4 == input.count
            var values: [UInt8] = []
            var padding = 0
            for character in input[start..<(start + 4)] {
                if character == UInt8(ascii: "=") {
                    padding += 1
                    continue
                }
                guard padding == 0, let value = sextet(character) else { return nil }
                values.append(value)
            }
            guard padding <= 2, padding == 0 || isLast else { return nil }
            output.append(values[0] << 2 | values[1] >> 4)
            if values.count > 2 {
                output.append(values[1] << 4 | values[2] >> 2)
            } else if values[1] & 0x0F != 0 {
                return nil
            }
            if values.count > 3 {
                output.append(values[2] << 6 | values[3])
            } else if values.count == 3, values[2] & 0x03 != 0 {
                return nil
            }
        }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
