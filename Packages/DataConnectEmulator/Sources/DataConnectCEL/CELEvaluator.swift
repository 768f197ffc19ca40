import DataConnectWire

/// Walks a parsed expression against bindings and computes its value.
///
/// Evaluation is strict except where CEL says otherwise: `&&`, `||`, `all` and `exists` absorb an error when the
/// other side decides the result (`false && error` is `false`), and `? :` evaluates only the chosen branch.
/// Every step spends one unit of ``CELExpression/evaluationBudget``, so no expression runs away.
struct CELEvaluator {
    private let bindings: CELBindings
    private var locals: [(name: String, value: CELValue)] = []
    private var budget: Int

    init(bindings: CELBindings, budget: Int = CELExpression.evaluationBudget) {
        self.bindings = bindings
        self.budget = budget
    }

    mutating func evaluate(_ node: CELNode) throws(CELError) -> CELValue {
        budget -= 1
        guard budget >= 0 else { throw .evaluation(message: "the expression exceeded its evaluation cost limit") }
        switch node.kind {
        case .literal(let value):
            return value
        case .identifier(let name):
            return try resolve(name)
        case .select(let operand, let field):
            let base = try evaluate(operand)
            return try select(field, from: base, operand: operand)
        case .index(let operand, let key):
            let base = try evaluate(operand)
            let keyValue = try evaluate(key)
            return try index(base, keyValue, operand: operand)
        case .list(let elements):
            var values: [CELValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try evaluate(element)) }
            return .list(CELList(values))
        case .map(let entries):
            return try map(entries)
        case .unary(.not, let operand):
            let value = try evaluate(operand)
            guard case .bool(let bool) = value else {
                throw .evaluation(message: "no such overload: !\(value.typeName)")
            }
            return .bool(!bool)
        case .unary(.negate, let operand):
            return try CELOperators.negate(try evaluate(operand))
        case .binary(let op, let left, let right):
            let leftValue = try evaluate(left)
            let rightValue = try evaluate(right)
            return try CELOperators.apply(op, leftValue, rightValue)
        case .and(let left, let right):
            return try logical(left, right, decisive: false, spelling: "&&")
        case .or(let left, let right):
            return try logical(left, right, decisive: true, spelling: "||")
        case .conditional(let condition, let whenTrue, let whenFalse):
            let value = try evaluate(condition)
            guard case .bool(let bool) = value else {
                throw .evaluation(message: "the condition of ? : must be a bool, got \(value.typeName)")
            }
            return try evaluate(bool ? whenTrue : whenFalse)
        case .call(let function, let arguments):
            var values: [CELValue] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try evaluate(argument)) }
            return try CELFunctions.call(function, values)
        case .has(let operand, let field):
            let base = try evaluate(operand)
            switch base {
            case .map(let map): return .bool(map[field] != nil)
            case .null: return .bool(false)
            default: throw .evaluation(message: "has() needs a map, got \(base.typeName)")
            }
        case .comprehension(let macro, let range, let variable, let arguments):
            return try comprehension(macro, range: range, variable: variable, arguments)
        }
    }

    // MARK: Names and members

    private func resolve(_ name: String) throws(CELError) -> CELValue {
        if let local = locals.last(where: { $0.name == name }) { return local.value }
        switch name {
        case "auth":
            return CELValue(bindings.auth)
        case "vars":
            return .map(CELMap(json: bindings.vars))
        case "request":
            let time: CELValue =
                CELTimestamp(rfc3339: bindings.requestTime).map(CELValue.timestamp) ?? .string(bindings.requestTime)
            return .map(
                CELMap([
                    ("auth", CELValue(bindings.auth)), ("variables", .map(CELMap(json: bindings.vars))), ("time", time),
                ]))
        case "response":
            return .map(CELMap(json: bindings.response))
        case "this":
            guard let this = bindings.this else {
                throw .evaluation(message: "\"this\" is only available in @check expressions")
            }
            return CELValue(this)
        case "mutation":
            guard let mutation = bindings.mutation else {
                throw .evaluation(message: "\"mutation\" is only available in @refresh conditions")
            }
            return CELValue(mutation)
        default:
            throw .evaluation(message: "undeclared reference to \"\(name)\"")
        }
    }

    private func select(_ field: String, from base: CELValue, operand: CELNode) throws(CELError) -> CELValue {
        switch base {
        case .map(let map):
            guard let value = map[field] else { throw .evaluation(message: "no such key: \(field)") }
            return value
        case .null:
            if isUnboundAuth(operand) { throw .unauthenticated }
            throw .evaluation(message: "cannot select field \"\(field)\" from null")
        default:
            throw .evaluation(message: "cannot select field \"\(field)\" from \(base.typeName)")
        }
    }

    private func index(_ base: CELValue, _ key: CELValue, operand: CELNode) throws(CELError) -> CELValue {
        switch (base, key) {
        case (.list(let list), _):
            let position: Int?
            switch key {
            case .int(let value): position = Int(exactly: value)
            case .uint(let value): position = Int(exactly: value)
            case .double(let value): position = Int(exactly: value)
            default: throw .evaluation(message: "no such overload: list[\(key.typeName)]")
            }
            guard let position, position >= 0, position < list.count else {
                throw .evaluation(message: "index out of range: \(key.json) (size \(list.count))")
            }
            return list[position]
        case (.map(let map), .string(let name)):
            guard let value = map[name] else { throw .evaluation(message: "no such key: \(name)") }
            return value
        case (.map, _):
            throw .evaluation(message: "no such key: \(key.json) (map keys are strings)")
        case (.null, _) where isUnboundAuth(operand):
            throw .unauthenticated
        default:
            throw .evaluation(message: "no such overload: \(base.typeName)[\(key.typeName)]")
        }
    }

    /// Whether `operand` is the `auth` binding (`auth` or `request.auth`), not a comprehension variable.
    private func isUnboundAuth(_ operand: CELNode) -> Bool {
        guard operand.isAuthBinding else { return false }
        return !locals.contains { $0.name == "auth" || $0.name == "request" }
    }

    private mutating func map(_ entries: [(key: CELNode, value: CELNode)]) throws(CELError) -> CELValue {
        var built: [(key: String, value: CELValue)] = []
        built.reserveCapacity(entries.count)
        for entry in entries {
            let key = try evaluate(entry.key)
            guard case .string(let name) = key else {
                throw .evaluation(message: "map keys must be strings, got \(key.typeName)")
            }
            guard !built.contains(where: { $0.key == name }) else {
                throw .evaluation(message: "duplicate map key: \(name)")
            }
            built.append((name, try evaluate(entry.value)))
        }
        return .map(CELMap(built))
    }

    // MARK: Logic

    private mutating func attempt(_ node: CELNode) -> Result<CELValue, CELError> {
        do {
            return .success(try evaluate(node))
        } catch {
            return .failure(error)
        }
    }

    /// `&&` (decisive `false`) and `||` (decisive `true`): commutative, so an error on one side is absorbed when
    /// the other side is decisive.
    private mutating func logical(
        _ left: CELNode, _ right: CELNode, decisive: Bool, spelling: String
    ) throws(CELError) -> CELValue {
        let leftResult = attempt(left)
        if case .success(.bool(decisive)) = leftResult { return .bool(decisive) }
        let rightResult = attempt(right)
        if case .success(.bool(decisive)) = rightResult { return .bool(decisive) }
        for result in [leftResult, rightResult] {
            switch result {
            case .failure(let error): throw error
            case .success(.bool): continue
            case .success(let value):
                throw .evaluation(message: "no such overload: \(value.typeName) \(spelling) (operands must be bools)")
            }
        }
        return .bool(!decisive)
    }

    // MARK: Comprehensions

    private mutating func comprehension(
        _ macro: CELMacro, range: CELNode, variable: String, _ arguments: [CELNode]
    ) throws(CELError) -> CELValue {
        let rangeValue = try evaluate(range)
        let items: [CELValue]
        switch rangeValue {
        case .list(let list): items = list.elements
        case .map(let map): items = map.keys.map(CELValue.string)
        default: throw .evaluation(message: "\(macro.rawValue)() needs a list or a map, got \(rangeValue.typeName)")
        }
        switch macro {
        case .all, .exists:
            let decisive = macro == .exists
            var firstError: CELError?
            for item in items {
                switch bind(variable, to: item, arguments[0]) {
                case .success(.bool(decisive)): return .bool(decisive)
                case .success(.bool): continue
                case .success(let value):
                    firstError =
                        firstError
                        ?? .evaluation(message: "\(macro.rawValue)() predicate must be a bool, got \(value.typeName)")
                case .failure(let error):
                    firstError = firstError ?? error
                }
            }
            if let firstError { throw firstError }
            return .bool(!decisive)
        case .existsOne:
            var matches = 0
            for item in items {
                if try predicate(macro, variable, item, arguments[0]) { matches += 1 }
            }
            return .bool(matches == 1)
        case .filter:
            var kept: [CELValue] = []
            for item in items {
                if try predicate(macro, variable, item, arguments[0]) { kept.append(item) }
            }
            return .list(CELList(kept))
        case .map:
            var mapped: [CELValue] = []
            for item in items {
                if arguments.count == 2, !(try predicate(macro, variable, item, arguments[0])) { continue }
                mapped.append(try bind(variable, to: item, arguments[arguments.count - 1]).get())
            }
            return .list(CELList(mapped))
        }
    }

    private mutating func bind(_ variable: String, to value: CELValue, _ body: CELNode) -> Result<CELValue, CELError> {
        locals.append((variable, value))
        defer { locals.removeLast() }
        return attempt(body)
    }

    private mutating func predicate(
        _ macro: CELMacro, _ variable: String, _ item: CELValue, _ body: CELNode
    ) throws(CELError) -> Bool {
        let value = try bind(variable, to: item, body).get()
        guard case .bool(let bool) = value else {
            throw .evaluation(message: "\(macro.rawValue)() predicate must be a bool, got \(value.typeName)")
        }
        return bool
    }
}
