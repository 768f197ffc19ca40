/// Base64 (RFC 4648): the standard alphabet (§4) and the URL-safe one (§5), padded or not, without Foundation.
///
/// An encoding is an alphabet and whether it writes `=` padding. ``standard`` is what HTTP headers and the WebSocket
/// handshake use; ``url`` (no padding) is how JWT segments and refresh tokens are written (RFC 7515 §2).
///
/// Decoding with an encoding is strict: only that alphabet; padding exactly as the encoding writes it (a padded
/// encoding wants a length that is a multiple of 4 and at most two `=`, at the end; an unpadded one wants no `=`
/// and no length of the form 4n + 1); and the unused bits of the last character zero. So every byte sequence has
/// exactly one text that decodes to it. ``decodeLeniently(_:)`` is the one relaxed reading, for tokens that other
/// software wrote.
///
/// ```swift
/// Base64.standard.encode(Array("foob".utf8))  // "Zm9vYg=="
/// Base64.url.encode([0xFB, 0xFF])             // "-_8"
/// Base64.standard.decode("Zm9vYg==")          // [102, 111, 111, 98]
/// Base64.standard.decode("Zm9vYh==")          // nil: the unused bits of "h" are not zero
/// ```
public struct Base64: Sendable, Hashable {
    /// The 64 characters an encoding writes.
    public enum Alphabet: Sendable, Hashable {
        /// `A`–`Z`, `a`–`z`, `0`–`9`, `+` and `/` (RFC 4648 §4).
        case standard
        /// `A`–`Z`, `a`–`z`, `0`–`9`, `-` and `_` (RFC 4648 §5): safe in URLs and file names.
        case url
    }

    /// The characters this encoding writes and reads.
    public let alphabet: Alphabet
    /// Whether the text is padded with `=` to a multiple of 4 characters.
    public let isPadded: Bool

    /// Creates an encoding.
    ///
    /// - Parameters:
    ///   - alphabet: The 64 characters.
    ///   - padded: Whether the text is padded with `=` to a multiple of 4 characters.
    public init(alphabet: Alphabet, padded: Bool) {
        self.alphabet = alphabet
        self.isPadded = padded
    }

    /// The standard alphabet with padding (RFC 4648 §4).
    public static let standard = Base64(alphabet: .standard, padded: true)

    /// The URL-safe alphabet without padding (RFC 4648 §5), as JWTs write their segments (RFC 7515 §2).
    public static let url = Base64(alphabet: .url, padded: false)

    // MARK: Encoding

    /// How many characters encode `byteCount` bytes.
    ///
    /// - Parameter byteCount: The number of bytes.
    /// - Returns: The length of the text.
    public func encodedCount(of byteCount: Int) -> Int {
        isPadded ? (byteCount + 2) / 3 * 4 : (byteCount * 4 + 2) / 3
    }

    /// The text that encodes `bytes`.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The text.
    public func encode(_ bytes: some Collection<UInt8>) -> String {
        Self.withContiguous(bytes) { input in
            String(unsafeUninitializedCapacity: encodedCount(of: input.count)) { output in
                encode(input, into: output)
            }
        }
    }

    /// Appends the text that encodes `bytes`, as ASCII bytes, to `output`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to encode.
    ///   - output: Where the text goes.
    public func append(_ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        Self.withContiguous(bytes) { input in
            let count = encodedCount(of: input.count)
            output += [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                initialized = encode(input, into: buffer)
            }
        }
    }

    // MARK: Decoding

    /// The bytes `text` encodes, or `nil` when it is not exactly this encoding's text (see the type's discussion).
    ///
    /// - Parameter text: The text.
    /// - Returns: The bytes, or `nil` for text this encoding would not write.
    public func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(utf8: text.utf8)
    }

    /// The bytes that `utf8`, the text's bytes, encodes; `nil` when it is not exactly this encoding's text.
    ///
    /// - Parameter utf8: The text as UTF-8 (base64 text is ASCII).
    /// - Returns: The bytes, or `nil` for text this encoding would not write.
    public func decode(utf8: some Collection<UInt8>) -> [UInt8]? {
        Self.withContiguous(utf8) { input in
            var count = input.count
            if isPadded {
                guard count % 4 == 0 else { return nil }
                if count > 0 && input[count - 1] == Self.pad {
                    count -= input[count - 2] == Self.pad ? 2 : 1
                }
            } else {
                guard count % 4 != 1 else { return nil }
            }
            let values = alphabet == .standard ? Self.standardValues : Self.urlValues
            return Self.decode(UnsafeBufferPointer(rebasing: input[..<count]), values: values, strict: true)
        }
    }

    /// The bytes `text` encodes, read the way tokens found in the wild need: either alphabet (even mixed), with or
    /// without padding, and unused bits of the last character ignored.
    ///
    /// Still refused: any other character, `=` anywhere but at the end of a text whose length is a multiple of 4,
    /// more than two of them, and a length of the form 4n + 1, which no bytes encode to.
    ///
    /// ```swift
    /// Base64.decodeLeniently("aGk")    // [104, 105]
    /// Base64.decodeLeniently("aGk=")   // [104, 105]
    /// Base64.decodeLeniently("a+_/")   // [107, 239, 255]
    /// ```
    ///
    /// - Parameter text: The text.
    /// - Returns: The bytes, or `nil` when the text is not base64 in any form.
    public static func decodeLeniently(_ text: some StringProtocol) -> [UInt8]? {
        withContiguous(text.utf8) { input in
            var count = input.count
            if count % 4 == 0 {
                var padding = 0
                while padding < 2, count > 0, input[count - 1] == pad {
                    count -= 1
                    padding += 1
                }
            }
            guard count % 4 != 1 else { return nil }
            return decode(UnsafeBufferPointer(rebasing: input[..<count]), values: eitherValues, strict: false)
        }
    }

    // MARK: Tables and loops

    private static let pad = UInt8(ascii: "=")
    private static let invalid: UInt8 = 0xFF
    private static let standardCharacters = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each character's value by its byte, ``invalid`` for bytes outside the alphabet.
    private static let standardValues = values(of: [standardCharacters])
    private static let urlValues = values(of: [urlCharacters])
    private static let eitherValues = values(of: [standardCharacters, urlCharacters])

    private static func values(of alphabets: [[UInt8]]) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        for characters in alphabets {
            for (value, character) in characters.enumerated() { table[Int(character)] = UInt8(value) }
        }
        return table
    }

    /// Runs `body` on the bytes as one buffer, copying them only when the collection does not store them so.
    private static func withContiguous<Bytes: Collection<UInt8>, Result>(
        _ bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
        return Array(bytes).withUnsafeBufferPointer(body)
    }

    /// Writes the text of `input` into `output`, which holds ``encodedCount(of:)`` bytes; returns that count.
    private func encode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let characters = alphabet == .standard ? Self.standardCharacters : Self.urlCharacters
        return characters.withUnsafeBufferPointer { characters in
            var read = 0
            var written = 0
            while read + 3 <= input.count {
                let group = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
                output[written] = characters[Int(group >> 18)]
                output[written + 1] = characters[Int(group >> 12 & 0x3F)]
                output[written + 2] = characters[Int(group >> 6 & 0x3F)]
                output[written + 3] = characters[Int(group & 0x3F)]
                read += 3
                written += 4
            }
            let remaining = input.count - read
            guard remaining > 0 else { return written }
            let group = UInt32(input[read]) << 16 | (remaining == 2 ? UInt32(input[read + 1]) << 8 : 0)
            output[written] = characters[Int(group >> 18)]
            output[written + 1] = characters[Int(group >> 12 & 0x3F)]
            written += 2
            if remaining == 2 {
                output[written] = characters[Int(group >> 6 & 0x3F)]
                written += 1
            }
            if isPadded {
                for _ in remaining..<3 {
                    output[written] = Self.pad
                    written += 1
                }
            }
            return written
        }
    }

    /// Decodes unpadded text (its length not of the form 4n + 1) with a table of character values; `strict` refuses
    /// non-zero unused bits in the last character.
    private static func decode(_ input: UnsafeBufferPointer<UInt8>, values: [UInt8], strict: Bool) -> [UInt8]? {
        values.withUnsafeBufferPointer { values in
            var failed = false
            let bytes = [UInt8](unsafeUninitializedCapacity: input.count * 3 / 4) { output, initialized in
                var read = 0
                var written = 0
                while read + 4 <= input.count {
                    let a = values[Int(input[read])]
                    let b = values[Int(input[read + 1])]
                    let c = values[Int(input[read + 2])]
                    let d = values[Int(input[read + 3])]
                    guard (a | b | c | d) & 0xC0 == 0 else {
                        failed = true
                        return
                    }
                    output[written] = a << 2 | b >> 4
                    output[written + 1] = b << 4 | c >> 2
                    output[written + 2] = c << 6 | d
                    read += 4
                    written += 3
                }
                let remaining = input.count - read
                if remaining >= 2 {
                    let a = values[Int(input[read])]
                    let b = values[Int(input[read + 1])]
                    let c = remaining == 3 ? values[Int(input[read + 2])] : 0
                    let unused = remaining == 3 ? c & 0x03 : b & 0x0F
                    guard (a | b | c) & 0xC0 == 0, !strict || unused == 0 else {
                        failed = true
                        return
                    }
                    output[written] = a << 2 | b >> 4
                    written += 1
                    if remaining == 3 {
                        output[written] = b << 4 | c >> 2
                        written += 1
                    }
                }
                initialized = written
            }
            return failed ? nil : bytes
        }
    }
}
