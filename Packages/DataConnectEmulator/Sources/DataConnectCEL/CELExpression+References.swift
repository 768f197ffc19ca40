extension CELExpression {
    /// Whether the expression reads a binding, in any form.
    ///
    /// The answer comes from the parsed tree, not the text: a name inside a string literal or a longer identifier
    /// does not count, and a comprehension variable shadows a binding of the same name inside its macro. Every
    /// other use counts: the name alone, a member (`response.x`), an index (`response['x']`), `has(response.x)`,
    /// or an argument (`size(response)`).
    ///
    /// `auth` and `vars` can also be reached through `request` (see ``CELBindings``): `request.auth` and
    /// `request['auth']` read `auth`, `request.variables` reads `vars`, and `request` used whole or with a computed
    /// key reads both.
    ///
    /// ```swift
    /// let check = try CELExpression(parsing: "has(response.movie_insert) && response.movie_insert.id != ''")
    /// check.references("response")  // true
    /// check.references("vars")      // false
    /// try CELExpression(parsing: "[1].exists(response, response > 0)").references("response")  // false
    /// try CELExpression(parsing: "request.auth.uid != null").references("auth")                // true
    /// ```
    ///
    /// - Parameter binding: A top-level name such as `auth`, `vars`, `request`, `response`, `this` or `mutation`.
    /// - Returns: Whether evaluating the expression may read that binding.
    public func references(_ binding: String) -> Bool {
        CELReferenceFinder(binding: binding).isFound(in: root, locals: [])
    }
}

/// Walks a tree looking for reads of one binding, directly or through `request`.
struct CELReferenceFinder {
    /// The binding looked for.
    let binding: String

    /// The member of `request` that holds the binding, if any.
    private var requestMember: String? {
        switch binding {
        case "auth": return "auth"
        case "vars": return "variables"
        default: return nil
        }
    }

    /// Whether `node` reads the binding, with `locals` the comprehension variables in scope.
    func isFound(in node: CELNode, locals: Set<String>) -> Bool {
        switch node.kind {
        case .identifier(let name):
            guard !locals.contains(name) else { return false }
            return name == binding || (name == "request" && requestMember != nil)
        case .select(let operand, let field), .has(let operand, let field):
            if let member = requestMember, isRequest(operand, locals: locals) { return field == member }
        case .index(let operand, let key):
            if let member = requestMember, isRequest(operand, locals: locals) {
                if case .literal(.string(let field)) = key.kind { return field == member }
                return true
            }
        case .comprehension(_, let range, let variable, let arguments):
            let inner = locals.union([variable])
            return isFound(in: range, locals: locals) || arguments.contains { isFound(in: $0, locals: inner) }
        default:
            break
        }
        return node.kind.children.contains { isFound(in: $0, locals: locals) }
    }

    /// Whether `node` is the `request` binding itself (not a comprehension variable of that name).
    private func isRequest(_ node: CELNode, locals: Set<String>) -> Bool {
        guard case .identifier("request") = node.kind else { return false }
        return !locals.contains("request")
    }
}
