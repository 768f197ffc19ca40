/// A problem found in a parsed expression before it runs, at a 1-based line and column of its source.
public struct CELProblem: Error, Hashable, Sendable {
    /// What is wrong, starting lowercase.
    public var message: String
    /// The 1-based line in the expression's source.
    public var line: Int
    /// The 1-based column in the expression's source, counted in Unicode scalars.
    public var column: Int

    /// Creates a problem.
    public init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }
}

/// The type an expression gives whatever its bindings hold, as far as the tree alone tells.
public enum CELStaticType: String, Sendable, Hashable {
    case null, bool, int, uint, double, string, timestamp, duration, list, map
}

extension CELExpression {
    /// The free names the expression reads that are not among `allowed`, each where it is read.
    ///
    /// Found by walking the tree: comprehension variables are bound inside their macro, and names inside
    /// string literals do not count.
    ///
    /// ```swift
    /// let check = try CELExpression(parsing: "this.id == auth.uid && vars.x")
    /// check.unknownNames(allowed: ["auth", "vars", "request"])
    /// // [CELProblem(message: "unknown name \"this\" ...", line: 1, column: 1)]
    /// ```
    ///
    /// - Parameter allowed: The bindings that exist where the expression is evaluated.
    /// - Returns: One problem per use of an unknown name, in source order.
    public func unknownNames(allowed: Set<String>) -> [CELProblem] {
        var problems: [CELProblem] = []
        let bytes = Array(source.utf8)
        let names = allowed.sorted().joined(separator: ", ")
        func visit(_ node: CELNode, locals: Set<String>) {
            switch node.kind {
            case .identifier(let name):
                if !locals.contains(name) && !allowed.contains(name) {
                    let position = CELSourcePosition.syntaxError("", offset: node.offset, in: bytes)
                    if case .syntax(_, let line, let column) = position {
                        problems.append(
                            CELProblem(
                                message: "unknown name \"\(name)\": only \(names) can be read here", line: line,
                                column: column))
                    }
                }
            case .comprehension(_, let range, let variable, let arguments):
                visit(range, locals: locals)
                for argument in arguments { visit(argument, locals: locals.union([variable])) }
                return
            default:
                break
            }
            for child in node.kind.children { visit(child, locals: locals) }
        }
        visit(root, locals: [])
        return problems
    }

    /// The type the expression gives whatever the bindings hold; `nil` when it depends on them (a binding's
    /// member such as `auth.uid`, or a conditional whose branches differ).
    ///
    /// ```swift
    /// try CELExpression(parsing: "request.time").staticType  // .timestamp
    /// try CELExpression(parsing: "auth.uid").staticType      // nil
    /// try CELExpression(parsing: "size(vars.tags) > 1").staticType  // .bool
    /// ```
    public var staticType: CELStaticType? { Self.staticType(of: root) }

    private static func staticType(of node: CELNode) -> CELStaticType? {
        switch node.kind {
        case .literal(let value):
            switch value {
            case .null: return .null
            case .bool: return .bool
            case .int: return .int
            case .uint: return .uint
            case .double: return .double
            case .string: return .string
            case .list: return .list
            case .map: return .map
            case .timestamp: return .timestamp
            case .duration: return .duration
            }
        case .identifier, .index: return nil
        case .select(let operand, let field):
            if case .identifier("request") = operand.kind, field == "time" { return .timestamp }
            return nil
        case .list: return .list
        case .map: return .map
        case .unary(.not, _), .and, .or, .has: return .bool
        case .unary(.negate, let operand):
            let type = staticType(of: operand)
            return [.int, .double, .duration].contains(type) ? type : nil
        case .binary(let op, let left, let right):
            switch op {
            case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .in: return .bool
            case .add, .subtract, .multiply, .divide, .remainder:
                let types = (staticType(of: left), staticType(of: right))
                switch types {
                case (.int?, .int?), (.uint?, .uint?), (.string?, .string?), (.list?, .list?), (.duration?, .duration?):
                    return types.0
                case (.double?, .double?), (.double?, .int?), (.int?, .double?): return .double
                case (.timestamp?, .duration?): return .timestamp
                case (.timestamp?, .timestamp?) where op == .subtract: return .duration
                default: return nil
                }
            }
        case .conditional(_, let whenTrue, let whenFalse):
            let type = staticType(of: whenTrue)
            return type == staticType(of: whenFalse) ? type : nil
        case .call(let function, _):
            switch function {
            case .size, .int: return .int
            case .uint: return .uint
            case .double: return .double
            case .string, .uuidV4, .uuidV7, .lowerAscii, .upperAscii: return .string
            case .bool, .matches, .startsWith, .endsWith, .contains: return .bool
            case .timestamp: return .timestamp
            case .duration: return .duration
            case .dyn: return nil
            }
        case .comprehension(let macro, _, _, _):
            switch macro {
            case .all, .exists, .existsOne: return .bool
            case .map, .filter: return .list
            }
        }
    }
}
