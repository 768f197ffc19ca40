/// Splits CEL source into tokens.
///
/// Follows the CEL language definition's lexis: `//` comments, identifiers, decimal and `0x` integers with an
/// optional `u` suffix, doubles (`1.5`, `.5`, `1e-3`), strings in single, double or triple quotes with escapes,
/// raw strings (`r"..."`), and the operators. Bytes literals (`b"..."`) are rejected.
///
/// ```swift
/// var lexer = CELLexer(source: "a.b >= 1u")
/// try lexer.tokenize().map(\.kind)  // [.identifier, .dot, .identifier, .greaterEqual, .uint, .end]
/// ```
struct CELLexer {
    private let bytes: [UInt8]
    private var position = 0

    init(source: String) {
        bytes = Array(source.utf8)
    }

    /// All tokens, ending with `.end`.
    mutating func tokenize() throws(CELError) -> [CELToken] {
        var tokens: [CELToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    // MARK: Tokens

    private mutating func next() throws(CELError) -> CELToken {
        skipWhitespaceAndComments()
        let start = position
        guard let byte = peek() else { return CELToken(kind: .end, text: "", offset: start) }
        if isIdentifierStart(byte) {
            return try identifierOrPrefixedString()
        }
        if isDigit(byte) || (byte == UInt8(ascii: ".") && peek(1).map(isDigit) == true) {
            return try number()
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            return try string(raw: false, start: start)
        }
        position += 1
        func token(_ kind: CELToken.Kind, _ text: String) -> CELToken {
            CELToken(kind: kind, text: text, offset: start)
        }
        func twoChar(_ second: Character, _ kind: CELToken.Kind, _ text: String) -> CELToken? {
            guard peek() == second.asciiValue else { return nil }
            position += 1
            return token(kind, text)
        }
        switch byte {
        case UInt8(ascii: "."): return token(.dot, ".")
        case UInt8(ascii: ","): return token(.comma, ",")
        case UInt8(ascii: ":"): return token(.colon, ":")
        case UInt8(ascii: "?"): return token(.question, "?")
        case UInt8(ascii: "("): return token(.leftParen, "(")
        case UInt8(ascii: ")"): return token(.rightParen, ")")
        case UInt8(ascii: "["): return token(.leftBracket, "[")
        case UInt8(ascii: "]"): return token(.rightBracket, "]")
        case UInt8(ascii: "{"): return token(.leftBrace, "{")
        case UInt8(ascii: "}"): return token(.rightBrace, "}")
        case UInt8(ascii: "+"): return token(.plus, "+")
        case UInt8(ascii: "-"): return token(.minus, "-")
        case UInt8(ascii: "*"): return token(.star, "*")
        case UInt8(ascii: "/"): return token(.slash, "/")
        case UInt8(ascii: "%"): return token(.percent, "%")
        case UInt8(ascii: "!"): return twoChar("=", .notEqual, "!=") ?? token(.bang, "!")
        case UInt8(ascii: "<"): return twoChar("=", .lessEqual, "<=") ?? token(.less, "<")
        case UInt8(ascii: ">"): return twoChar("=", .greaterEqual, ">=") ?? token(.greater, ">")
        case UInt8(ascii: "="):
            if let equal = twoChar("=", .equal, "==") { return equal }
            throw error("unexpected \"=\" (use \"==\" to compare)", at: start)
        case UInt8(ascii: "&"):
            if let and = twoChar("&", .and, "&&") { return and }
            throw error("unexpected \"&\" (use \"&&\")", at: start)
        case UInt8(ascii: "|"):
            if let or = twoChar("|", .or, "||") { return or }
            throw error("unexpected \"|\" (use \"||\")", at: start)
        default:
            position = start
            throw error("unexpected character \(describe(scalarAt: start))", at: start)
        }
    }

    private mutating func skipWhitespaceAndComments() {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                position += 1
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                while let byte = peek(), byte != UInt8(ascii: "\n") { position += 1 }
            default:
                return
            }
        }
    }

    private mutating func identifierOrPrefixedString() throws(CELError) -> CELToken {
        let start = position
        while let byte = peek(), isIdentifierStart(byte) || isDigit(byte) { position += 1 }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            switch text.lowercased() {
            case "r":
                return try string(raw: true, start: start)
            case "b", "rb", "br":
                throw error("bytes literals are not supported", at: start)
            default:
                break
            }
        }
        return CELToken(kind: text == "in" ? .in : .identifier, text: text, offset: start)
    }

    private mutating func number() throws(CELError) -> CELToken {
        let start = position
        if peek() == UInt8(ascii: "0"), let x = peek(1), x | 0x20 == UInt8(ascii: "x") {
            position += 2
            let digitsStart = position
            while let byte = peek(), isHexDigit(byte) { position += 1 }
            guard position > digitsStart else { throw error("invalid hexadecimal literal", at: start) }
            return try integerSuffix(start: start)
        }
        var isDouble = false
        while let byte = peek(), isDigit(byte) { position += 1 }
        if peek() == UInt8(ascii: "."), peek(1).map(isDigit) == true {
            isDouble = true
            position += 1
            while let byte = peek(), isDigit(byte) { position += 1 }
        }
        if let e = peek(), e | 0x20 == UInt8(ascii: "e") {
            isDouble = true
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            let exponentStart = position
            while let byte = peek(), isDigit(byte) { position += 1 }
            guard position > exponentStart else { throw error("invalid number: missing exponent digits", at: start) }
        }
        if isDouble {
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if let byte = peek(), isIdentifierStart(byte) || isDigit(byte) {
                throw error("invalid number \"\(text)\(describe(scalarAt: position))\"", at: start)
            }
            return CELToken(kind: .double, text: text, offset: start)
        }
        return try integerSuffix(start: start)
    }

    private mutating func integerSuffix(start: Int) throws(CELError) -> CELToken {
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        var kind = CELToken.Kind.int
        if let u = peek(), u | 0x20 == UInt8(ascii: "u") {
            position += 1
            kind = .uint
        }
        if let byte = peek(), isIdentifierStart(byte) || isDigit(byte) {
            throw error("invalid number: unexpected \(describe(scalarAt: position)) after \"\(text)\"", at: start)
        }
        return CELToken(kind: kind, text: text, offset: start)
    }

    // MARK: Strings

    private mutating func string(raw: Bool, start: Int) throws(CELError) -> CELToken {
        let quote = bytes[position]
        let triple = peek(1) == quote && peek(2) == quote
        position += triple ? 3 : 1
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = peek() else { throw error("unterminated string", at: start) }
            if byte == quote {
                if !triple {
                    position += 1
                    break
                }
                if peek(1) == quote && peek(2) == quote {
                    position += 3
                    break
                }
            }
            if !triple && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")) {
                throw error("unterminated string (a newline needs a triple-quoted string)", at: start)
            }
            if byte == UInt8(ascii: "\\") && !raw {
                scalars.append(try escape())
                continue
            }
            scalars.append(decodeScalar())
        }
        return CELToken(kind: .string, text: String(scalars), offset: start)
    }

    /// Reads one escape sequence, the backslash included.
    private mutating func escape() throws(CELError) -> Unicode.Scalar {
        let start = position
        position += 1
        guard let byte = peek() else { throw error("unterminated escape sequence", at: start) }
        position += 1
        switch byte {
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "'"): return "'"
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "`"): return "`"
        case UInt8(ascii: "?"): return "?"
        case UInt8(ascii: "a"): return "\u{07}"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "v"): return "\u{0B}"
        case UInt8(ascii: "x"), UInt8(ascii: "X"):
            return try hexEscape(digits: 2, start: start)
        case UInt8(ascii: "u"):
            return try hexEscape(digits: 4, start: start)
        case UInt8(ascii: "U"):
            return try hexEscape(digits: 8, start: start)
        case UInt8(ascii: "0")...UInt8(ascii: "3"):
            var value = UInt32(byte - UInt8(ascii: "0"))
            for _ in 0..<2 {
                guard let digit = peek(), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else {
                    throw error("invalid octal escape: expected three octal digits", at: start)
                }
                value = value * 8 + UInt32(digit - UInt8(ascii: "0"))
                position += 1
            }
            return Unicode.Scalar(UInt8(value))
        default:
            position = start + 1
            throw error("invalid escape sequence \"\\\(describe(scalarAt: start + 1, quoted: false))\"", at: start)
        }
    }

    private mutating func hexEscape(digits: Int, start: Int) throws(CELError) -> Unicode.Scalar {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let digit = peek(), let nibble = hexValue(digit) else {
                throw error("invalid escape sequence: expected \(digits) hexadecimal digits", at: start)
            }
            value = value << 4 | UInt32(nibble)
            position += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error(
                "invalid escape sequence: U+\(String(value, radix: 16, uppercase: true)) is not a scalar", at: start)
        }
        return scalar
    }

    /// Decodes the UTF-8 scalar at the position (the source came from a `String`, so it is well formed).
    private mutating func decodeScalar() -> Unicode.Scalar {
        let length = Self.sequenceLength(bytes[position])
        let end = min(position + length, bytes.count)
        let scalar = String(decoding: bytes[position..<end], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        position = end
        return scalar
    }

    // MARK: Helpers

    private func peek(_ ahead: Int = 0) -> UInt8? {
        position + ahead < bytes.count ? bytes[position + ahead] : nil
    }

    private func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func isHexDigit(_ byte: UInt8) -> Bool {
        hexValue(byte) != nil
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }

    private func describe(scalarAt offset: Int, quoted: Bool = true) -> String {
        guard offset < bytes.count else { return "end of input" }
        let end = min(offset + Self.sequenceLength(bytes[offset]), bytes.count)
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        return quoted ? "\"\(text)\"" : text
    }

    private func error(_ message: String, at offset: Int) -> CELError {
        CELSourcePosition.syntaxError(message, offset: offset, in: bytes)
    }
}

/// Turns byte offsets into the 1-based line and column of syntax errors.
enum CELSourcePosition {
    /// A syntax error located at `offset` in the UTF-8 `bytes`.
    static func syntaxError(_ message: String, offset: Int, in bytes: [UInt8]) -> CELError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return .syntax(message: message, line: line, column: column)
    }
}
