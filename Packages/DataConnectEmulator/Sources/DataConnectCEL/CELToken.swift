/// One lexical token of a CEL expression.
struct CELToken: Hashable, Sendable {
    /// What the token is.
    enum Kind: Hashable, Sendable {
        case identifier
        case int
        case uint
        case double
        case string
        case dot, comma, colon, question
        case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace
        case plus, minus, star, slash, percent
        case bang, equal, notEqual, less, lessEqual, greater, greaterEqual
        case and, or
        case `in`
        case end
    }

    /// What the token is.
    var kind: Kind
    /// The identifier, the number's digits (without sign or `u` suffix, hex with its `0x`), the decoded string,
    /// or the operator's spelling.
    var text: String
    /// The byte offset of the token's first character in the UTF-8 source.
    var offset: Int
}
