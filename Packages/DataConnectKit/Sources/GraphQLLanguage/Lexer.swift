// The GraphQL lexer: UTF-8 bytes in, tokens out.

/// Splits GraphQL source text into tokens, following the lexical grammar of the October 2021
/// specification (plus `\u{...}` escapes from the September 2025 draft).
///
/// The lexer works on the UTF-8 bytes of the text and allocates nothing per token: a token is
/// a kind, a byte range and a position. Lines and columns are 1-based; a line ends at `\n`,
/// `\r\n` or `\r`, and columns count Unicode scalars. White space, commas, comments and byte
/// order marks are skipped, but comment lines are remembered so that `leadingComments(of:)` can
/// return the block of `#` lines written directly above a token.
///
/// ```swift
/// var lexer = Lexer(source: Source(name: "a.gql", text: "{ hero }"))
/// var token = try lexer.next()
/// while token.kind != .endOfFile {
///     print(token.kind, lexer.text(of: token))
///     token = try lexer.next()
/// }
/// ```
public struct Lexer: Sendable {
    /// The source text's UTF-8 bytes.
    let bytes: [UInt8]
    /// The source's display name, used in diagnostics.
    let file: String
    /// Offset of the next byte to read.
    private var position = 0
    /// Line of the byte at `position`.
    private var line = 1
    /// Offset of the first byte of the current line.
    private var lineStart = 0
    /// A byte offset on the current line whose column is known, so columns are counted incrementally.
    private var columnCursor = 0
    private var columnAtCursor = 1
    /// The line on which the last token or comma ended; comments on that line trail it.
    private var lastSignificantLine = 0
    /// Byte ranges of the text of every comment written on its own line.
    private var comments: [Range<Int>] = []
    /// The run of comments on consecutive lines that the next token may claim.
    private var commentBlockStart = 0
    private var commentBlockLastLine = 0
    private var hasCommentBlock = false

    /// Creates a lexer positioned before the first token of `source`.
    ///
    /// The text is copied once into a byte buffer; tokens refer into it by offset.
    public init(source: Source) {
        self.bytes = Array(source.text.utf8)
        self.file = source.name
        if Lexer.hasByteOrderMark(bytes) {
            // A byte order mark at the very start is not a column of the first line.
            position = 3
            lineStart = 3
            columnCursor = 3
        }
    }

    static func hasByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    // MARK: Reading tokens

    /// Reads the next token.
    ///
    /// Returns an `endOfFile` token at the end of the text, and again on every later call.
    /// Throws a `Diagnostic` at the offending character for malformed input (an unexpected
    /// character, a bad number, an unterminated string or an invalid escape).
    @inline(never)
    public mutating func next() throws(Diagnostic) -> Token {
        do {
            return try lexToken()
        } catch {
            throw Diagnostic(file: file, location: sourceLocation(at: error.offset), message: error.message)
        }
    }

    private mutating func lexToken() throws(LexError) -> Token {
        skipIgnored()
        let start = position
        var token = Token(
            kind: .endOfFile, start: start, end: start,
            location: SourceLocation(line: line, column: column(at: start))
        )
        if hasCommentBlock {
            if commentBlockLastLine == line - 1 {
                token.commentStart = Int32(truncatingIfNeeded: commentBlockStart)
                token.commentEnd = Int32(truncatingIfNeeded: comments.count)
            }
            hasCommentBlock = false
        }
        let count = bytes.count
        guard start < count else { return token }

        let byte = bytes[start]
        var kind: TokenKind
        switch byte {
        case Byte.bang: kind = .bang
        case Byte.dollar: kind = .dollar
        case Byte.ampersand: kind = .ampersand
        case Byte.parenL: kind = .parenL
        case Byte.parenR: kind = .parenR
        case Byte.colon: kind = .colon
        case Byte.equals: kind = .equals
        case Byte.at: kind = .at
        case Byte.bracketL: kind = .bracketL
        case Byte.bracketR: kind = .bracketR
        case Byte.braceL: kind = .braceL
        case Byte.pipe: kind = .pipe
        case Byte.braceR: kind = .braceR
        default: kind = .endOfFile
        }
        if kind != .endOfFile {
            position = start + 1
        } else if Byte.isNameStart(byte) {
            var index = start + 1
            while index < count && Byte.isNameContinue(bytes[index]) { index += 1 }
            position = index
            kind = .name
        } else if Byte.isDigit(byte) || byte == Byte.minus {
            (kind, position) = try scanNumber(from: start)
        } else if byte == Byte.quote {
            if start + 2 < count && bytes[start + 1] == Byte.quote && bytes[start + 2] == Byte.quote {
                let scan = try scanBlockString(from: start)
                position = scan.end
                if scan.lineBreaks > 0 {
                    line += scan.lineBreaks
                    lineStart = scan.lastLineStart
                }
                kind = .blockString
            } else {
                var unused: [UInt8] = []
                position = try scanString(from: start, into: &unused, decode: false)
                kind = .string
            }
        } else if byte == Byte.dot {
            guard start + 2 < count && bytes[start + 1] == Byte.dot && bytes[start + 2] == Byte.dot else {
                throw LexError(offset: start, message: "syntax error: unexpected character \".\"")
            }
            position = start + 3
            kind = .spread
        } else if byte == Byte.apostrophe {
            throw LexError(
                offset: start,
                message: "syntax error: unexpected single quote character ('), did you mean to use a double quote (\")?"
            )
        } else {
            throw LexError(offset: start, message: "syntax error: unexpected character " + describeCharacter(at: start))
        }
        token.kind = kind
        token.end = position
        lastSignificantLine = line
        return token
    }

    /// Skips white space, line terminators, commas, byte order marks and comments.
    private mutating func skipIgnored() {
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            switch byte {
            case Byte.space, Byte.tab:
                position += 1
            case Byte.comma:
                position += 1
                lastSignificantLine = line
            case Byte.lineFeed:
                position += 1
                startLine()
            case Byte.carriageReturn:
                position += 1
                if position < count && bytes[position] == Byte.lineFeed { position += 1 }
                startLine()
            case 0xEF:
                guard position + 2 < count && bytes[position + 1] == 0xBB && bytes[position + 2] == 0xBF else { return }
                position += 3
            case Byte.hash:
                let textStart = position + 1
                var index = textStart
                while index < count && bytes[index] != Byte.lineFeed && bytes[index] != Byte.carriageReturn {
                    index += 1
                }
                recordComment(textStart..<index)
                position = index
            default:
                return
            }
        }
    }

    private mutating func startLine() {
        line += 1
        lineStart = position
    }

    private mutating func recordComment(_ text: Range<Int>) {
        guard line > lastSignificantLine else {
            // A comment after a token on the same line belongs to that line, not to the next token.
            hasCommentBlock = false
            return
        }
        if !(hasCommentBlock && commentBlockLastLine == line - 1) {
            commentBlockStart = comments.count
        }
        comments.append(text)
        hasCommentBlock = true
        commentBlockLastLine = line
    }

    /// The column of `offset`, which lies on the current line at or after the last offset asked about.
    private mutating func column(at offset: Int) -> Int {
        if columnCursor < lineStart {
            columnCursor = lineStart
            columnAtCursor = 1
        }
        var index = columnCursor
        var column = columnAtCursor
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        columnCursor = offset
        columnAtCursor = column
        return column
    }

    // MARK: Numbers

    /// `IntValue :: IntegerPart [lookahead != {Digit, ., NameStart}]`
    /// `FloatValue :: IntegerPart FractionalPart ExponentPart? | IntegerPart ExponentPart`
    private func scanNumber(from start: Int) throws(LexError) -> (TokenKind, Int) {
        let count = bytes.count
        var index = start
        var isFloat = false
        if bytes[index] == Byte.minus { index += 1 }
        if index < count && bytes[index] == Byte.zero {
            index += 1
            if index < count && Byte.isDigit(bytes[index]) {
                throw LexError(
                    offset: index,
                    message: "syntax error: invalid number, unexpected digit after 0: " + describeCharacter(at: index)
                )
            }
        } else {
            index = try scanDigits(from: index)
        }
        if index < count && bytes[index] == Byte.dot {
            isFloat = true
            index = try scanDigits(from: index + 1)
        }
        if index < count && (bytes[index] == Byte.lowerE || bytes[index] == Byte.upperE) {
            isFloat = true
            index += 1
            if index < count && (bytes[index] == Byte.plus || bytes[index] == Byte.minus) { index += 1 }
            index = try scanDigits(from: index)
        }
        if index < count && (bytes[index] == Byte.dot || Byte.isNameStart(bytes[index])) {
            throw LexError(offset: index, message: expectedDigitMessage(at: index))
        }
        return (isFloat ? .float : .int, index)
    }

    /// Scans one or more digits.
    private func scanDigits(from start: Int) throws(LexError) -> Int {
        var index = start
        let count = bytes.count
        while index < count && Byte.isDigit(bytes[index]) { index += 1 }
        if index == start { throw LexError(offset: start, message: expectedDigitMessage(at: start)) }
        return index
    }

    private func expectedDigitMessage(at offset: Int) -> String {
        "syntax error: invalid number, expected digit but got " + describeCharacter(at: offset)
    }

    // MARK: Token text

    /// The token's source text, exactly as written (strings keep their quotes and escapes).
    public func text(of token: Token) -> String {
        guard isInBounds(token) else { return "" }
        return String(decoding: bytes[token.start..<token.end], as: UTF8.self)
    }

    /// Whether the token's byte range lies within the text (always true for tokens this lexer produced).
    @inline(__always)
    private func isInBounds(_ token: Token) -> Bool {
        token.start >= 0 && token.start <= token.end && token.end <= bytes.count
    }

    /// The token's value: the text of names and numbers, and the contents of strings with
    /// escapes resolved (and, for block strings, common indentation and blank edge lines removed).
    public func value(of token: Token) -> String {
        guard isInBounds(token) else { return "" }
        switch token.kind {
        case .string:
            return stringValue(start: token.start)
        case .blockString:
            return blockStringValue(contentStart: token.start + 3, contentEnd: token.end - 3)
        default:
            return text(of: token)
        }
    }

    /// The `#` comment lines written directly above the token, without the `#` and one space after it.
    ///
    /// Only the contiguous block of comment lines ending on the line before the token counts; a
    /// blank line breaks the block, and a comment after other tokens on the same line is not part of it.
    public func leadingComments(of token: Token) -> [String] {
        guard token.commentEnd > token.commentStart else { return [] }
        var lines: [String] = []
        lines.reserveCapacity(Int(token.commentEnd - token.commentStart))
        for index in Int(token.commentStart)..<Int(token.commentEnd) where index < comments.count {
            var range = comments[index]
            if range.lowerBound < range.upperBound && bytes[range.lowerBound] == Byte.space {
                range = (range.lowerBound + 1)..<range.upperBound
            }
            lines.append(String(decoding: bytes[range], as: UTF8.self))
        }
        return lines
    }

    /// Whether the token is the name `keyword`.
    func isName(_ token: Token, _ keyword: StaticString) -> Bool {
        let length = keyword.utf8CodeUnitCount
        guard token.kind == .name, token.end - token.start == length, isInBounds(token) else { return false }
        let keywordBytes = keyword.utf8Start
        var index = 0
        while index < length {
            if bytes[token.start + index] != keywordBytes[index] { return false }
            index += 1
        }
        return true
    }

    // MARK: Positions and character descriptions

    /// Line and column of any byte offset, counted from the start of the text.
    func sourceLocation(at offset: Int) -> SourceLocation {
        var line = 1
        var column = 1
        var index = Lexer.hasByteOrderMark(bytes) ? 3 : 0
        let limit = min(offset, bytes.count)
        while index < limit {
            let byte = bytes[index]
            if byte == Byte.lineFeed {
                line += 1
                column = 1
            } else if byte == Byte.carriageReturn {
                if index + 1 < limit && bytes[index + 1] == Byte.lineFeed { index += 1 }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(line: line, column: column)
    }

    /// The Unicode scalar starting at `offset`, if the bytes there form one.
    func scalar(at offset: Int) -> Unicode.Scalar? {
        guard offset >= 0 && offset < bytes.count else { return nil }
        var iterator = bytes[offset..<min(bytes.count, offset + 4)].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    /// `"x"` for a printable ASCII character, `U+XXXX` otherwise, `<EOF>` past the end.
    func describeCharacter(at offset: Int) -> String {
        guard offset < bytes.count else { return "<EOF>" }
        guard let scalar = scalar(at: offset) else { return "U+FFFD" }
        return Lexer.describe(scalar)
    }

    static func describe(_ scalar: Unicode.Scalar) -> String {
        if scalar == "\"" { return "'\"'" }
        if scalar.value >= 0x20 && scalar.value < 0x7F { return "\"" + String(Character(scalar)) + "\"" }
        var hex = String(scalar.value, radix: 16, uppercase: true)
        while hex.utf8.count < 4 { hex = "0" + hex }
        return "U+" + hex
    }
}

/// A lexical error before it is given a line and column.
struct LexError: Error {
    var offset: Int
    var message: String
}

/// ASCII byte constants and classes.
enum Byte {
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let bang = UInt8(ascii: "!")
    static let quote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let dollar = UInt8(ascii: "$")
    static let ampersand = UInt8(ascii: "&")
    static let apostrophe = UInt8(ascii: "'")
    static let parenL = UInt8(ascii: "(")
    static let parenR = UInt8(ascii: ")")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let slash = UInt8(ascii: "/")
    static let zero = UInt8(ascii: "0")
    static let colon = UInt8(ascii: ":")
    static let equals = UInt8(ascii: "=")
    static let at = UInt8(ascii: "@")
    static let upperE = UInt8(ascii: "E")
    static let bracketL = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let bracketR = UInt8(ascii: "]")
    static let underscore = UInt8(ascii: "_")
    static let lowerE = UInt8(ascii: "e")
    static let braceL = UInt8(ascii: "{")
    static let pipe = UInt8(ascii: "|")
    static let braceR = UInt8(ascii: "}")

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    @inline(__always)
    static func isNameStart(_ byte: UInt8) -> Bool { isLetter(byte) || byte == underscore }

    @inline(__always)
    static func isNameContinue(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) || byte == underscore }

    /// The value of a hexadecimal digit, or `nil`.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        if isDigit(byte) { return UInt32(byte &- 0x30) }
        let lower = byte | 0x20
        if lower >= 0x61 && lower <= 0x66 { return UInt32(lower &- 0x61 &+ 10) }
        return nil
    }
}
