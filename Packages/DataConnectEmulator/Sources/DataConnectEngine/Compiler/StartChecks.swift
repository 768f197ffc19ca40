import DataConnectCEL
import DataConnectSchema
import GraphQLLanguage

/// The checks the emulator runs on a compiled service before it serves it, shared with `dataconnect validate`
/// so that both refuse the same backends with the same `file:line:col: error:` lines.
///
/// ``ServiceCompiler`` checks the schema and the operations' GraphQL; these checks add what needs the engine:
/// 1. **CEL**: every `@auth(expr:)`, `@check(expr:)`, `@refresh` condition and `*_expr` value parses, reads only
///    the bindings that exist where it is evaluated (`auth`, `vars`, `request`; `response` in mutations; `this` in
///    `@check`; `mutation` in `@refresh`),
///    gives a bool where a condition is expected, and gives a value that can fit the field of a `*_expr`.
///    Unknown functions and wrong argument counts are syntax errors of the parser.
/// 2. **Compilation**: each valid operation compiles to SQL as the engine compiles it at start.
///
/// ```swift
/// let (service, diagnostics) = ServiceCompiler.compile(backendDirectory: "Backend/movies")
/// let all = diagnostics + (service.map { StartChecks.diagnostics(for: $0, dialect: SQLiteDialect()) } ?? [])
/// ```
public enum StartChecks {
    /// The problems the emulator refuses to start on, beyond the diagnostics of ``ServiceCompiler``.
    ///
    /// - Parameters:
    ///   - service: The compiled service.
    ///   - dialect: The SQL dialect the operations compile to (the emulator and `dataconnect validate` check with
    ///     SQLite's, the embedded database's).
    ///   - limits: The bounds on each operation's merged selection, as the engine is given.
    /// - Returns: Errors, and warnings about operations only the emulator cannot run, in display
    ///   order; no errors when the service can be served as it is.
    public static func diagnostics(
        for service: CompiledService, dialect: any SQLDialect, limits: OperationLimits = .default
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let context = PlanContext(
            api: service.api, dialect: dialect, maximumFilterTerms: ExecutionLimits.default.maximumFilterTerms,
            kinds: InputTypeKinds(service.api.typeSystem))
        for connector in service.connectors {
            diagnostics += check(
                connector.validated, files: connector.sources.files, api: service.api, limits: limits,
                entityIDs: connector.sources.manifest.emitsEntityIds, context: context)
        }
        return diagnostics.sortedForDisplay()
    }

    /// Validates an admin GraphQL file such as `seed_data.gql` as the emulator runs it: parsed and validated
    /// against the generated API (admin mode), its CEL checked and its operations compiled.
    ///
    /// - Parameters:
    ///   - source: The file, named as it should be printed (the path as given).
    ///   - service: The compiled service the file runs against.
    ///   - dialect: The SQL dialect the operations compile to.
    ///   - limits: The bounds on each operation's merged selection.
    /// - Returns: Errors and warnings in display order.
    public static func diagnostics(
        forAdminDocument source: Source, service: CompiledService, dialect: any SQLDialect,
        limits: OperationLimits = .default
    ) -> [Diagnostic] {
        let validated = OperationValidator.validate([source], api: service.api, mode: .admin, limits: limits)
        let context = PlanContext(
            api: service.api, dialect: dialect, maximumFilterTerms: ExecutionLimits.default.maximumFilterTerms,
            kinds: InputTypeKinds(service.api.typeSystem))
        let more = check(
            validated, files: [source], api: service.api, limits: limits, entityIDs: false, context: context)
        return (validated.diagnostics + more).sortedForDisplay()
    }

    /// The CEL and compilation problems of one validated document.
    static func check(
        _ validated: ValidatedConnector, files: [Source], api: GeneratedAPI, limits: OperationLimits,
        entityIDs: Bool, context: PlanContext
    ) -> [Diagnostic] {
        var walker = CELWalker(api: api, files: files)
        for fragment in validated.fragments.values.sorted(by: { $0.name.value < $1.name.value }) {
            walker.isMutation = true
            walker.directives(fragment.directives)
            walker.selections(fragment.selectionSet, on: fragment.typeCondition.value)
        }
        var diagnostics = walker.diagnostics
        for operation in validated.operations {
            var walker = CELWalker(api: api, files: files)
            walker.operation(operation)
            diagnostics += walker.diagnostics
            let name = operation.name?.value ?? ""
            guard walker.diagnostics.isEmpty, !validated.invalidOperations.contains(name) else { continue }
            do {
                let compiled = try CompiledOperation.compile(
                    operation, name: name, api: api, fragments: validated.fragments, kinds: context.kinds,
                    limits: limits)
                try compiled.precompile(entityIDs: entityIDs, context: context)
            } catch {
                let location = error.location ?? operation.name?.location ?? operation.location
                if error.isEmulatorLimitation {
                    diagnostics.append(
                        Diagnostic(
                            file: location.file, location: location.start, severity: .warning,
                            message: "\(error.message) (the emulator answers \"\(name)\" with FAILED_PRECONDITION)"))
                } else {
                    diagnostics.append(
                        Diagnostic(file: location.file, location: location.start, message: error.message))
                }
            }
        }
        var seen: Set<Diagnostic> = []
        return diagnostics.filter { seen.insert($0).inserted }
    }
}

/// Walks an operation's tree for CEL strings and checks each where it stands.
struct CELWalker {
    let api: GeneratedAPI
    /// The document's files, to place a problem on the offending character inside a string literal.
    let files: [Source]
    var diagnostics: [Diagnostic] = []
    /// Whether the expressions run in a mutation, where `response` holds the earlier root fields.
    var isMutation = false

    init(api: GeneratedAPI, files: [Source]) {
        self.api = api
        self.files = files
    }

    var system: TypeSystem { api.typeSystem }

    /// The bindings of `@auth(expr:)`: the caller, the variables and the request.
    static let authBindings: Set<String> = ["auth", "vars", "request"]

    /// The bindings of `@refresh(onMutationExecuted:)` conditions: the subscription's, and the executed `mutation`.
    static let refreshBindings: Set<String> = ["auth", "vars", "request", "mutation"]

    /// The bindings of `*_expr` values.
    var valueBindings: Set<String> { isMutation ? ["auth", "vars", "request", "response"] : Self.authBindings }

    /// The bindings of `@check(expr:)`: those of values, and `this`.
    var checkBindings: Set<String> { valueBindings.union(["this"]) }

    mutating func operation(_ operation: OperationDefinition) {
        isMutation = operation.operation == .mutation
        if let auth = operation.directives.first(named: "auth"),
            case .string(let source)? = auth.argument("expr")?.value
        {
            expression(source, allowed: Self.authBindings, what: "@auth(expr:)", expecting: .condition)
        }
        directives(operation.directives)
        for refresh in operation.directives.all(named: "refresh") {
            let events: [Value] =
                switch refresh.argument("onMutationExecuted")?.value {
                case .list(let items, _)?: items
                case let event?: [event]
                case nil: []
                }
            for case .object(let fields, _) in events {
                for field in fields where field.name.value == "condition" {
                    guard case .string(let source) = field.value else { continue }
                    expression(
                        source, allowed: Self.refreshBindings, what: "@refresh condition", expecting: .condition)
                }
            }
        }
        let root = isMutation ? system.mutationType : system.queryType
        selections(operation.selectionSet, on: root)
    }

    /// `@check(expr:)` among directives.
    mutating func directives(_ directives: [Directive]) {
        for directive in directives where directive.name.value == "check" {
            if case .string(let source)? = directive.argument("expr")?.value {
                expression(source, allowed: checkBindings, what: "@check(expr:)", expecting: .condition)
            }
        }
    }

    mutating func selections(_ set: SelectionSet, on type: String) {
        for selection in set.selections {
            switch selection {
            case .field(let field):
                directives(field.directives)
                guard let definition = system.field(field.name.value, on: type) else { continue }
                arguments(field.arguments, definitions: definition.arguments)
                if let inner = field.selectionSet { selections(inner, on: definition.type.namedType.value) }
            case .fragmentSpread(let spread):
                directives(spread.directives)
            case .inlineFragment(let inline):
                directives(inline.directives)
                selections(inline.selectionSet, on: inline.typeCondition?.value ?? type)
            }
        }
    }

    /// Arguments or input-object fields: a `*_expr` string beside the field it computes, or values to look into.
    mutating func arguments(_ arguments: [(name: Name, value: Value)], definitions: [InputValueDefinition]) {
        for (name, value) in arguments {
            guard let definition = definitions.first(where: { $0.name.value == name.value }) else { continue }
            if name.value.hasSuffix("_expr"), case .string(let source) = value {
                let target = definitions.first { $0.name.value == String(name.value.dropLast(5)) }
                expression(
                    source, allowed: valueBindings, what: "\"\(name.value)\"",
                    expecting: target.map { .value($0.type, field: $0.name.value) } ?? .anything)
                continue
            }
            self.value(value, type: definition.type)
        }
    }

    mutating func arguments(_ arguments: [Argument], definitions: [InputValueDefinition]) {
        self.arguments(arguments.map { ($0.name, $0.value) }, definitions: definitions)
    }

    mutating func value(_ value: Value, type: TypeReference) {
        switch value {
        case .list(let items, _):
            let element: TypeReference = if case .list(let inner, _) = type.nullable { inner } else { type }
            for item in items { self.value(item, type: element) }
        case .object(let fields, _):
            guard case .inputObject(let input)? = system.type(named: type.namedType.value) else { return }
            arguments(fields.map { ($0.name, $0.value) }, definitions: input.fields)
        default:
            break
        }
    }

    /// What an expression must give.
    enum Expectation {
        /// A bool.
        case condition
        /// A value that fits the field of this type.
        case value(TypeReference, field: String)
        /// Anything.
        case anything
    }

    mutating func expression(_ literal: StringValue, allowed: Set<String>, what: String, expecting: Expectation) {
        let parsed: CELExpression
        do {
            parsed = try CELExpression(parsing: literal.value)
        } catch {
            if case .syntax(let message, let line, let column) = error {
                report("invalid CEL in \(what): \(message)", in: literal, line: line, column: column)
            } else {
                report("invalid CEL in \(what): \(error.message)", in: literal, line: 1, column: 1)
            }
            return
        }
        let unknown = parsed.unknownNames(allowed: allowed)
        for problem in unknown {
            report("\(problem.message) (in \(what))", in: literal, line: problem.line, column: problem.column)
        }
        guard unknown.isEmpty, let type = parsed.staticType else { return }
        switch expecting {
        case .condition where type != .bool:
            report("\(what) must give a bool, but \"\(literal.value)\" gives \(type.rawValue)", in: literal)
        case .value(let target, let field) where !Self.fits(type, target):
            report(
                "\(what) gives \(type.rawValue), which cannot fit \"\(field)\" of type \(target)", in: literal)
        default:
            break
        }
    }

    /// Whether a value of a CEL type can be stored in a field of a GraphQL type.
    static func fits(_ type: CELStaticType, _ target: TypeReference) -> Bool {
        if type == .null { return !target.isNonNull }
        if target.isList { return type == .list }
        let name = target.namedType.value
        switch name {
        case "Any": return true
        case "Boolean": return type == .bool
        case "Int", "Float": return [.int, .uint, .double].contains(type)
        case "Int64": return [.int, .uint, .double, .string].contains(type)
        case "Date", "Timestamp": return [.string, .timestamp].contains(type)
        default: return [.string, .timestamp, .duration].contains(type)
        }
    }

    /// Reports a problem at a position inside the string literal when the literal's text shows where that is
    /// (a one-line string without escapes), otherwise at the literal.
    mutating func report(_ message: String, in literal: StringValue, line: Int = 1, column: Int = 0) {
        var position = literal.location.start
        if column > 0, line == 1, !literal.isBlock, isVerbatim(literal) {
            position.column += column
        }
        diagnostics.append(Diagnostic(file: literal.location.file, location: position, message: message))
    }

    /// Whether the literal's source text is a quote followed by its value character for character.
    func isVerbatim(_ literal: StringValue) -> Bool {
        guard let file = files.first(where: { $0.name == literal.location.file }) else { return false }
        let start = literal.location.start
        guard start.line >= 1, start.column >= 1 else { return false }
        var lineText: Substring?
        var number = 0
        for candidate in file.text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if number == start.line {
                lineText = candidate
                break
            }
        }
        guard let scalars = lineText?.unicodeScalars.dropFirst(start.column - 1), scalars.first == "\"" else {
            return false
        }
        let value = literal.value.unicodeScalars
        return scalars.dropFirst().starts(with: value) && scalars.dropFirst(value.count + 1).first == "\""
    }
}
