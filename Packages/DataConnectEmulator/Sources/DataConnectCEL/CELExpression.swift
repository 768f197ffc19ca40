import DataConnectWire

/// A CEL expression, parsed once and evaluated per request.
///
/// Data Connect writes server-side logic in a subset of the Common Expression Language: `@auth(expr:)`, `@check`,
/// `_expr` server values and `@default(expr:)`. Parse when a connector loads, so syntax errors, unknown functions
/// and wrong argument counts surface then; evaluate with the request's ``CELBindings``.
///
/// The subset: `null`, bools, ints (`-5`, `0x1F`), uints (`5u`), doubles, strings (single, double or triple quotes,
/// escapes, raw `r"..."`), lists and maps; member access, indexing, `!`, `-`, `* / %`, `+ -`, the relations
/// `< <= > >= == != in`, `&&`, `||` and `? :`; `has()`, `size()`, `int()`, `uint()`, `double()`, `string()`,
/// `bool()`, `dyn()`, `timestamp()`, `duration()`, `uuidV4()`, `uuidV7()`, `matches()`, `startsWith()`,
/// `endsWith()`, `contains()`, `lowerAscii()`, `upperAscii()`, and the macros `all`, `exists`, `exists_one`,
/// `map` and `filter`.
///
/// Where this evaluator departs from standard CEL, it is because bindings are JSON, which cannot tell `1` from
/// `1.0`: ints, uints and doubles mix in arithmetic and comparisons; a timestamp compares with a string holding an
/// RFC 3339 instant; map keys are strings. Also: `has()` on a `null` operand is `false` rather than an error,
/// dividing a double by zero is an error rather than infinity, and reading any member of `auth` with no user
/// throws ``CELError/unauthenticated``. Not supported: bytes, protobuf messages, optional syntax (`a.?b`),
/// `type()`, and the timestamp accessors (`getFullYear()` and the like).
///
/// ```swift
/// let rule = try CELExpression(parsing: "has(vars.status) && vars.status in ['DRAFT', 'PUBLISHED']")
/// try rule.evaluateCondition(in: CELBindings(vars: ["status": "DRAFT"]))  // true
/// rule.referencedRoots  // ["vars"]
/// ```
public struct CELExpression: Sendable {
    /// The source text.
    public let source: String
    /// The bindings the expression reads, such as `["auth", "vars"]` (comprehension variables excluded).
    public let referencedRoots: Set<String>
    /// Whether the expression reads `auth.uid` (or `request.auth.uid`), which makes a `USER*` level "secure".
    public let referencesAuthUID: Bool

    let root: CELNode

    /// The deepest nesting the parser accepts; deeper expressions fail to parse.
    public static let maxDepth = 100
    /// The longest source the parser accepts, in UTF-8 bytes.
    public static let maxSourceLength = 100_000
    /// The most evaluation steps one evaluation may take before it fails.
    public static let evaluationBudget = 1_000_000

    /// Parses an expression.
    ///
    /// ```swift
    /// let check = try CELExpression(parsing: "this != null")
    /// ```
    ///
    /// - Parameter source: the CEL text.
    /// - Throws: ``CELError/syntax(message:line:column:)`` with the position of the first error.
    public init(parsing source: String) throws(CELError) {
        guard source.utf8.count <= Self.maxSourceLength else {
            throw .syntax(message: "the expression is longer than \(Self.maxSourceLength) bytes", line: 1, column: 1)
        }
        self.source = source
        root = try CELParser.parse(source)
        var analysis = CELAnalysis()
        analysis.visit(root, locals: [])
        referencedRoots = analysis.roots
        referencesAuthUID = analysis.readsAuthUID
    }

    /// Evaluates the expression.
    ///
    /// ```swift
    /// try CELExpression(parsing: "size(vars.tags) + 1").evaluate(in: CELBindings(vars: ["tags": ["a"]]))  // 2
    /// ```
    ///
    /// - Parameter bindings: the request's values.
    /// - Returns: the result as JSON: timestamps as RFC 3339 strings, durations as `"1.5s"`.
    /// - Throws: ``CELError/unauthenticated`` when the expression reads a member of `auth` with no user;
    ///   ``CELError/evaluation(message:)`` for every other failure.
    public func evaluate(in bindings: CELBindings) throws(CELError) -> JSONValue {
        var evaluator = CELEvaluator(bindings: bindings)
        return try evaluator.evaluate(root).json
    }

    /// Evaluates the expression as a condition, which must give a bool.
    ///
    /// ```swift
    /// try CELExpression(parsing: "auth.token.admin == true").evaluateCondition(in: bindings)
    /// ```
    ///
    /// - Parameter bindings: the request's values.
    /// - Returns: the bool.
    /// - Throws: as ``evaluate(in:)``, and ``CELError/evaluation(message:)`` when the result is not a bool.
    public func evaluateCondition(in bindings: CELBindings) throws(CELError) -> Bool {
        var evaluator = CELEvaluator(bindings: bindings)
        let value = try evaluator.evaluate(root)
        guard case .bool(let bool) = value else {
            throw .evaluation(message: "the condition must evaluate to a bool, got \(value.typeName)")
        }
        return bool
    }
}

extension CELExpression: Hashable {
    /// Whether both expressions have the same source text.
    public static func == (lhs: CELExpression, rhs: CELExpression) -> Bool {
        lhs.source == rhs.source
    }

    /// Hashes the source text.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
    }
}

extension CELExpression: CustomStringConvertible {
    /// The parsed expression with every operation parenthesized, e.g. `((a + (b * c)) == d)`; it parses back to
    /// the same tree.
    public var description: String {
        CELPrinter.print(root)
    }
}

/// Collects the free names of an expression and whether it reads `auth.uid`.
private struct CELAnalysis {
    var roots: Set<String> = []
    var readsAuthUID = false

    mutating func visit(_ node: CELNode, locals: Set<String>) {
        switch node.kind {
        case .identifier(let name):
            if !locals.contains(name) { roots.insert(name) }
        case .select(let operand, "uid"), .has(let operand, "uid"):
            noteAuthUID(operand, locals: locals)
        case .index(let operand, let key):
            if case .literal(.string("uid")) = key.kind { noteAuthUID(operand, locals: locals) }
        case .comprehension(_, let range, let variable, let arguments):
            visit(range, locals: locals)
            for argument in arguments { visit(argument, locals: locals.union([variable])) }
            return
        default:
            break
        }
        for child in node.kind.children { visit(child, locals: locals) }
    }

    private mutating func noteAuthUID(_ operand: CELNode, locals: Set<String>) {
        if operand.isAuthBinding && locals.isDisjoint(with: ["auth", "request"]) { readsAuthUID = true }
    }
}

/// Prints a tree back as CEL with every operation parenthesized.
enum CELPrinter {
    static func print(_ node: CELNode) -> String {
        switch node.kind {
        case .literal(let value): return literal(value)
        case .identifier(let name): return name
        case .select(let operand, let field): return "\(print(operand)).\(field)"
        case .index(let operand, let key): return "\(print(operand))[\(print(key))]"
        case .list(let elements): return "[\(elements.map(print).joined(separator: ", "))]"
        case .map(let entries):
            return "{\(entries.map { "\(print($0.key)): \(print($0.value))" }.joined(separator: ", "))}"
        case .unary(let op, let operand): return "\(op.rawValue)\(print(operand))"
        case .binary(let op, let left, let right): return "(\(print(left)) \(op.rawValue) \(print(right)))"
        case .and(let left, let right): return "(\(print(left)) && \(print(right)))"
        case .or(let left, let right): return "(\(print(left)) || \(print(right)))"
        case .conditional(let condition, let a, let b): return "(\(print(condition)) ? \(print(a)) : \(print(b)))"
        case .call(let function, let arguments):
            if function.arities.global.isEmpty, let receiver = arguments.first {
                let rest = arguments.dropFirst().map(print).joined(separator: ", ")
                return "\(print(receiver)).\(function.rawValue)(\(rest))"
            }
            return "\(function.rawValue)(\(arguments.map(print).joined(separator: ", ")))"
        case .has(let operand, let field): return "has(\(print(operand)).\(field))"
        case .comprehension(let macro, let range, let variable, let arguments):
            let rest = ([variable] + arguments.map(print)).joined(separator: ", ")
            return "\(print(range)).\(macro.rawValue)(\(rest))"
        }
    }

    private static func literal(_ value: CELValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .int(let integer): return String(integer)
        case .uint(let unsigned): return "\(unsigned)u"
        case .double(let double):
            guard double.isFinite else { return double < 0 ? "-1e999" : "1e999" }
            let text = double.description
            return text.contains(where: { $0 == "." || $0 == "e" }) ? text : text + ".0"
        case .string(let text): return quote(text)
        default: return value.json.description
        }
    }

    private static func quote(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
