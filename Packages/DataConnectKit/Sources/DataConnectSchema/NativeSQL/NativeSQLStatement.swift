/// The facts about a native SQL statement (`_select(sql:)`, `_execute(sql:)`) that the emulator checks and
/// uses, read by a small lexer that knows PostgreSQL's quoting.
///
/// The lexer walks the text once, skipping string literals (`'...'`, `E'...'`), quoted identifiers
/// (`"..."`) and dollar-quoted strings (`$tag$...$tag$`), so what it reports is never fooled by text inside
/// them: the first keyword, the positional parameters `$n`, comments and statement separators.
public struct NativeSQLStatement: Sendable, Hashable {
    /// The statement without a trailing `;` and surrounding whitespace.
    public let text: String
    /// The first keyword, upper-cased (`SELECT`, `WITH`, `INSERT`, ...).
    public let firstKeyword: String
    /// The numbers of the positional parameters the statement uses (`$1` is 1).
    public let parameters: Set<Int>

    /// The highest parameter number used, 0 when there is none.
    public var highestParameter: Int { parameters.max() ?? 0 }

    /// The keywords a native SQL query may start with.
    public static let queryKeywords: Set<String> = ["SELECT", "TABLE", "WITH"]
    /// The keywords a native SQL mutation statement may start with.
    public static let mutationKeywords: Set<String> = ["INSERT", "UPDATE", "DELETE", "MERGE", "WITH", "SELECT"]

    /// Reads a statement.
    ///
    /// - Throws: a message saying why the text is not one statement the emulator accepts: empty, a
    ///   comment, several statements, an unterminated literal.
    public init(parsing sql: String) throws(NativeSQLProblem) {
        let bytes = Array(sql.utf8)
        var parameters: Set<Int> = []
        var firstKeyword: String?
        var end = bytes.count
        var index = 0
        func isIdentifier(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "_") || byte >= 0x80
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        /// The index after the quote that closes the one at `open` (a doubled quote stands for itself, and with
        /// `escapes` a backslash escapes the next byte); `nil` when none does.
        func closingQuote(_ quote: UInt8, after open: Int, escapes: Bool) -> Int? {
            var index = open + 1
            while index < bytes.count {
                if escapes && bytes[index] == UInt8(ascii: "\\") {
                    index += 2
                } else if bytes[index] == quote {
                    if index + 1 < bytes.count && bytes[index + 1] == quote {
                        index += 2
                    } else {
                        return index + 1
                    }
                } else {
                    index += 1
                }
            }
            return nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"):
                // E'...' takes backslash escapes; '...' only doubled quotes.
                let escapes =
                    index > 0 && (bytes[index - 1] == UInt8(ascii: "E") || bytes[index - 1] == UInt8(ascii: "e"))
                    && (index < 2 || !isIdentifier(bytes[index - 2]))
                guard let after = closingQuote(UInt8(ascii: "'"), after: index, escapes: escapes) else {
                    throw NativeSQLProblem("the SQL has an unterminated string literal")
                }
                index = after
            case UInt8(ascii: "\""):
                guard let after = closingQuote(UInt8(ascii: "\""), after: index, escapes: false) else {
                    throw NativeSQLProblem("the SQL has an unterminated quoted identifier")
                }
                index = after
            case UInt8(ascii: "$"):
                var next = index + 1
                if next < bytes.count && isDigit(bytes[next]) {
                    while next < bytes.count && isDigit(bytes[next]) { next += 1 }
                    let number = Int(String(decoding: bytes[(index + 1)..<next], as: UTF8.self)) ?? 0
                    if number < 1 || number > 65_535 {
                        throw NativeSQLProblem("parameter $\(number) is out of range: parameters are $1, $2, ...")
                    }
                    parameters.insert(number)
                    index = next
                    continue
                }
                // A dollar-quoted string: $tag$ ... $tag$ (the tag may be empty).
                while next < bytes.count && isIdentifier(bytes[next]) { next += 1 }
                guard next < bytes.count, bytes[next] == UInt8(ascii: "$") else {
                    index += 1
                    continue
                }
                let tag = Array(bytes[index...next])
                var search = next + 1
                var closed = false
                while search + tag.count <= bytes.count {
                    if bytes[search] == UInt8(ascii: "$") && Array(bytes[search..<(search + tag.count)]) == tag {
                        closed = true
                        search += tag.count
                        break
                    }
                    search += 1
                }
                if !closed { throw NativeSQLProblem("the SQL has an unterminated dollar-quoted string") }
                index = search
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                throw NativeSQLProblem("comments (--) are not allowed in native SQL")
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                throw NativeSQLProblem("comments (/* */) are not allowed in native SQL")
            case UInt8(ascii: ";"):
                let rest = bytes[(index + 1)...].filter { !Self.isSpace($0) || $0 == UInt8(ascii: ";") }
                if !rest.allSatisfy({ $0 == UInt8(ascii: ";") }) {
                    throw NativeSQLProblem("native SQL must be one statement; remove the \";\" between statements")
                }
                end = index
                index = bytes.count
            default:
                if firstKeyword == nil && isIdentifier(byte) && !isDigit(byte) {
                    var next = index
                    while next < bytes.count && isIdentifier(bytes[next]) { next += 1 }
                    firstKeyword = String(decoding: bytes[index..<next], as: UTF8.self).uppercased()
                    index = next
                } else {
                    index += 1
                }
            }
        }
        var start = 0
        while start < end && Self.isSpace(bytes[start]) { start += 1 }
        while end > start && Self.isSpace(bytes[end - 1]) { end -= 1 }
        guard let firstKeyword, start < end else { throw NativeSQLProblem("the SQL statement is empty") }
        self.text = String(decoding: bytes[start..<end], as: UTF8.self)
        self.firstKeyword = firstKeyword
        self.parameters = parameters
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}

/// Why a native SQL statement is refused.
public struct NativeSQLProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message.
    public var message: String

    /// Creates a problem.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
