// Lexical tokens of GraphQL source text.

/// The kind of a lexical token.
///
/// Ignored tokens (white space, line terminators, commas, comments and the byte order mark)
/// never surface as tokens; the lexer skips them. `endOfFile` is produced once the text is
/// exhausted, and again on every later request.
public enum TokenKind: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The end of the text; its range is empty.
    case endOfFile
    /// `!`
    case bang
    /// `$`
    case dollar
    /// `&`
    case ampersand
    /// `(`
    case parenL
    /// `)`
    case parenR
    /// `...`
    case spread
    /// `:`
    case colon
    /// `=`
    case equals
    /// `@`
    case at
    /// `[`
    case bracketL
    /// `]`
    case bracketR
    /// `{`
    case braceL
    /// `|`
    case pipe
    /// `}`
    case braceR
    /// A name: `[_A-Za-z][_0-9A-Za-z]*`. Keywords such as `query` and `true` are names too.
    case name
    /// An integer literal such as `-12`.
    case int
    /// A float literal such as `1.5e3`.
    case float
    /// A quoted string literal.
    case string
    /// A `"""` block string literal.
    case blockString

    /// How diagnostics name the kind: `"{"` for punctuators, `Name`, `Int`, `<EOF>`, ...
    public var description: String {
        switch self {
        case .endOfFile: "<EOF>"
        case .bang: "\"!\""
        case .dollar: "\"$\""
        case .ampersand: "\"&\""
        case .parenL: "\"(\""
        case .parenR: "\")\""
        case .spread: "\"...\""
        case .colon: "\":\""
        case .equals: "\"=\""
        case .at: "\"@\""
        case .bracketL: "\"[\""
        case .bracketR: "\"]\""
        case .braceL: "\"{\""
        case .pipe: "\"|\""
        case .braceR: "\"}\""
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .blockString: "BlockString"
        }
    }

    /// Whether the kind carries text of its own (names, numbers and strings).
    public var hasValue: Bool {
        switch self {
        case .name, .int, .float, .string, .blockString: true
        default: false
        }
    }
}

/// One lexical token: its kind, where its bytes are, and where it starts.
///
/// Tokens do not own text. Ask the `Lexer` that produced a token for its source text
/// (`text(of:)`), its value with string escapes resolved (`value(of:)`) and the comment lines
/// written directly above it (`leadingComments(of:)`).
public struct Token: Hashable, Sendable {
    /// What the token is.
    public var kind: TokenKind
    /// Offset of the token's first UTF-8 byte in the source text.
    public var start: Int
    /// Offset one past the token's last UTF-8 byte.
    public var end: Int
    /// Line and column of the token's first character.
    public var location: SourceLocation
    /// Index range, in the lexer's comment table, of the comment block directly above the token.
    var commentStart: Int32
    var commentEnd: Int32

    /// Creates a token without leading comments.
    public init(kind: TokenKind, start: Int, end: Int, location: SourceLocation) {
        self.kind = kind
        self.start = start
        self.end = end
        self.location = location
        self.commentStart = 0
        self.commentEnd = 0
    }

    /// The token's UTF-8 byte range in the source text.
    public var range: Range<Int> { start..<end }
}
