import GraphQLLanguage

/// A variable used somewhere in an operation, with the type its position expects.
struct VariableUsage {
    /// The variable's name, without `$`.
    var name: String
    /// The type of the position the variable is used in.
    var expectedType: TypeReference
    /// Whether that position has a default value (a nullable variable may then fill a non-null position).
    var positionHasDefault: Bool
    /// Where the variable is used.
    var location: NodeLocation
}

/// Checks literal values against input types: the spec's "Values of Correct Type" rule, plus Data
/// Connect's scalar formats and `@fdc_oneOf` groups.
///
/// Used for field and directive arguments in operations, for directive arguments in the schema,
/// for variable defaults and for `@default(value:)`.
struct ValueChecker {
    let system: TypeSystem
    /// Whether `$variables` may appear (false in schema files and in default values).
    let allowVariables: Bool
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var usages: [VariableUsage] = []
    /// Variables written where only constants are allowed (reported as errors).
    private(set) var disallowedVariables: Set<String> = []

    init(system: TypeSystem, allowVariables: Bool) {
        self.system = system
        self.allowVariables = allowVariables
    }

    mutating func error(_ message: String, at location: NodeLocation) {
        diagnostics.append(Diagnostic(file: location.file, location: location.start, message: message))
    }

    /// Checks arguments against their definitions: unknown and duplicate names, required arguments,
    /// `@fdc_oneOf` groups, and each value's type.
    ///
    /// - Parameters:
    ///   - owner: how messages name the owner, e.g. `field "movies"` or `directive "@auth"`.
    mutating func checkArguments(
        _ arguments: [Argument], definitions: [InputValueDefinition], owner: String, at location: NodeLocation
    ) {
        var seen: Set<String> = []
        for argument in arguments {
            guard seen.insert(argument.name.value).inserted else {
                error("there can be only one argument named \"\(argument.name.value)\"", at: argument.location)
                continue
            }
            guard let definition = definitions.first(where: { $0.name.value == argument.name.value }) else {
                let suggestion = Suggestions.didYouMean(argument.name.value, among: definitions.map(\.name.value))
                error("unknown argument \"\(argument.name.value)\" on \(owner)\(suggestion)", at: argument.location)
                continue
            }
            check(argument.value, against: definition.type, positionHasDefault: definition.defaultValue != nil)
        }
        for definition in definitions where definition.type.isNonNull && definition.defaultValue == nil {
            if !arguments.contains(where: { $0.name.value == definition.name.value }) {
                error(
                    "\(owner) argument \"\(definition.name.value)\" of type \"\(definition.type)\" is required, but it was not provided",
                    at: location)
            }
        }
        checkOneOf(present: Set(arguments.map(\.name.value)), definitions: definitions, owner: owner, at: location)
    }

    /// Checks `@fdc_oneOf` groups: at most one member present, and one present when the group is required.
    mutating func checkOneOf(
        present: Set<String>, definitions: [InputValueDefinition], owner: String, at location: NodeLocation
    ) {
        var groups: [String: (members: [String], required: Bool)] = [:]
        var order: [String] = []
        for definition in definitions {
            guard let oneOf = definition.directives.first(named: "fdc_oneOf") else { continue }
            var group = ""
            if case .string(let s)? = oneOf.argument("group")?.value { group = s.value }
            var required = false
            if case .boolean(let b, _)? = oneOf.argument("required")?.value { required = b }
            if groups[group] == nil { order.append(group) }
            groups[group, default: ([], false)].members.append(definition.name.value)
            if required { groups[group]!.required = true }
        }
        for name in order {
            let group = groups[name]!
            let given = group.members.filter { present.contains($0) }
            let list = group.members.map { "\"\($0)\"" }.joined(separator: ", ")
            if given.count > 1 {
                error("\(owner) accepts only one of \(list), but \(given.count) were given", at: location)
            } else if given.isEmpty && group.required {
                error("\(owner) requires one of \(list)", at: location)
            }
        }
    }

    /// Checks one value against an input type.
    mutating func check(_ value: Value, against type: TypeReference, positionHasDefault: Bool = false) {
        if case .variable(let name) = value {
            if allowVariables {
                usages.append(
                    VariableUsage(
                        name: name.value, expectedType: type, positionHasDefault: positionHasDefault,
                        location: name.location))
            } else {
                disallowedVariables.insert(name.value)
                error("unexpected variable \"$\(name.value)\" in a constant value", at: name.location)
            }
            return
        }
        if case .null = value {
            if type.isNonNull { error("expected value of type \"\(type)\", found null", at: value.location) }
            return
        }
        let nullable = type.nullable
        if case .list(let elementType, _) = nullable {
            if case .list(let items, _) = value {
                for item in items { check(item, against: elementType) }
            } else {
                // Input coercion accepts a single item where a list is expected.
                check(value, against: elementType)
            }
            return
        }
        let typeName = nullable.namedType.value
        switch system.type(named: typeName) {
        case .scalar:
            if let problem = Self.scalarProblem(typeName, value) {
                error(
                    "expected value of type \"\(type)\", found \(GraphQLPrinter.print(value))\(problem)",
                    at: value.location)
            } else if typeName == "Any" || typeName == "Vector" || typeName == "SQL_Params" {
                // A native SQL parameter takes a variable of any type.
                checkNoVariablesInsideConstant(value, expected: typeName == "SQL_Params" ? typeName : "Any")
            }
        case .enum(let e):
            if case .enum(let name) = value {
                if !e.values.contains(where: { $0.name.value == name.value }) {
                    let suggestion = Suggestions.didYouMean(name.value, among: e.values.map(\.name.value))
                    error(
                        "value \"\(name.value)\" does not exist in \"\(typeName)\" enum\(suggestion)",
                        at: value.location)
                }
            } else {
                var hint = ""
                if case .string(let text) = value, e.values.contains(where: { $0.name.value == text.value }) {
                    hint = " (did you mean the enum value \(text.value)?)"
                }
                error(
                    "enum \"\(typeName)\" cannot represent non-enum value: \(GraphQLPrinter.print(value))\(hint)",
                    at: value.location)
            }
        case .inputObject(let input):
            guard case .object(let fields, let location) = value else {
                error("expected value of type \"\(type)\", found \(GraphQLPrinter.print(value))", at: value.location)
                return
            }
            var seen: Set<String> = []
            for field in fields {
                guard seen.insert(field.name.value).inserted else {
                    error("there can be only one input field named \"\(field.name.value)\"", at: field.location)
                    continue
                }
                guard let definition = input.fields.first(where: { $0.name.value == field.name.value }) else {
                    let suggestion = Suggestions.didYouMean(field.name.value, among: input.fields.map(\.name.value))
                    error(
                        "field \"\(field.name.value)\" is not defined by type \"\(typeName)\"\(suggestion)",
                        at: field.location)
                    continue
                }
                check(field.value, against: definition.type, positionHasDefault: definition.defaultValue != nil)
            }
            for definition in input.fields where definition.type.isNonNull && definition.defaultValue == nil {
                if !seen.contains(definition.name.value) {
                    error(
                        "field \"\(typeName).\(definition.name.value)\" of required type \"\(definition.type)\" was not provided",
                        at: location)
                }
            }
            checkOneOf(present: seen, definitions: input.fields, owner: "input \"\(typeName)\"", at: location)
        default:
            error("\"\(typeName)\" is not an input type", at: value.location)
        }
    }

    private mutating func checkNoVariablesInsideConstant(_ value: Value, expected: String = "Any") {
        switch value {
        case .list(let items, _): for item in items { checkNoVariablesInsideConstant(item, expected: expected) }
        case .object(let fields, _):
            for field in fields { checkNoVariablesInsideConstant(field.value, expected: expected) }
        case .variable(let name):
            // Variables nested in an `Any` literal are allowed and take any JSON value.
            if allowVariables {
                usages.append(
                    VariableUsage(
                        name: name.value,
                        expectedType: .named(Name(expected)), positionHasDefault: false, location: name.location))
            } else {
                disallowedVariables.insert(name.value)
                error("unexpected variable \"$\(name.value)\" in a constant value", at: name.location)
            }
        default: break
        }
    }

    /// Why a literal is not a valid value of a scalar, as a suffix for the error message; `nil` when valid.
    static func scalarProblem(_ scalar: String, _ value: Value) -> String? {
        switch scalar {
        case "Int":
            guard case .int(let text, _) = value else { return "" }
            guard let number = Int64(text), ScalarFormats.isInt32(number) else {
                return " (Int must fit in 32 bits; use Int64 for larger values)"
            }
            return nil
        case "Float":
            switch value {
            case .int(let text, _), .float(let text, _):
                return ScalarFormats.isRepresentableFloat(text) ? nil : " (out of the Float range)"
            default: return ""
            }
        case "String":
            if case .string = value { return nil }
            return ""
        case "ID":
            switch value {
            case .string, .int: return nil
            default: return ""
            }
        case "Boolean":
            if case .boolean = value { return nil }
            return ""
        case "UUID":
            guard case .string(let s) = value else { return "" }
            return ScalarFormats.canonicalUUID(s.value) == nil ? " (not a UUID)" : nil
        case "Int64":
            switch value {
            case .int(let text, _): return Int64(text) == nil ? " (out of the Int64 range)" : nil
            case .string(let s): return ScalarFormats.int64(s.value) == nil ? " (not an Int64)" : nil
            default: return ""
            }
        case "Date":
            guard case .string(let s) = value else { return "" }
            return ScalarFormats.canonicalDate(s.value) == nil
                ? " (a Date is written \"YYYY-MM-DD\", optionally with a Timestamp's time part, which is dropped)" : nil
        case "Timestamp":
            guard case .string(let s) = value else { return "" }
            return ScalarFormats.isValidTimestamp(s.value)
                ? nil : " (a Timestamp is RFC 3339, e.g. \"2024-05-01T12:00:00Z\")"
        case "Any":
            return nil
        case "Vector":
            guard case .list(let items, _) = value else { return "" }
            for item in items {
                switch item {
                case .int, .float: continue
                default: return " (a Vector is a list of numbers)"
                }
            }
            return nil
        case "True":
            if case .boolean(true, _) = value { return nil }
            return " (only true is allowed)"
        case "Void":
            return ""
        case "SQL_Params":
            // A list of literals, variables and `{_expr: "..."}` values (checked by the native SQL rule).
            return nil
        default:
            if scalar.hasSuffix("_Expr") || scalar.hasPrefix("SQL_") || scalar == "Any_SQL"
                || scalar == "Vector_Embed_Model"
            {
                if case .string = value { return nil }
                return " (write the expression as a string literal)"
            }
            if scalar.hasSuffix("_KeyOutput") { return " (an output-only type)" }
            return nil
        }
    }
}

/// "Did you mean" suggestions for misspelled names.
enum Suggestions {
    /// ` (did you mean "title"?)` when a close name exists, else an empty string.
    static func didYouMean(_ input: String, among options: [String]) -> String {
        let threshold = input.count * 4 / 10 + 1
        let close =
            options
            .map { ($0, distance(input.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= threshold }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .prefix(3)
            .map { "\"\($0.0)\"" }
        guard !close.isEmpty else { return "" }
        return " (did you mean \(close.joined(separator: " or "))?)"
    }

    /// The optimal-string-alignment distance (Levenshtein plus adjacent transpositions).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        var beforePrevious = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
