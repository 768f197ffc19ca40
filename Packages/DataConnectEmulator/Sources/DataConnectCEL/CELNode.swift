/// A node of a parsed CEL expression, with its source offset and the height of the tree below it.
struct CELNode: Sendable {
    /// What the node computes.
    indirect enum Kind: Sendable {
        /// A constant.
        case literal(CELValue)
        /// A name: a binding (`auth`, `vars`, ...) or a comprehension variable.
        case identifier(String)
        /// `operand.field`.
        case select(CELNode, field: String)
        /// `operand[index]`.
        case index(CELNode, CELNode)
        /// `[a, b]`.
        case list([CELNode])
        /// `{"k": v}`.
        case map([(key: CELNode, value: CELNode)])
        /// `!x` or `-x`.
        case unary(CELUnaryOperator, CELNode)
        /// An arithmetic or relational operator, `in` included.
        case binary(CELBinaryOperator, CELNode, CELNode)
        /// `a && b`, absorbing errors as CEL does.
        case and(CELNode, CELNode)
        /// `a || b`, absorbing errors as CEL does.
        case or(CELNode, CELNode)
        /// `condition ? a : b`.
        case conditional(CELNode, CELNode, CELNode)
        /// A function; a receiver call (`x.size()`) has the receiver as its first argument.
        case call(CELFunction, [CELNode])
        /// `has(operand.field)`.
        case has(CELNode, field: String)
        /// `range.exists(variable, ...)` and the other comprehension macros.
        case comprehension(CELMacro, range: CELNode, variable: String, [CELNode])
    }

    /// What the node computes.
    var kind: Kind
    /// The byte offset in the source where the node starts.
    var offset: Int
    /// 1 for a leaf, otherwise one more than the deepest child.
    var depth: Int

    init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
        depth = 1 + (kind.children.map(\.depth).max() ?? 0)
    }

    /// Whether the node is the `auth` binding itself: `auth` or `request.auth`.
    var isAuthBinding: Bool {
        switch kind {
        case .identifier("auth"):
            return true
        case .select(let operand, field: "auth"):
            if case .identifier("request") = operand.kind { return true }
            return false
        default:
            return false
        }
    }
}

extension CELNode.Kind {
    /// The direct subexpressions.
    var children: [CELNode] {
        switch self {
        case .literal, .identifier: return []
        case .select(let operand, _), .has(let operand, _), .unary(_, let operand): return [operand]
        case .index(let a, let b), .binary(_, let a, let b), .and(let a, let b), .or(let a, let b): return [a, b]
        case .list(let elements), .call(_, let elements): return elements
        case .map(let entries): return entries.flatMap { [$0.key, $0.value] }
        case .conditional(let a, let b, let c): return [a, b, c]
        case .comprehension(_, let range, _, let arguments): return [range] + arguments
        }
    }
}

/// `!` and unary `-`.
enum CELUnaryOperator: String, Sendable {
    case not = "!"
    case negate = "-"
}

/// The binary operators other than `&&` and `||`.
enum CELBinaryOperator: String, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessEqual = "<="
    case greater = ">"
    case greaterEqual = ">="
    case `in` = "in"
}

/// The comprehension macros: a variable ranges over a list's elements or a map's keys.
enum CELMacro: String, Sendable {
    /// `range.all(x, predicate)`.
    case all
    /// `range.exists(x, predicate)`.
    case exists
    /// `range.exists_one(x, predicate)`.
    case existsOne = "exists_one"
    /// `range.map(x, transform)` or `range.map(x, filter, transform)`.
    case map
    /// `range.filter(x, predicate)`.
    case filter
}

/// The functions the evaluator knows, resolved at parse time.
enum CELFunction: String, CaseIterable, Sendable {
    case size, int, uint, double, string, bool, dyn, timestamp, duration
    case uuidV4, uuidV7
    case matches, startsWith, endsWith, contains
    case lowerAscii, upperAscii

    /// How the function may be called: the argument counts of `f(...)` and of `x.f(...)` (receiver excluded).
    var arities: (global: Set<Int>, receiver: Set<Int>) {
        switch self {
        case .size: return ([1], [0])
        case .int, .uint, .double, .string, .bool, .dyn, .timestamp, .duration: return ([1], [])
        case .uuidV4, .uuidV7: return ([0], [])
        case .matches: return ([2], [1])
        case .startsWith, .endsWith, .contains: return ([], [1])
        case .lowerAscii, .upperAscii: return ([], [0])
        }
    }
}
