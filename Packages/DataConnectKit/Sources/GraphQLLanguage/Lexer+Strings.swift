// String and block string literals: scanning, escape sequences and the block string dedent algorithm.

extension Lexer {
    // MARK: Quoted strings

    /// Scans a quoted string whose opening `"` is at `start` and returns the offset after its closing quote.
    ///
    /// `StringValue :: " StringCharacter* "`, where `StringCharacter` is any source character but `"`,
    /// `\` and line terminators, or an escape sequence. With `decode`, the value's UTF-8 bytes are
    /// appended to `output`.
    func scanString(from start: Int, into output: inout [UInt8], decode: Bool) throws(LexError) -> Int {
        let count = bytes.count
        var index = start + 1
        var chunkStart = index
        while index < count {
            let byte = bytes[index]
            if byte == Byte.quote {
                if decode { output.append(contentsOf: bytes[chunkStart..<index]) }
                return index + 1
            }
            if byte == Byte.backslash {
                if decode { output.append(contentsOf: bytes[chunkStart..<index]) }
                index = try scanEscape(at: index, into: &output, decode: decode)
                chunkStart = index
                continue
            }
            if byte == Byte.lineFeed || byte == Byte.carriageReturn { break }
            index += 1
        }
        throw LexError(offset: index, message: "syntax error: unterminated string")
    }

    /// Scans the escape sequence whose `\` is at `start` and returns the offset after it.
    ///
    /// `EscapedCharacter :: one of " \ / b f n r t`, `EscapedUnicode :: { HexDigit+ } | HexDigit{4}`,
    /// with a leading and a trailing surrogate escape combining into one scalar.
    private func scanEscape(at start: Int, into output: inout [UInt8], decode: Bool) throws(LexError) -> Int {
        let count = bytes.count
        guard start + 1 < count else { throw LexError(offset: count, message: "syntax error: unterminated string") }
        let escaped = bytes[start + 1]
        let simple: UInt8? =
            switch escaped {
            case Byte.quote, Byte.backslash, Byte.slash: escaped
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            if decode { output.append(simple) }
            return start + 2
        }
        guard escaped == UInt8(ascii: "u") else {
            let message: String
            if escaped == Byte.lineFeed || escaped == Byte.carriageReturn {
                message = "syntax error: unterminated string"
                throw LexError(offset: start + 1, message: message)
            }
            if let scalar = scalar(at: start + 1), scalar.value >= 0x20, scalar.value != 0x7F {
                message = "syntax error: invalid character escape sequence \"\\" + String(Character(scalar)) + "\""
            } else {
                message =
                    "syntax error: invalid character escape sequence \"\\\" followed by "
                    + describeCharacter(at: start + 1)
            }
            throw LexError(offset: start, message: message)
        }
        if start + 2 < count && bytes[start + 2] == Byte.braceL {
            return try scanVariableWidthEscape(at: start, into: &output, decode: decode)
        }
        guard let code = hex4(at: start + 2) else {
            throw invalidUnicodeEscape(at: start, length: 6)
        }
        var scalarValue = code
        var end = start + 6
        if code >= 0xD800 && code <= 0xDBFF {
            guard end + 1 < count, bytes[end] == Byte.backslash, bytes[end + 1] == UInt8(ascii: "u"),
                let trailing = hex4(at: end + 2), trailing >= 0xDC00 && trailing <= 0xDFFF
            else {
                throw invalidUnicodeEscape(at: start, length: 6)
            }
            scalarValue = 0x10000 + ((code - 0xD800) << 10) + (trailing - 0xDC00)
            end += 6
        } else if code >= 0xDC00 && code <= 0xDFFF {
            throw invalidUnicodeEscape(at: start, length: 6)
        }
        if decode, let scalar = Unicode.Scalar(scalarValue) { appendUTF8(scalar, to: &output) }
        return end
    }

    /// `\u{` HexDigit+ `}`: any Unicode scalar value, written with as many digits as wanted.
    private func scanVariableWidthEscape(
        at start: Int, into output: inout [UInt8], decode: Bool
    ) throws(LexError) -> Int {
        let count = bytes.count
        var index = start + 3
        var value: UInt32 = 0
        while index < count, let digit = Byte.hexValue(bytes[index]) {
            value = value > 0x10FFFF ? value : value * 16 + digit
            index += 1
        }
        guard index > start + 3, index < count, bytes[index] == Byte.braceR, let scalar = Unicode.Scalar(value)
        else {
            let length = index < count && bytes[index] == Byte.braceR ? index + 1 - start : index - start
            throw invalidUnicodeEscape(at: start, length: max(length, 3))
        }
        if decode { appendUTF8(scalar, to: &output) }
        return index + 1
    }

    /// The value of four hexadecimal digits at `offset`, or `nil`.
    private func hex4(at offset: Int) -> UInt32? {
        guard offset >= 0 && offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            guard let digit = Byte.hexValue(bytes[index]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private func invalidUnicodeEscape(at start: Int, length: Int) -> LexError {
        var end = start
        let limit = min(bytes.count, start + length)
        while end < limit {
            let byte = bytes[end]
            if end > start + 1 && (byte == Byte.quote || byte == Byte.lineFeed || byte == Byte.carriageReturn) {
                break
            }
            end += 1
        }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return LexError(offset: start, message: "syntax error: invalid Unicode escape sequence \"" + text + "\"")
    }

    /// The decoded value of the quoted string whose opening `"` is at `start`.
    func stringValue(start: Int) -> String {
        let count = bytes.count
        var index = start + 1
        while index < count && bytes[index] != Byte.quote && bytes[index] != Byte.backslash { index += 1 }
        if index < count && bytes[index] == Byte.quote {
            return String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        }
        var output: [UInt8] = []
        output.reserveCapacity(index - start + 16)
        _ = try? scanString(from: start, into: &output, decode: true)
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: Block strings

    /// Scans a block string whose opening `"""` is at `start`.
    ///
    /// `BlockString :: """ BlockStringCharacter* """`, where `BlockStringCharacter` is any source
    /// character but `"""`, or the escape `\"""`. Returns the offset after the closing quotes and the
    /// line breaks inside, so the caller can keep counting lines.
    func scanBlockString(from start: Int) throws(LexError) -> (end: Int, lineBreaks: Int, lastLineStart: Int) {
        let count = bytes.count
        var index = start + 3
        var lineBreaks = 0
        var lastLineStart = 0
        while index < count {
            let byte = bytes[index]
            if byte == Byte.quote {
                if index + 2 < count && bytes[index + 1] == Byte.quote && bytes[index + 2] == Byte.quote {
                    return (index + 3, lineBreaks, lastLineStart)
                }
                index += 1
            } else if byte == Byte.backslash {
                index += isEscapedTripleQuote(at: index) ? 4 : 1
            } else if byte == Byte.lineFeed {
                index += 1
                lineBreaks += 1
                lastLineStart = index
            } else if byte == Byte.carriageReturn {
                index += 1
                if index < count && bytes[index] == Byte.lineFeed { index += 1 }
                lineBreaks += 1
                lastLineStart = index
            } else {
                index += 1
            }
        }
        throw LexError(offset: count, message: "syntax error: unterminated string")
    }

    @inline(__always)
    private func isEscapedTripleQuote(at offset: Int) -> Bool {
        offset + 3 < bytes.count && bytes[offset] == Byte.backslash && bytes[offset + 1] == Byte.quote
            && bytes[offset + 2] == Byte.quote && bytes[offset + 3] == Byte.quote
    }

    /// `BlockStringValue(rawValue)` from the specification, over the raw bytes between the quotes.
    ///
    /// Splits the raw value into lines, removes the smallest indentation of the lines after the
    /// first that hold more than white space, drops leading and trailing lines of only white
    /// space, and joins the rest with `\n`; `\"""` stands for `"""`.
    func blockStringValue(contentStart: Int, contentEnd: Int) -> String {
        let start = max(0, contentStart)
        let end = min(bytes.count, contentEnd)
        guard start < end else { return "" }

        var lines: [Range<Int>] = []
        var lineBegin = start
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte == Byte.lineFeed {
                lines.append(lineBegin..<index)
                index += 1
                lineBegin = index
            } else if byte == Byte.carriageReturn {
                lines.append(lineBegin..<index)
                index += 1
                if index < end && bytes[index] == Byte.lineFeed { index += 1 }
                lineBegin = index
            } else {
                index += 1
            }
        }
        lines.append(lineBegin..<end)

        var commonIndent = Int.max
        for line in lines.dropFirst() {
            let indent = leadingWhiteSpace(line)
            if indent < line.count && indent < commonIndent { commonIndent = indent }
        }
        if commonIndent != Int.max {
            for lineIndex in 1..<lines.count {
                let line = lines[lineIndex]
                lines[lineIndex] = (line.lowerBound + min(commonIndent, line.count))..<line.upperBound
            }
        }

        var first = 0
        while first < lines.count && leadingWhiteSpace(lines[first]) == lines[first].count { first += 1 }
        var last = lines.count - 1
        while last >= first && leadingWhiteSpace(lines[last]) == lines[last].count { last -= 1 }
        guard first <= last else { return "" }

        var output: [UInt8] = []
        output.reserveCapacity(end - start)
        for lineIndex in first...last {
            if lineIndex > first { output.append(Byte.lineFeed) }
            let line = lines[lineIndex]
            var position = line.lowerBound
            var chunkStart = position
            while position < line.upperBound {
                if bytes[position] == Byte.backslash && position + 3 < line.upperBound
                    && isEscapedTripleQuote(at: position)
                {
                    output.append(contentsOf: bytes[chunkStart..<position])
                    position += 1
                    chunkStart = position
                    position += 3
                } else {
                    position += 1
                }
            }
            output.append(contentsOf: bytes[chunkStart..<line.upperBound])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The number of spaces and tabs at the start of the byte range.
    private func leadingWhiteSpace(_ range: Range<Int>) -> Int {
        var index = range.lowerBound
        while index < range.upperBound && (bytes[index] == Byte.space || bytes[index] == Byte.tab) { index += 1 }
        return index - range.lowerBound
    }

    // MARK: Printing support

    /// Whether `text` lexes as exactly one block string token whose value is `value`.
    static func blockStringRoundTrips(_ text: String, value: String) -> Bool {
        var lexer = Lexer(source: Source(name: "", text: text))
        guard let token = try? lexer.next(), token.kind == .blockString, token.end == lexer.bytes.count else {
            return false
        }
        return lexer.value(of: token) == value
    }
}

/// Appends the UTF-8 encoding of `scalar`.
@inline(__always)
func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
    let value = scalar.value
    switch value {
    case 0..<0x80:
        output.append(UInt8(value))
    case 0x80..<0x800:
        output.append(UInt8(0xC0 | (value >> 6)))
        output.append(UInt8(0x80 | (value & 0x3F)))
    case 0x800..<0x10000:
        output.append(UInt8(0xE0 | (value >> 12)))
        output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
        output.append(UInt8(0x80 | (value & 0x3F)))
    default:
        output.append(UInt8(0xF0 | (value >> 18)))
        output.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
        output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
        output.append(UInt8(0x80 | (value & 0x3F)))
    }
}
