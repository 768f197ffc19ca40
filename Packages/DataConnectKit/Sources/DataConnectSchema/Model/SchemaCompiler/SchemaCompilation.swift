import GraphQLLanguage

/// The working state of one schema compilation, and the order of its stages.
///
/// Each stage is an extension in its own file: `+Classify` (stage 2), `+Directives` (3), `+Enums`, `+Keys` and
/// `+Tables` (4), `+Columns` and `+Constraints` (5), `+Names` and `+Relations` (6).
struct SchemaCompilation {
    let prelude: TypeSystem
    var diagnostics: [Diagnostic] = []
    var model = SchemaModel(tables: [], enums: [], relations: [:])

    /// Declared table types by name, in order.
    var tableDefinitions: [ObjectTypeDefinition] = []
    var tableDefinitionsByName: [String: ObjectTypeDefinition] = [:]
    var tableNames: Set<String> = []
    var enumNames: Set<String> = []
    /// The `@view` types among ``tableNames``.
    var viewNames: Set<String> = []

    /// Resolved key columns per table: (field name, type) of each primary-key column.
    var keyColumnCache: [String: [(String, ColumnType)]] = [:]
    var resolvingKeys: Set<String> = []
    /// Tables whose key could not be resolved (cycles, unknown fields); reported once.
    var failedKeys: Set<String> = []

    init(prelude: TypeSystem) {
        self.prelude = prelude
    }

    mutating func error(_ message: String, at location: NodeLocation) {
        diagnostics.append(Diagnostic(file: location.file, location: location.start, message: message))
    }

    mutating func warning(_ message: String, at location: NodeLocation) {
        diagnostics.append(
            Diagnostic(file: location.file, location: location.start, severity: .warning, message: message))
    }

    /// Runs the stages after parsing; a stage that finds errors stops the ones after it.
    mutating func run(_ definitions: [Definition]) {
        // Stage 2: classify.
        let enumDefinitions = classifyDefinitions(definitions)
        for e in enumDefinitions { compileEnum(e) }
        // Stage 3: directives.
        for table in tableDefinitions { checkDirectives(table) }
        checkTypeNamesAgainstGeneratedNames(enumDefinitions)
        if diagnostics.containsErrors { return }
        // Stage 4: keys, then each table's columns and references, with stage 5's constraints.
        resolveKeysInDependencyOrder()
        if diagnostics.containsErrors { return }
        for table in tableDefinitions { compileTable(table) }
        if diagnostics.containsErrors { return }
        // Stage 6: names and relations.
        checkRootFieldNames()
        buildRelations()
    }
}
