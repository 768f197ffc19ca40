/// CEL's arithmetic, relational and membership operators.
///
/// JSON erases the difference between `1` and `1.0`, so arithmetic is lenient where CEL is strict: an `int` and a
/// `double` combine as doubles, and an `int` and a `uint` combine as ints when the `uint` fits. Integer overflow,
/// division by zero (of ints and doubles alike) and modulus by zero are errors.
enum CELOperators {
    static func apply(_ op: CELBinaryOperator, _ left: CELValue, _ right: CELValue) throws(CELError) -> CELValue {
        switch op {
        case .add: return try add(left, right)
        case .subtract: return try subtract(left, right)
        case .multiply, .divide, .remainder: return try multiplicative(op, left, right)
        case .equal: return .bool(left.celEquals(right))
        case .notEqual: return .bool(!left.celEquals(right))
        case .less: return .bool(try left.celCompare(right, operator: op.rawValue).map { $0 < 0 } ?? false)
        case .lessEqual: return .bool(try left.celCompare(right, operator: op.rawValue).map { $0 <= 0 } ?? false)
        case .greater: return .bool(try left.celCompare(right, operator: op.rawValue).map { $0 > 0 } ?? false)
        case .greaterEqual: return .bool(try left.celCompare(right, operator: op.rawValue).map { $0 >= 0 } ?? false)
        case .in: return try contains(left, in: right)
        }
    }

    static func negate(_ value: CELValue) throws(CELError) -> CELValue {
        switch value {
        case .int(let integer):
            guard integer != .min else { throw overflow("-") }
            return .int(-integer)
        case .double(let double):
            return .double(-double)
        case .duration(let duration):
            guard duration.nanoseconds != .min else { throw overflow("-") }
            return .duration(CELDuration(nanoseconds: -duration.nanoseconds))
        default:
            throw .evaluation(message: "no such overload: -\(value.typeName)")
        }
    }

    // MARK: Arithmetic

    /// Operands brought to one numeric type.
    private enum NumericPair {
        case ints(Int64, Int64)
        case uints(UInt64, UInt64)
        case doubles(Double, Double)
    }

    private static func numericPair(_ left: CELValue, _ right: CELValue) -> NumericPair? {
        switch (left, right) {
        case (.int(let a), .int(let b)): return .ints(a, b)
        case (.uint(let a), .uint(let b)): return .uints(a, b)
        case (.int(let a), .uint(let b)): return Int64(exactly: b).map { .ints(a, $0) }
        case (.uint(let a), .int(let b)): return Int64(exactly: a).map { .ints($0, b) }
        case (.double(let a), .double(let b)): return .doubles(a, b)
        case (.double(let a), .int(let b)): return .doubles(a, Double(b))
        case (.double(let a), .uint(let b)): return .doubles(a, Double(b))
        case (.int(let a), .double(let b)): return .doubles(Double(a), b)
        case (.uint(let a), .double(let b)): return .doubles(Double(a), b)
        default: return nil
        }
    }

    private static func add(_ left: CELValue, _ right: CELValue) throws(CELError) -> CELValue {
        switch (left, right) {
        case (.string(let a), .string(let b)):
            return .string(a + b)
        case (.list(let a), .list(let b)):
            return .list(CELList(a.elements + b.elements))
        case (.timestamp(let a), .duration(let b)), (.duration(let b), .timestamp(let a)):
            guard let sum = a.adding(b) else { throw timestampRange }
            return .timestamp(sum)
        case (.duration(let a), .duration(let b)):
            let sum = a.nanoseconds.addingReportingOverflow(b.nanoseconds)
            guard !sum.overflow else { throw overflow("+") }
            return .duration(CELDuration(nanoseconds: sum.partialValue))
        default:
            break
        }
        switch numericPair(left, right) {
        case .ints(let a, let b)?:
            let sum = a.addingReportingOverflow(b)
            guard !sum.overflow else { throw overflow("+") }
            return .int(sum.partialValue)
        case .uints(let a, let b)?:
            let sum = a.addingReportingOverflow(b)
            guard !sum.overflow else { throw overflow("+") }
            return .uint(sum.partialValue)
        case .doubles(let a, let b)?:
            return .double(a + b)
        case nil:
            throw noOverload(left, "+", right)
        }
    }

    private static func subtract(_ left: CELValue, _ right: CELValue) throws(CELError) -> CELValue {
        switch (left, right) {
        case (.timestamp(let a), .timestamp(let b)):
            guard let difference = a.difference(from: b) else { throw overflow("-") }
            return .duration(difference)
        case (.timestamp(let a), .duration(let b)):
            guard b.nanoseconds != .min, let result = a.adding(CELDuration(nanoseconds: -b.nanoseconds)) else {
                throw timestampRange
            }
            return .timestamp(result)
        case (.duration(let a), .duration(let b)):
            let difference = a.nanoseconds.subtractingReportingOverflow(b.nanoseconds)
            guard !difference.overflow else { throw overflow("-") }
            return .duration(CELDuration(nanoseconds: difference.partialValue))
        default:
            break
        }
        switch numericPair(left, right) {
        case .ints(let a, let b)?:
            let difference = a.subtractingReportingOverflow(b)
            guard !difference.overflow else { throw overflow("-") }
            return .int(difference.partialValue)
        case .uints(let a, let b)?:
            let difference = a.subtractingReportingOverflow(b)
            guard !difference.overflow else { throw overflow("-") }
            return .uint(difference.partialValue)
        case .doubles(let a, let b)?:
            return .double(a - b)
        case nil:
            throw noOverload(left, "-", right)
        }
    }

    private static func multiplicative(
        _ op: CELBinaryOperator, _ left: CELValue, _ right: CELValue
    ) throws(CELError) -> CELValue {
        guard let pair = numericPair(left, right) else { throw noOverload(left, op.rawValue, right) }
        switch (op, pair) {
        case (.multiply, .ints(let a, let b)):
            let product = a.multipliedReportingOverflow(by: b)
            guard !product.overflow else { throw overflow("*") }
            return .int(product.partialValue)
        case (.multiply, .uints(let a, let b)):
            let product = a.multipliedReportingOverflow(by: b)
            guard !product.overflow else { throw overflow("*") }
            return .uint(product.partialValue)
        case (.multiply, .doubles(let a, let b)):
            return .double(a * b)
        case (.divide, .ints(let a, let b)):
            guard b != 0 else { throw divisionByZero }
            let quotient = a.dividedReportingOverflow(by: b)
            guard !quotient.overflow else { throw overflow("/") }
            return .int(quotient.partialValue)
        case (.divide, .uints(let a, let b)):
            guard b != 0 else { throw divisionByZero }
            return .uint(a / b)
        case (.divide, .doubles(let a, let b)):
            guard b != 0 else { throw divisionByZero }
            return .double(a / b)
        case (.remainder, .ints(let a, let b)):
            guard b != 0 else { throw modulusByZero }
            let remainder = a.remainderReportingOverflow(dividingBy: b)
            guard !remainder.overflow else { throw overflow("%") }
            return .int(remainder.partialValue)
        case (.remainder, .uints(let a, let b)):
            guard b != 0 else { throw modulusByZero }
            return .uint(a % b)
        default:
            throw noOverload(left, op.rawValue, right)
        }
    }

    // MARK: Membership

    private static func contains(_ element: CELValue, in container: CELValue) throws(CELError) -> CELValue {
        switch container {
        case .list(let list):
            for position in 0..<list.count where element.celEquals(list[position]) { return .bool(true) }
            return .bool(false)
        case .map(let map):
            guard case .string(let key) = element else { return .bool(false) }
            return .bool(map[key] != nil)
        default:
            throw noOverload(element, "in", container)
        }
    }

    // MARK: Errors

    private static let divisionByZero = CELError.evaluation(message: "division by zero")
    private static let modulusByZero = CELError.evaluation(message: "modulus by zero")
    private static let timestampRange = CELError.evaluation(message: "timestamp out of range")

    private static func overflow(_ op: String) -> CELError {
        .evaluation(message: "integer overflow in \(op)")
    }

    private static func noOverload(_ left: CELValue, _ op: String, _ right: CELValue) -> CELError {
        .evaluation(message: "no such overload: \(left.typeName) \(op) \(right.typeName)")
    }
}
