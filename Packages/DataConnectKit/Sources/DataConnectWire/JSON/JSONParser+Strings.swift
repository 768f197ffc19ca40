extension JSONParser {
    // MARK: Strings

    /// string = quotation-mark *char quotation-mark
    mutating func parseString() throws(JSONError) -> String {
        if let content = try scanString() {
            return String(
                decoding: UnsafeBufferPointer(start: base + content.lowerBound, count: content.count), as: UTF8.self)
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Reads the string whose opening quote is at `position`, leaving `position` after its closing quote.
    ///
    /// - Returns: The range of the string's content in the input when it has no escapes; `nil` when it has some,
    ///   and its decoded UTF-8 bytes are in `scratch` (until the next string).
    mutating func scanString() throws(JSONError) -> Range<Int>? {
        position += 1
        let contentBegin = position
        lastStringHadEscapes = false
        while position < count {
            // Skip eight plain ASCII bytes at a time: no quote, backslash, control character or high bit.
            while position + 8 <= count {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                if Self.needsAttention(word) { break }
                position += 8
            }
            guard position < count else { break }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return contentBegin..<(position - 1)
            }
            if byte == UInt8(ascii: "\\") {
                try decodeEscapedString(contentBegin: contentBegin)
                return nil
            }
            if byte < 0x20 {
                throw controlCharacter(at: position)
            }
            if byte >= 0x80 {
                position += try validateUTF8Sequence(at: position)
            } else {
                position += 1
            }
        }
        throw endOfInput()
    }

    /// Whether any byte of `word` is a quote, a backslash, a control character or not ASCII.
    ///
    /// Uses the classic "has a zero byte" bit trick; it may report a false positive next to a true one, which
    /// only sends the caller to its byte-by-byte loop.
    @inline(__always)
    private static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = word &- (ones &* 0x20)
        return (hasQuote | hasBackslash | hasControl | word) & highs != 0
    }

    /// Continues a string at its first backslash, decoding into `scratch`.
    private mutating func decodeEscapedString(contentBegin: Int) throws(JSONError) {
        lastStringHadEscapes = true
        scratch.removeAll(keepingCapacity: true)
        var runBegin = contentBegin
        while position < count {
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                appendRun(from: runBegin)
                position += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                appendRun(from: runBegin)
                try parseEscape()
                runBegin = position
            } else if byte < 0x20 {
                throw controlCharacter(at: position)
            } else if byte >= 0x80 {
                position += try validateUTF8Sequence(at: position)
            } else {
                position += 1
            }
        }
        throw endOfInput()
    }

    @inline(__always)
    private mutating func appendRun(from runBegin: Int) {
        if position > runBegin {
            scratch.append(contentsOf: UnsafeBufferPointer(start: base + runBegin, count: position - runBegin))
        }
    }

    /// escape = %x5C ( %x22 / %x5C / %x2F / %x62 / %x66 / %x6E / %x72 / %x74 / %x75 4HEXDIG )
    private mutating func parseEscape() throws(JSONError) {
        let escapeBegin = position
        position += 1
        guard position < count else { throw endOfInput() }
        let byte = base[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
            scratch.append(byte)
        case UInt8(ascii: "b"):
            scratch.append(0x08)
        case UInt8(ascii: "f"):
            scratch.append(0x0C)
        case UInt8(ascii: "n"):
            scratch.append(0x0A)
        case UInt8(ascii: "r"):
            scratch.append(0x0D)
        case UInt8(ascii: "t"):
            scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4()
            var scalar = UInt32(unit)
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard position + 1 < count, base[position] == UInt8(ascii: "\\"),
                    base[position + 1] == UInt8(ascii: "u")
                else {
                    throw loneSurrogate(unit, at: escapeBegin)
                }
                position += 2
                let low = try parseHex4()
                guard low >= 0xDC00 && low <= 0xDFFF else { throw loneSurrogate(unit, at: escapeBegin) }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw loneSurrogate(unit, at: escapeBegin)
            }
            appendUTF8(scalar)
        default:
            position -= 1
            let shown =
                base[position] >= 0x20 && base[position] < 0x7F
                ? "\"\\\(Character(Unicode.Scalar(base[position])))\"" : "before \(describeCharacter(at: position))"
            throw makeError(.invalidEscape, "invalid escape sequence \(shown)", at: escapeBegin)
        }
    }

    private mutating func parseHex4() throws(JSONError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < count else { throw endOfInput() }
            let byte = base[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 0x57
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 0x37
            default:
                throw makeError(
                    .invalidUnicodeEscape,
                    "invalid \\u escape: expected a hexadecimal digit, found \(describeCharacter(at: position))",
                    at: position
                )
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Checks the well-formed UTF-8 sequence starting at `offset` (Unicode Table 3-7) and returns its length.
    private func validateUTF8Sequence(at offset: Int) throws(JSONError) -> Int {
        guard let length = utf8SequenceLength(at: offset) else {
            throw makeError(.invalidUTF8, "invalid UTF-8 byte \(hexByte(base[offset]))", at: offset)
        }
        return length
    }

    /// The length of the well-formed UTF-8 sequence at `offset`, or `nil` when the bytes there are ill-formed.
    private func utf8SequenceLength(at offset: Int) -> Int? {
        let lead = base[offset]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0x00..<0x80: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return nil
        }
        guard offset + length <= count else { return nil }
        let second = base[offset + 1]
        guard second >= lower && second <= upper else { return nil }
        for index in 2..<length where base[offset + index] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }

    // MARK: Errors

    @inline(never)
    func endOfInput() -> JSONError {
        makeError(.unexpectedEndOfInput, "unexpected end of input", at: count)
    }

    @inline(never)
    func unexpectedCharacter(at offset: Int, suffix: String = "") -> JSONError {
        if base[offset] >= 0x80 && utf8SequenceLength(at: offset) == nil {
            return makeError(.invalidUTF8, "invalid UTF-8 byte \(hexByte(base[offset]))", at: offset)
        }
        return makeError(
            .unexpectedCharacter, "unexpected character \(describeCharacter(at: offset))\(suffix)", at: offset)
    }

    @inline(never)
    private func controlCharacter(at offset: Int) -> JSONError {
        makeError(
            .controlCharacterInString,
            "unescaped control character \(describeCharacter(at: offset)) in string", at: offset
        )
    }

    @inline(never)
    private func loneSurrogate(_ unit: UInt16, at offset: Int) -> JSONError {
        let hex = String(unit, radix: 16, uppercase: true)
        return makeError(.loneSurrogate, "lone surrogate \\u\(hex) in string", at: offset)
    }

    /// `"x"` for a printable character, `U+000A` for a control character or one that is not valid UTF-8.
    func describeCharacter(at offset: Int) -> String {
        let byte = base[offset]
        if byte >= 0x21 && byte < 0x7F {
            return "\"\(Character(Unicode.Scalar(byte)))\""
        }
        if byte >= 0x80, let length = utf8SequenceLength(at: offset) {
            let text = String(decoding: UnsafeBufferPointer(start: base + offset, count: length), as: UTF8.self)
            if let scalar = text.unicodeScalars.first, scalar.properties.generalCategory != .format {
                return "\"\(text)\""
            }
            return "U+" + String(text.unicodeScalars.first?.value ?? 0, radix: 16, uppercase: true)
        }
        if byte >= 0x80 {
            return hexByte(byte)
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    private func hexByte(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" : "") + hex
    }

    /// Builds an error, computing the line and column of `offset`.
    func makeError(_ kind: JSONError.Kind, _ reason: String, at offset: Int) -> JSONError {
        var line = 1
        var column = 1
        for index in 0..<min(offset, count) {
            let byte = base[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONError(kind: kind, reason: reason, offset: offset, line: line, column: column)
    }
}
