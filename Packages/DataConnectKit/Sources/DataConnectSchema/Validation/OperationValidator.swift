import GraphQLLanguage

/// The result of validating a connector's operations.
public struct ValidatedConnector: Sendable {
    /// Every `.gql` file of the connector merged into one document.
    public var document: Document
    /// Named operations, in document order.
    public var operations: [OperationDefinition]
    /// Fragments by name.
    public var fragments: [String: FragmentDefinition]
    /// Errors and warnings, in source order.
    public var diagnostics: [Diagnostic]
    /// Names of the operations with errors: the emulator answers them with an error and codegen skips them.
    public var invalidOperations: Set<String>
}

/// Type-checks connector operations against the generated API.
///
/// Implements the executable-document rules of the GraphQL specification (§5) that apply to Data
/// Connect, plus Data Connect's own:
/// - operations are named, and names are unique;
/// - fields exist on their parent type; leaf fields have no selection set and composite fields have one;
/// - arguments exist, are not repeated, required ones are given, and literal values have the right type;
/// - `@fdc_oneOf` groups (one selector of `x(id | key | first)`, one of `eq | eq_expr`) hold;
/// - variables are unique, of known input types, not of forbidden types (`*_Expr`, `*_Relative`, ...),
///   defined where used, used where defined, and compatible with each position they are used in;
/// - fragments are known, used, acyclic, on composite types, and applicable where spread;
/// - directives are known, allowed where used, and not repeated unless repeatable;
/// - fields with the same response key can be merged, at every depth once fragments are expanded;
/// - the merged selection is within the ``OperationLimits`` (fields, depth, aliases);
/// - `updateMany`/`deleteMany` have `where` or `all: true`;
/// - `_update` transforms appear only in updates, never in inserts or upserts;
/// - an operation without `@auth` is warned about: it defaults to `NO_ACCESS`.
public struct OperationValidator {
    /// What kind of document is being validated.
    public enum Mode: Sendable {
        /// Connector operations: named, each with `@auth` (a missing one is warned about).
        case connector
        /// Admin `executeGraphql` documents such as seed files: anonymous operations allowed, `@auth` not needed.
        case admin
    }

    let api: GeneratedAPI
    var mode: Mode = .connector
    var limits: OperationLimits = .default
    var system: TypeSystem { api.typeSystem }
    var diagnostics: [Diagnostic] = []
    var fragments: [String: FragmentDefinition] = [:]
    /// Variable usages recorded while walking each fragment, and the fragments it spreads.
    var fragmentUsages: [String: [VariableUsage]] = [:]
    var fragmentSpreads: [String: Set<String>] = [:]
    /// The diagnostics' owner while walking: the operation or fragment being checked.
    var currentUsages: [VariableUsage] = []
    /// Variables written where only constants are allowed (already reported; they count as used).
    var mentionedInConstants: Set<String> = []
    var currentSpreads: Set<String> = []
    /// Fragments that spread themselves: operations using them are not merged.
    var cyclicFragments: Set<String> = []

    init(api: GeneratedAPI) {
        self.api = api
    }

    /// Parses and validates a connector's `.gql` files as one document.
    ///
    /// - Parameters:
    ///   - sources: the connector's `.gql` files.
    ///   - api: the generated API of the service's schema.
    ///   - mode: connector operations (the default) or an admin document.
    ///   - limits: the bounds on each operation's merged selection; an operation beyond them is invalid.
    /// - Returns: the validated connector; its `diagnostics` hold every problem found.
    public static func validate(
        _ sources: [Source], api: GeneratedAPI, mode: Mode = .connector, limits: OperationLimits = .default
    ) -> ValidatedConnector {
        let (definitions, diagnostics) = GraphQLParser.parseDocuments(sources)
        let document = Document(definitions: definitions)
        var validator = OperationValidator(api: api)
        validator.mode = mode
        validator.limits = limits
        validator.diagnostics = diagnostics
        let invalid = validator.run(document)
        return ValidatedConnector(
            document: document, operations: document.operations, fragments: validator.fragments,
            diagnostics: validator.diagnostics.uniqued().sortedForDisplay(), invalidOperations: invalid)
    }

    mutating func error(_ message: String, at location: NodeLocation) {
        diagnostics.append(Diagnostic(file: location.file, location: location.start, message: message))
    }

    mutating func warning(_ message: String, at location: NodeLocation) {
        diagnostics.append(
            Diagnostic(file: location.file, location: location.start, severity: .warning, message: message))
    }

    /// Validates the document and returns the names of the operations with errors.
    mutating func run(_ document: Document) -> Set<String> {
        checkDefinitionKinds(document)
        collectFragments(document)
        var fragmentErrors: [String: Int] = [:]
        for fragment in document.fragments where fragments[fragment.name.value] != nil {
            let before = diagnostics.count
            checkFragmentDefinition(fragment)
            fragmentErrors[fragment.name.value] = diagnostics[before...].filter { $0.severity == .error }.count
        }
        cyclicFragments = checkFragmentCycles()
        for name in cyclicFragments { fragmentErrors[name, default: 0] += 1 }
        var invalid: Set<String> = []
        var operationNames: [String: NodeLocation] = [:]
        for operation in document.operations {
            let before = diagnostics.count
            guard let name = operation.name else {
                if mode == .admin {
                    if document.operations.count > 1 {
                        error(
                            "an anonymous operation must be the only operation in its document", at: operation.location)
                    }
                    checkOperation(operation)
                    if diagnostics[before...].contains(where: { $0.severity == .error }) { invalid.insert("") }
                    continue
                }
                error(
                    "connector operations must be named: an anonymous \(operation.operation.rawValue) cannot be called",
                    at: operation.location)
                continue
            }
            if let previous = operationNames[name.value] {
                error(
                    "there can be only one operation named \"\(name.value)\" (also declared at \(previous.file):\(previous.start))",
                    at: name.location)
            } else {
                operationNames[name.value] = name.location
            }
            checkOperation(operation)
            let used = transitiveFragments(of: operation.selectionSet)
            let hasErrors =
                diagnostics[before...].contains { $0.severity == .error }
                || used.contains { (fragmentErrors[$0] ?? 0) > 0 }
            if hasErrors { invalid.insert(name.value) }
        }
        checkUnusedFragments(document)
        return invalid
    }

    /// Rule: a connector document holds only operations and fragments.
    mutating func checkDefinitionKinds(_ document: Document) {
        for definition in document.definitions {
            switch definition {
            case .operation, .fragment: continue
            default:
                error(
                    "a connector may contain only operations and fragments; type definitions belong in the schema",
                    at: definition.location)
            }
        }
    }
}
