// The recursive-descent GraphQL parser: entry points, token handling and document structure.
//
// Each `parseX` function carries the grammar production it implements. Productions follow the
// October 2021 specification; descriptions on named operations follow the September 2025 draft.

/// Parses GraphQL text into the syntax tree.
///
/// Every entry point throws the first syntax error as a `Diagnostic` whose file is the source's
/// name and whose location is the offending token or character. Messages read like
/// `syntax error: expected Name, found "}"`. Selection sets, list and object values and list types
/// may nest at most `GraphQLParser.maximumNestingDepth` levels deep; deeper input is an error.
public enum GraphQLParser {
    /// How deep selection sets, list and object values and list types may nest, counted together.
    public static let maximumNestingDepth = 256

    /// Parses a document of executable definitions, type-system definitions and extensions.
    ///
    /// Every node's location names `source.name` and the position of its first token. The `#`
    /// comment lines directly above operations, fields, variable definitions, object and interface
    /// types, field definitions and enums are kept in their `leadingComments`.
    public static func parseDocument(_ source: Source) throws(Diagnostic) -> Document {
        do {
            var parser = try Parser(source: source)
            return try parser.parseDocument()
        } catch {
            throw error.diagnostic
        }
    }

    /// Parses several files, each on its own: the definitions of those that parse, in order, and one diagnostic
    /// for each that does not.
    public static func parseDocuments(_ sources: [Source]) -> (definitions: [Definition], diagnostics: [Diagnostic]) {
        var definitions: [Definition] = []
        var diagnostics: [Diagnostic] = []
        for source in sources {
            do {
                definitions += try parseDocument(source).definitions
            } catch {
                diagnostics.append(error)
            }
        }
        return (definitions, diagnostics)
    }

    /// Parses a single value, such as `{a: [1, 2], b: $var}`; variables are allowed.
    ///
    /// The whole text must be the value: anything after it is an error.
    public static func parseValue(_ source: Source) throws(Diagnostic) -> Value {
        do {
            var parser = try Parser(source: source)
            let value = try parser.parseValue(isConst: false)
            try parser.expect(.endOfFile)
            return value
        } catch {
            throw error.diagnostic
        }
    }

    /// Parses a type reference, such as `[String!]!`.
    ///
    /// The whole text must be the type: anything after it is an error.
    public static func parseType(_ source: Source) throws(Diagnostic) -> TypeReference {
        do {
            var parser = try Parser(source: source)
            let type = try parser.parseTypeReference()
            try parser.expect(.endOfFile)
            return type
        } catch {
            throw error.diagnostic
        }
    }
}

/// A syntax error on its way out of the parser.
///
/// A single reference, so that the many throwing calls of the recursive descent stay cheap on the stack.
final class SyntaxError: Error {
    let diagnostic: Diagnostic

    init(_ diagnostic: Diagnostic) {
        self.diagnostic = diagnostic
    }
}

/// The parser's state: a lexer, its current token and the nesting depth.
struct Parser {
    var lexer: Lexer
    /// The current token, not yet consumed.
    var token: Token
    let file: String
    var depth = 0

    init(source: Source) throws(SyntaxError) {
        lexer = Lexer(source: source)
        file = source.name
        token = Token(kind: .endOfFile, start: 0, end: 0, location: SourceLocation(line: 1, column: 1))
        try advance()
    }

    // MARK: Tokens

    /// Consumes the current token.
    @inline(never)
    mutating func advance() throws(SyntaxError) {
        do {
            token = try lexer.next()
        } catch {
            throw SyntaxError(error)
        }
    }

    /// The location of a node whose first token is `first`.
    @inline(__always)
    func location(_ first: Token) -> NodeLocation {
        NodeLocation(file: file, start: first.location)
    }

    /// Consumes a token of `kind` or throws `expected <kind>, found <token>`.
    @discardableResult
    mutating func expect(_ kind: TokenKind) throws(SyntaxError) -> Token {
        let current = token
        guard current.kind == kind else { throw expected(kind.description, found: current) }
        try advance()
        return current
    }

    /// `expected <what>, found <token>`.
    @inline(never)
    func expected(_ what: String, found token: Token) -> SyntaxError {
        error("syntax error: expected \(what), found \(describe(token))", at: token)
    }

    /// Consumes a token of `kind` if it is the current one.
    @inline(__always)
    mutating func skip(_ kind: TokenKind) throws(SyntaxError) -> Bool {
        guard token.kind == kind else { return false }
        try advance()
        return true
    }

    /// Whether the current token is the name `keyword`.
    @inline(__always)
    func at(_ keyword: StaticString) -> Bool {
        lexer.isName(token, keyword)
    }

    /// Consumes the name `keyword` or throws `expected "keyword", found <token>`.
    mutating func expectKeyword(_ keyword: StaticString) throws(SyntaxError) {
        guard at(keyword) else { throw expected("\"\(keyword)\"", found: token) }
        try advance()
    }

    /// `Name :: NameStart NameContinue*`
    @inline(never)
    mutating func parseName() throws(SyntaxError) -> Name {
        let current = try expect(.name)
        return Name(lexer.text(of: current), location: location(current))
    }

    /// A diagnostic at a token.
    @inline(never)
    func error(_ message: String, at token: Token) -> SyntaxError {
        SyntaxError(Diagnostic(file: file, location: token.location, message: message))
    }

    /// `unexpected <token>`.
    @inline(never)
    func unexpected(_ token: Token) -> SyntaxError {
        error("syntax error: unexpected \(describe(token))", at: token)
    }

    /// How messages name a token: `"}"`, `<EOF>`, `Name "foo"`, `Int "12"`, `String "text"`.
    func describe(_ token: Token) -> String {
        token.kind.hasValue ? "\(token.kind) \"\(lexer.value(of: token))\"" : token.kind.description
    }

    /// Enters one level of nesting, failing once `GraphQLParser.maximumNestingDepth` is exceeded.
    @inline(__always)
    mutating func enterNesting(at token: Token) throws(SyntaxError) {
        depth += 1
        if depth > GraphQLParser.maximumNestingDepth { throw tooDeep(at: token) }
    }

    @inline(never)
    func tooDeep(at token: Token) -> SyntaxError {
        error("syntax error: nesting is too deep (more than \(GraphQLParser.maximumNestingDepth) levels)", at: token)
    }

    // MARK: Document

    /// Document : Definition+
    mutating func parseDocument() throws(SyntaxError) -> Document {
        var definitions: [Definition] = []
        repeat {
            definitions.append(try parseDefinition())
        } while token.kind != .endOfFile
        return Document(definitions: definitions)
    }

    /// Definition :
    ///   - ExecutableDefinition
    ///   - TypeSystemDefinition
    ///   - TypeSystemExtension
    ///
    /// ExecutableDefinition : OperationDefinition | FragmentDefinition
    ///
    /// TypeSystemDefinition : SchemaDefinition | TypeDefinition | DirectiveDefinition
    mutating func parseDefinition() throws(SyntaxError) -> Definition {
        let first = token
        if token.kind == .braceL {
            return .operation(try parseOperationDefinition(description: nil, first: first))
        }
        let description = try parseDescription()
        guard token.kind == .name else {
            if description != nil {
                throw error(
                    "syntax error: unexpected \(describe(token)) after a description, expected a definition",
                    at: token
                )
            }
            throw unexpected(token)
        }
        if at("query") || at("mutation") || at("subscription") {
            return .operation(try parseOperationDefinition(description: description, first: first))
        }
        if at("fragment") {
            if description != nil {
                throw error("syntax error: unexpected description, fragments cannot have descriptions", at: first)
            }
            return .fragment(try parseFragmentDefinition())
        }
        if at("extend") {
            if description != nil {
                throw error(
                    "syntax error: unexpected description, descriptions are not supported on extensions", at: first
                )
            }
            return try parseTypeSystemExtension()
        }
        if at("schema") {
            return .schema(try parseSchemaDefinition(description: description, first: first))
        }
        if at("directive") {
            return .directive(try parseDirectiveDefinition(description: description, first: first))
        }
        if let type = try parseTypeDefinition(description: description, first: first) {
            return .type(type)
        }
        throw unexpected(token)
    }

    /// Description : StringValue
    mutating func parseDescription() throws(SyntaxError) -> StringValue? {
        guard token.kind == .string || token.kind == .blockString else { return nil }
        return try parseStringLiteral()
    }
}
