/// Parses CEL source into a ``CELNode`` tree by recursive descent, one function per grammar production.
///
/// The productions are the CEL language definition's. Functions and macros are resolved here, so an unknown
/// function or a wrong argument count fails at load time. Nesting deeper than ``CELExpression/maxDepth`` fails
/// too, which bounds the recursion of both the parser and the evaluator.
///
/// ```swift
/// let root = try CELParser.parse("a + b * c")
/// // .binary(.add, a, .binary(.multiply, b, c))
/// ```
struct CELParser {
    private let bytes: [UInt8]
    private let tokens: [CELToken]
    private var index = 0
    private var recursion = 0
    private let maxDepth: Int

    private static let reservedWords: Set<String> = [
        "as", "break", "const", "continue", "else", "for", "function", "if", "import", "let", "loop", "package",
        "namespace", "return", "var", "void", "while",
    ]

    private init(source: String, maxDepth: Int) throws(CELError) {
        bytes = Array(source.utf8)
        var lexer = CELLexer(source: source)
        tokens = try lexer.tokenize()
        self.maxDepth = maxDepth
    }

    /// Parses a whole expression.
    ///
    /// - Throws: ``CELError/syntax(message:line:column:)``.
    static func parse(_ source: String, maxDepth: Int = CELExpression.maxDepth) throws(CELError) -> CELNode {
        var parser = try CELParser(source: source, maxDepth: maxDepth)
        let root = try parser.parseExpression()
        guard parser.current.kind == .end else {
            throw parser.error("unexpected \(parser.describe(parser.current)) after the end of the expression")
        }
        return root
    }

    // MARK: Productions

    /// Expr = ConditionalOr ["?" ConditionalOr ":" Expr] ;
    private mutating func parseExpression() throws(CELError) -> CELNode {
        try enter()
        defer { recursion -= 1 }
        let condition = try parseConditionalOr()
        guard consume(.question) else { return condition }
        let whenTrue = try parseConditionalOr()
        try expect(.colon, "\":\" in a conditional")
        let whenFalse = try parseExpression()
        return try node(.conditional(condition, whenTrue, whenFalse), at: condition.offset)
    }

    /// ConditionalOr = [ConditionalOr "||"] ConditionalAnd ;
    private mutating func parseConditionalOr() throws(CELError) -> CELNode {
        var left = try parseConditionalAnd()
        while consume(.or) {
            let right = try parseConditionalAnd()
            left = try node(.or(left, right), at: left.offset)
        }
        return left
    }

    /// ConditionalAnd = [ConditionalAnd "&&"] Relation ;
    private mutating func parseConditionalAnd() throws(CELError) -> CELNode {
        var left = try parseRelation()
        while consume(.and) {
            let right = try parseRelation()
            left = try node(.and(left, right), at: left.offset)
        }
        return left
    }

    /// Relation = [Relation Relop] Addition ;
    /// Relop = "<" | "<=" | ">=" | ">" | "==" | "!=" | "in" ;
    private mutating func parseRelation() throws(CELError) -> CELNode {
        var left = try parseAddition()
        while true {
            let op: CELBinaryOperator
            switch current.kind {
            case .less: op = .less
            case .lessEqual: op = .lessEqual
            case .greater: op = .greater
            case .greaterEqual: op = .greaterEqual
            case .equal: op = .equal
            case .notEqual: op = .notEqual
            case .in: op = .in
            default: return left
            }
            advance()
            let right = try parseAddition()
            left = try node(.binary(op, left, right), at: left.offset)
        }
    }

    /// Addition = [Addition ("+" | "-")] Multiplication ;
    private mutating func parseAddition() throws(CELError) -> CELNode {
        var left = try parseMultiplication()
        while true {
            let op: CELBinaryOperator
            switch current.kind {
            case .plus: op = .add
            case .minus: op = .subtract
            default: return left
            }
            advance()
            let right = try parseMultiplication()
            left = try node(.binary(op, left, right), at: left.offset)
        }
    }

    /// Multiplication = [Multiplication ("*" | "/" | "%")] Unary ;
    private mutating func parseMultiplication() throws(CELError) -> CELNode {
        var left = try parseUnary()
        while true {
            let op: CELBinaryOperator
            switch current.kind {
            case .star: op = .multiply
            case .slash: op = .divide
            case .percent: op = .remainder
            default: return left
            }
            advance()
            let right = try parseUnary()
            left = try node(.binary(op, left, right), at: left.offset)
        }
    }

    /// Unary = Member | "!" {"!"} Member | "-" {"-"} Member ;
    ///
    /// A `-` directly before an integer literal makes a negative literal, so `-9223372036854775808` is an int.
    private mutating func parseUnary() throws(CELError) -> CELNode {
        var operators: [(CELUnaryOperator, Int)] = []
        while current.kind == .bang || current.kind == .minus {
            operators.append((current.kind == .bang ? .not : .negate, current.offset))
            advance()
            guard operators.count <= maxDepth else { throw error("the expression is nested too deeply") }
        }
        var operand: CELNode
        if let last = operators.last, last.0 == .negate, current.kind == .int,
            peekKind(1) != .dot, peekKind(1) != .leftBracket
        {
            operators.removeLast()
            operand = try node(.literal(.int(try integer(current, negative: true))), at: last.1)
            advance()
        } else {
            operand = try parseMember()
        }
        for (op, offset) in operators.reversed() {
            operand = try node(.unary(op, operand), at: offset)
        }
        return operand
    }

    /// Member = Primary | Member "." SELECTOR ["(" [ExprList] ")"] | Member "[" Expr "]" ;
    private mutating func parseMember() throws(CELError) -> CELNode {
        var operand = try parsePrimary()
        while true {
            if consume(.dot) {
                guard current.kind == .identifier else {
                    throw error("expected a field name after \".\", found \(describe(current))")
                }
                let name = current
                advance()
                if consume(.leftParen) {
                    let arguments = try parseArguments()
                    operand = try receiverCall(name, receiver: operand, arguments: arguments)
                } else {
                    operand = try node(.select(operand, field: name.text), at: operand.offset)
                }
            } else if consume(.leftBracket) {
                let key = try parseExpression()
                try expect(.rightBracket, "\"]\"")
                operand = try node(.index(operand, key), at: operand.offset)
            } else {
                return operand
            }
        }
    }

    /// Primary = ["."] IDENT ["(" [ExprList] ")"] | "(" Expr ")" | "[" [ExprList] [","] "]"
    ///         | "{" [MapInits] [","] "}" | LITERAL ;
    private mutating func parsePrimary() throws(CELError) -> CELNode {
        let token = current
        switch token.kind {
        case .int:
            advance()
            return try node(.literal(.int(try integer(token, negative: false))), at: token.offset)
        case .uint:
            advance()
            return try node(.literal(.uint(try unsignedInteger(token))), at: token.offset)
        case .double:
            advance()
            guard let value = Double(token.text) else { throw error("invalid double literal", at: token) }
            return try node(.literal(.double(value)), at: token.offset)
        case .string:
            advance()
            return try node(.literal(.string(token.text)), at: token.offset)
        case .leftParen:
            advance()
            let inner = try parseExpression()
            try expect(.rightParen, "\")\"")
            return inner
        case .leftBracket:
            advance()
            return try node(.list(try parseListElements()), at: token.offset)
        case .leftBrace:
            advance()
            return try node(.map(try parseMapEntries()), at: token.offset)
        case .dot:
            advance()
            guard current.kind == .identifier else {
                throw error("expected an identifier after a leading \".\", found \(describe(current))")
            }
            return try parseIdentifier()
        case .identifier:
            return try parseIdentifier()
        case .end:
            throw error("unexpected end of expression")
        default:
            throw error("unexpected \(describe(token))")
        }
    }

    /// IDENT ["(" [ExprList] ")"], with the literals `true`, `false` and `null`.
    private mutating func parseIdentifier() throws(CELError) -> CELNode {
        let token = current
        advance()
        switch token.text {
        case "true": return try node(.literal(.bool(true)), at: token.offset)
        case "false": return try node(.literal(.bool(false)), at: token.offset)
        case "null": return try node(.literal(.null), at: token.offset)
        default: break
        }
        if Self.reservedWords.contains(token.text) {
            throw error("\"\(token.text)\" is a reserved word", at: token)
        }
        if consume(.leftParen) {
            let arguments = try parseArguments()
            return try globalCall(token, arguments: arguments)
        }
        if current.kind == .leftBrace {
            throw error("message construction (\(token.text){...}) is not supported")
        }
        return try node(.identifier(token.text), at: token.offset)
    }

    /// ExprList = Expr {"," Expr} ; the opening "(" is consumed, the closing ")" is consumed here.
    private mutating func parseArguments() throws(CELError) -> [CELNode] {
        var arguments: [CELNode] = []
        if consume(.rightParen) { return arguments }
        repeat {
            arguments.append(try parseExpression())
        } while consume(.comma)
        try expect(.rightParen, "\",\" or \")\" in an argument list")
        return arguments
    }

    /// "[" [ExprList] [","] "]" ; the "[" is consumed.
    private mutating func parseListElements() throws(CELError) -> [CELNode] {
        var elements: [CELNode] = []
        while !consume(.rightBracket) {
            elements.append(try parseExpression())
            if !consume(.comma) {
                try expect(.rightBracket, "\",\" or \"]\" in a list")
                break
            }
        }
        return elements
    }

    /// MapInits = Expr ":" Expr {"," Expr ":" Expr} ; inside "{" ... [","] "}", the "{" consumed.
    private mutating func parseMapEntries() throws(CELError) -> [(key: CELNode, value: CELNode)] {
        var entries: [(key: CELNode, value: CELNode)] = []
        while !consume(.rightBrace) {
            let key = try parseExpression()
            try expect(.colon, "\":\" after a map key")
            let value = try parseExpression()
            entries.append((key, value))
            if !consume(.comma) {
                try expect(.rightBrace, "\",\" or \"}\" in a map")
                break
            }
        }
        return entries
    }

    // MARK: Calls and macros

    private func globalCall(_ name: CELToken, arguments: [CELNode]) throws(CELError) -> CELNode {
        if name.text == "has" {
            guard arguments.count == 1, case .select(let operand, let field) = arguments[0].kind else {
                throw error("has() takes one field selection, like has(vars.name)", at: name)
            }
            return try node(.has(operand, field: field), at: name.offset)
        }
        guard let function = CELFunction(rawValue: name.text) else {
            if CELMacro(rawValue: name.text) != nil {
                throw error("\(name.text)() is a method: write list.\(name.text)(x, predicate)", at: name)
            }
            throw error("unknown function \"\(name.text)\"", at: name)
        }
        let arities = function.arities.global
        guard !arities.isEmpty else {
            throw error("\(name.text)() is a method: write value.\(name.text)(...)", at: name)
        }
        guard arities.contains(arguments.count) else {
            throw error("\(name.text)() takes \(Self.describe(arities)), not \(arguments.count)", at: name)
        }
        return try node(.call(function, arguments), at: name.offset)
    }

    private func receiverCall(
        _ name: CELToken, receiver: CELNode, arguments: [CELNode]
    ) throws(CELError) -> CELNode {
        if let macro = CELMacro(rawValue: name.text) {
            let counts: Set<Int> = macro == .map ? [2, 3] : [2]
            guard counts.contains(arguments.count) else {
                throw error("\(name.text)() takes \(Self.describe(counts)), not \(arguments.count)", at: name)
            }
            guard case .identifier(let variable) = arguments[0].kind else {
                throw error("the first argument of \(name.text)() must be a variable name", at: name)
            }
            let rest = Array(arguments.dropFirst())
            return try node(.comprehension(macro, range: receiver, variable: variable, rest), at: receiver.offset)
        }
        guard let function = CELFunction(rawValue: name.text) else {
            throw error("unknown method \"\(name.text)\"", at: name)
        }
        let arities = function.arities.receiver
        guard !arities.isEmpty else {
            throw error("\(name.text)() is not a method: write \(name.text)(value)", at: name)
        }
        guard arities.contains(arguments.count) else {
            throw error("\(name.text)() takes \(Self.describe(arities)), not \(arguments.count)", at: name)
        }
        return try node(.call(function, [receiver] + arguments), at: receiver.offset)
    }

    private static func describe(_ counts: Set<Int>) -> String {
        let sorted = counts.sorted()
        let text = sorted.map(String.init).joined(separator: " or ")
        return sorted == [1] ? "1 argument" : "\(text) arguments"
    }

    // MARK: Literals

    private func integer(_ token: CELToken, negative: Bool) throws(CELError) -> Int64 {
        let magnitude: UInt64?
        if token.text.hasPrefix("0x") || token.text.hasPrefix("0X") {
            magnitude = UInt64(token.text.dropFirst(2), radix: 16)
        } else {
            magnitude = UInt64(token.text)
        }
        guard let magnitude else { throw error("integer literal out of range", at: token) }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw error("integer literal out of range", at: token) }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard let value = Int64(exactly: magnitude) else { throw error("integer literal out of range", at: token) }
        return value
    }

    private func unsignedInteger(_ token: CELToken) throws(CELError) -> UInt64 {
        let value =
            token.text.hasPrefix("0x") || token.text.hasPrefix("0X")
            ? UInt64(token.text.dropFirst(2), radix: 16) : UInt64(token.text)
        guard let value else { throw error("unsigned integer literal out of range", at: token) }
        return value
    }

    // MARK: Tokens

    private var current: CELToken {
        tokens[index]
    }

    private func peekKind(_ ahead: Int) -> CELToken.Kind {
        tokens[min(index + ahead, tokens.count - 1)].kind
    }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    private mutating func consume(_ kind: CELToken.Kind) -> Bool {
        guard current.kind == kind else { return false }
        advance()
        return true
    }

    private mutating func expect(_ kind: CELToken.Kind, _ what: String) throws(CELError) {
        guard consume(kind) else { throw error("expected \(what), found \(describe(current))") }
    }

    private mutating func enter() throws(CELError) {
        recursion += 1
        guard recursion <= maxDepth else { throw error("the expression is nested too deeply") }
    }

    private func node(_ kind: CELNode.Kind, at offset: Int) throws(CELError) -> CELNode {
        let node = CELNode(kind, offset: offset)
        guard node.depth <= maxDepth else {
            throw CELSourcePosition.syntaxError("the expression is nested too deeply", offset: offset, in: bytes)
        }
        return node
    }

    private func describe(_ token: CELToken) -> String {
        switch token.kind {
        case .end: return "end of expression"
        case .identifier: return "identifier \"\(token.text)\""
        case .string: return "string literal"
        case .int, .uint, .double: return "number \(token.text)"
        default: return "\"\(token.text)\""
        }
    }

    private func error(_ message: String, at token: CELToken? = nil) -> CELError {
        CELSourcePosition.syntaxError(message, offset: (token ?? current).offset, in: bytes)
    }
}
