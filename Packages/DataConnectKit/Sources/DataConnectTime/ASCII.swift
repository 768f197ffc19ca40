/// Reading and writing the ASCII digits and punctuation of dates and times, byte by byte.
enum ASCII {
    static let zero = UInt8(ascii: "0")

    /// Appends `value` as decimal digits, zero-padded on the left to `width`, with a `-` when negative.
    static func appendPadded(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        repeat {
            digits.append(zero + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        for _ in digits.count..<max(width, digits.count) { bytes.append(zero) }
        bytes.append(contentsOf: digits.reversed())
    }

    /// A cursor over UTF-8 bytes that reads fixed-width numbers and expected characters.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { position == bytes.count }

        /// The next byte, or `nil` at the end.
        var next: UInt8? { position < bytes.count ? bytes[position] : nil }

        /// Reads exactly `count` ASCII digits as a number; `nil`, without moving, when they are not there.
        mutating func number(digits count: Int) -> Int? {
            guard bytes.count - position >= count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[position + offset]
                guard byte >= zero, byte <= zero + 9 else { return nil }
                value = value * 10 + Int(byte - zero)
            }
            position += count
            return value
        }

        /// Skips `byte` when it is next; returns whether it was.
        mutating func skip(_ byte: UInt8) -> Bool {
            guard next == byte else { return false }
            position += 1
            return true
        }

        /// Skips an ASCII letter in either case when it is next; `letter` is upper case.
        mutating func skip(letterIgnoringCase letter: UInt8) -> Bool {
            guard let byte = next, byte == letter || byte == letter | 0x20 else { return false }
            position += 1
            return true
        }
    }
}

extension String {
    /// Runs `body` on the string's UTF-8 bytes, contiguous, without copying a native string.
    func withContiguousUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = self
        return text.withUTF8(body)
    }
}
