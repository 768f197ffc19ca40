import GraphQLLanguage

/// Compiles `schema/*.gql` into a ``SchemaModel``: tables, columns, keys, references, constraints,
/// indexes, enums and the generated relation fields.
///
/// The stages:
/// 1. **Parse** every file (syntax errors stop here).
/// 2. **Classify** definitions: `@table` types and enums; anything else is an error.
/// 3. **Check directives** against the prelude's definitions (known, allowed here, arguments typed).
/// 4. **Resolve** fields into columns and references, keys (explicit, `id`, or the implicit `id`),
///    and the implicit foreign-key fields, following references through composite keys.
/// 5. **Constraints**: `@col`, `@default`, `@unique`, `@index`.
/// 6. **Relations**: reverse one-to-many, one-to-one and many-to-many fields, checked for collisions.
///
/// Every problem is a ``Diagnostic`` with the file, line and column of the offending definition.
public enum SchemaCompiler {
    /// Parses and compiles schema sources.
    ///
    /// - Parameter sources: the `.gql` files of `schema.source`.
    /// - Returns: the model (nil when there are errors) and every diagnostic, warnings included.
    public static func compile(_ sources: [Source]) -> (model: SchemaModel?, diagnostics: [Diagnostic]) {
        var definitions: [Definition] = []
        var diagnostics: [Diagnostic] = []
        for source in sources {
            do {
                definitions += try GraphQLParser.parseDocument(source).definitions
            } catch {
                diagnostics.append(error)
            }
        }
        if diagnostics.containsErrors { return (nil, diagnostics) }
        return compile(definitions: definitions, previous: diagnostics)
    }

    /// Compiles already-parsed schema definitions.
    public static func compile(
        definitions: [Definition], previous: [Diagnostic] = []
    ) -> (model: SchemaModel?, diagnostics: [Diagnostic]) {
        var compilation = Compilation(prelude: PreludeTypeSystem.shared)
        compilation.diagnostics = previous
        compilation.run(definitions)
        let model = compilation.diagnostics.containsErrors ? nil : compilation.model
        return (model, compilation.diagnostics.uniqued())
    }
}

/// The prelude parsed once.
enum PreludeTypeSystem {
    static let definitions: [Definition] = {
        do {
            return try GraphQLParser.parseDocument(Source(name: Prelude.fileName, text: Prelude.sdl)).definitions
        } catch {
            preconditionFailure("the built-in prelude does not parse: \(error)")
        }
    }()

    static let shared: TypeSystem = TypeSystem.build(from: definitions).0
}

/// The working state of one schema compilation.
private struct Compilation {
    let prelude: TypeSystem
    var diagnostics: [Diagnostic] = []
    var model = SchemaModel(tables: [], enums: [], relations: [:])

    /// Declared table types by name, in order.
    var tableDefinitions: [ObjectTypeDefinition] = []
    var tableDefinitionsByName: [String: ObjectTypeDefinition] = [:]
    var tableNames: Set<String> = []
    var enumNames: Set<String> = []

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

    // MARK: - Stage 2: classify

    mutating func run(_ definitions: [Definition]) {
        var enumDefinitions: [EnumTypeDefinition] = []
        var seenNames: [String: NodeLocation] = [:]
        for definition in definitions {
            switch definition {
            case .type(.object(let object)):
                guard claim(object.name, &seenNames) else { continue }
                if object.name.value == "Query" || object.name.value == "Mutation" {
                    error(
                        "the schema may not declare type \"\(object.name.value)\"; its fields are generated from the tables",
                        at: object.name.location)
                } else if object.directives.first(named: "view") != nil {
                    error(
                        "@view is not supported by this version; declare a @table instead", at: object.name.location)
                } else if object.directives.first(named: "table") == nil {
                    error(
                        "type \"\(object.name.value)\" must be a table: add @table (plain object types are not supported)",
                        at: object.name.location)
                } else {
                    tableDefinitions.append(object)
                    tableDefinitionsByName[object.name.value] = object
                    tableNames.insert(object.name.value)
                }
            case .type(.enum(let e)):
                guard claim(e.name, &seenNames) else { continue }
                enumDefinitions.append(e)
                enumNames.insert(e.name.value)
            case .type(let other):
                error(
                    "only @table types and enums may be declared in a schema, found \(kind(of: other)) \"\(other.name.value)\"",
                    at: other.name.location)
            case .typeExtension(let other):
                error(
                    "type extensions are not supported in a schema (extend \(kind(of: other)) \"\(other.name.value)\")",
                    at: other.location
                )
            case .directive(let d):
                error("a schema may not declare directives (\"@\(d.name.value)\")", at: d.location)
            case .schema(let s), .schemaExtension(let s):
                error("a schema may not contain a schema definition", at: s.location)
            case .operation(let op):
                error(
                    "operations belong in a connector, not in the schema (operation \"\(op.name?.value ?? "<anonymous>")\")",
                    at: op.location)
            case .fragment(let f):
                error("fragments belong in a connector, not in the schema (\"\(f.name.value)\")", at: f.location)
            }
        }
        for e in enumDefinitions { compileEnum(e) }
        for table in tableDefinitions { checkDirectives(table) }
        checkTypeNamesAgainstGeneratedNames(enumDefinitions)
        if diagnostics.containsErrors { return }
        resolveKeysInDependencyOrder()
        if diagnostics.containsErrors { return }
        for table in tableDefinitions { compileTable(table) }
        if diagnostics.containsErrors { return }
        checkRootFieldNames()
        buildRelations()
    }

    private func kind(of type: TypeDefinition) -> String {
        switch type {
        case .scalar: "scalar"
        case .object: "type"
        case .interface: "interface"
        case .union: "union"
        case .enum: "enum"
        case .inputObject: "input"
        }
    }

    /// Records a type name; reports duplicates and clashes with built-in names.
    private mutating func claim(_ name: Name, _ seen: inout [String: NodeLocation]) -> Bool {
        if let previous = seen[name.value] {
            error(
                "there can be only one type named \"\(name.value)\" (also declared at \(previous.file):\(previous.start))",
                at: name.location)
            return false
        }
        if prelude.type(named: name.value) != nil {
            error("type name \"\(name.value)\" is reserved by the built-in prelude", at: name.location)
            return false
        }
        if name.value.hasPrefix("_") {
            error("type names may not start with \"_\" (\"\(name.value)\")", at: name.location)
            return false
        }
        seen[name.value] = name.location
        return true
    }

    // MARK: - Stage 3: directives

    mutating func checkDirectives(_ table: ObjectTypeDefinition) {
        checkDirectiveList(table.directives, at: .object)
        for field in table.fields {
            checkDirectiveList(field.directives, at: .fieldDefinition)
            if !field.arguments.isEmpty {
                error(
                    "table fields may not have arguments (\"\(table.name.value).\(field.name.value)\")",
                    at: field.location)
            }
        }
    }

    mutating func checkDirectiveList(_ directives: [Directive], at location: DirectiveLocation) {
        var seen: Set<String> = []
        for directive in directives {
            guard let definition = prelude.directives[directive.name.value] else {
                let known = prelude.directives.values.filter { $0.locations.contains(location) }.map {
                    "@" + $0.name.value
                }
                error(
                    "unknown directive \"@\(directive.name.value)\"\(Suggestions.didYouMean("@" + directive.name.value, among: known))",
                    at: directive.location)
                continue
            }
            if !definition.locations.contains(location) {
                error(
                    "directive \"@\(directive.name.value)\" may not be used on \(location.rawValue)",
                    at: directive.location)
                continue
            }
            if !definition.isRepeatable && !seen.insert(directive.name.value).inserted {
                error(
                    "the directive \"@\(directive.name.value)\" can only be used once at this location",
                    at: directive.location)
            }
            var checker = ValueChecker(system: prelude, allowVariables: false)
            checker.checkArguments(
                directive.arguments, definitions: definition.arguments, owner: "directive \"@\(directive.name.value)\"",
                at: directive.location)
            diagnostics += checker.diagnostics
        }
    }

    // MARK: - Enums

    mutating func compileEnum(_ e: EnumTypeDefinition) {
        checkDirectiveList(e.directives, at: .enum)
        var values: [String] = []
        for value in e.values {
            checkDirectiveList(value.directives, at: .enumValue)
            if values.contains(value.name.value) {
                error("enum value \"\(e.name.value).\(value.name.value)\" is declared twice", at: value.location)
            } else {
                values.append(value.name.value)
            }
        }
        if values.isEmpty { error("enum \"\(e.name.value)\" must declare at least one value", at: e.name.location) }
        model.enums.append(
            EnumType(
                name: e.name.value, values: values,
                documentation: documentation(description: e.description, comments: e.leadingComments),
                location: e.name.location))
    }

    // MARK: - Stage 4: fields, keys, references

    /// A declared field, classified.
    enum FieldKind {
        case column(ColumnType, isList: Bool)
        case reference(target: String)
    }

    /// Classifies a field's type; reports unknown types and lists of tables.
    mutating func classify(_ field: FieldDefinition, in table: String) -> FieldKind? {
        let type = field.type.nullable
        var isList = false
        var element = type
        if case .list(let inner, _) = type {
            isList = true
            element = inner.nullable
            if case .list = element {
                error(
                    "nested lists are not supported (\"\(table).\(field.name.value): \(field.type)\")",
                    at: field.type.location)
                return nil
            }
        }
        let name = element.namedType.value
        if tableNames.contains(name) {
            if isList {
                error(
                    "field \"\(table).\(field.name.value)\" cannot be a list of table \"\(name)\": declare the reference on \"\(name)\" instead (e.g. \(Naming.lowerCamel(table)): \(table)!) and the reverse field is generated",
                    at: field.type.location)
                return nil
            }
            return .reference(target: name)
        }
        if enumNames.contains(name) { return .column(.enumeration(name), isList: isList) }
        if let scalar = ScalarType(rawValue: name) { return .column(.scalar(scalar), isList: isList) }
        let known = Array(tableNames) + Array(enumNames) + ScalarType.allCases.map(\.rawValue)
        if name == "ID" {
            error("type \"ID\" is not allowed in a table; use UUID or String", at: element.location)
        } else {
            error("unknown type \"\(name)\"\(Suggestions.didYouMean(name, among: known))", at: element.location)
        }
        return nil
    }

    func definition(of table: String) -> ObjectTypeDefinition? {
        tableDefinitionsByName[table]
    }

    /// The declared key of a table: `@table(key:)`, else `["id"]`.
    func declaredKey(of table: ObjectTypeDefinition) -> [String] {
        table.directives.first(named: "table")?.strings("key") ?? ["id"]
    }

    /// The tables a table's key refers to through references (its key's dependencies).
    func keyDependencies(of table: ObjectTypeDefinition) -> [String] {
        declaredKey(of: table).compactMap { entry in
            guard let field = table.fields.first(where: { $0.name.value == entry }) else { return nil }
            let name = field.type.nullable.namedType.value
            return tableNames.contains(name) ? name : nil
        }
    }

    /// Resolves every table's key columns so that each table's key dependencies come first, without
    /// recursion (a chain of thousands of tables keyed by references must not exhaust the stack), and
    /// reports each key cycle once.
    mutating func resolveKeysInDependencyOrder() {
        var state: [String: Int] = [:]  // 1: on the current path, 2: done
        for root in tableDefinitions {
            guard state[root.name.value] == nil else { continue }
            var stack: [(name: String, next: Int)] = [(root.name.value, 0)]
            state[root.name.value] = 1
            while let top = stack.last {
                let dependencies = definition(of: top.name).map(keyDependencies) ?? []
                if top.next < dependencies.count {
                    stack[stack.count - 1].next += 1
                    let dependency = dependencies[top.next]
                    switch state[dependency] {
                    case nil:
                        state[dependency] = 1
                        stack.append((dependency, 0))
                    case 1:
                        let cycle = stack.map(\.name).drop { $0 != dependency }
                        for member in cycle { failedKeys.insert(member) }
                        if let table = definition(of: dependency) {
                            let via = cycle.dropFirst().map { "\"\($0)\"" }.joined(separator: ", ")
                            error(
                                "the key of \"\(dependency)\" refers to itself through references\(via.isEmpty ? "" : " (via \(via))")",
                                at: table.name.location)
                        }
                    default:
                        break
                    }
                } else {
                    stack.removeLast()
                    state[top.name] = 2
                    if !failedKeys.contains(top.name) { _ = keyColumns(of: top.name) }
                }
            }
        }
    }

    /// The primary-key columns of a table as (field name, type), following references in the key.
    ///
    /// Call after ``resolveKeysInDependencyOrder()``, which fills the cache bottom-up.
    mutating func keyColumns(of tableName: String) -> [(String, ColumnType)]? {
        if let cached = keyColumnCache[tableName] { return cached }
        guard let table = definition(of: tableName), !failedKeys.contains(tableName) else { return nil }
        guard resolvingKeys.insert(tableName).inserted else { return nil }
        defer { resolvingKeys.remove(tableName) }
        var result: [(String, ColumnType)] = []
        let key = declaredKey(of: table)
        let hasExplicitKey = table.directives.first(named: "table")?.argument("key") != nil
        if key.isEmpty {
            failedKeys.insert(tableName)
            error(
                "@table(key:) must name at least one field",
                at: table.directives.first(named: "table")!.location(of: "key"))
            return nil
        }
        for entry in key {
            guard let field = table.fields.first(where: { $0.name.value == entry }) else {
                if entry == "id" && !hasExplicitKey {
                    result.append(("id", .scalar(.uuid)))  // the implicit key
                    continue
                }
                let location = table.directives.first(named: "table")?.location(of: "key") ?? table.name.location
                error(
                    "key field \"\(entry)\" is not a field of \"\(tableName)\"\(Suggestions.didYouMean(entry, among: table.fields.map(\.name.value)))",
                    at: location)
                return nil
            }
            guard let kind = classify(field, in: tableName) else { return nil }
            switch kind {
            case .column(let type, let isList):
                if isList {
                    error("key field \"\(tableName).\(entry)\" may not be a list", at: field.location)
                    return nil
                }
                result.append((entry, type))
            case .reference(let target):
                guard let fk = foreignKeyFields(of: field, in: tableName, target: target) else { return nil }
                result += fk.map { ($0.name, $0.type) }
            }
        }
        keyColumnCache[tableName] = result
        return result
    }

    /// The implicit (or `@ref(fields:)`-named) foreign-key fields of a reference and the target fields they reference.
    mutating func foreignKeyFields(
        of field: FieldDefinition, in table: String, target: String
    ) -> [(name: String, type: ColumnType, targetField: String)]? {
        let ref = field.directives.first(named: "ref")
        var targetColumns: [(String, ColumnType)]
        if let references = ref?.strings("references") {
            guard let targetTable = definition(of: target) else { return nil }
            targetColumns = []
            for name in references {
                guard let targetField = targetTable.fields.first(where: { $0.name.value == name }),
                    case .column(let type, false)? = classify(targetField, in: target)
                else {
                    error(
                        "@ref(references:) names \"\(name)\", which is not a scalar field of \"\(target)\"",
                        at: ref!.location(of: "references"))
                    return nil
                }
                targetColumns.append((name, type))
            }
            let keyNames = keyColumns(of: target)?.map(\.0) ?? []
            if references != keyNames && !isUnique(fields: references, in: targetTable) {
                error(
                    "@ref(references:) must name the key of \"\(target)\" or fields with @unique, got \(references)",
                    at: ref!.location(of: "references"))
                return nil
            }
        } else {
            guard let key = keyColumns(of: target) else { return nil }
            targetColumns = key
        }
        let names: [String]
        if let fields = ref?.strings("fields") {
            guard fields.count == targetColumns.count else {
                error(
                    "@ref(fields:) names \(fields.count) field(s) but \"\(target)\" is referenced by \(targetColumns.count)",
                    at: ref!.location(of: "fields"))
                return nil
            }
            names = fields
        } else {
            names = targetColumns.map { field.name.value + Naming.upperFirst($0.0) }
        }
        return zip(names, targetColumns).map { ($0, $1.1, $1.0) }
    }

    /// Whether a field set of a table carries a unique constraint (field-level `@unique` for one field,
    /// type-level `@unique(fields:)` otherwise).
    func isUnique(fields: [String], in table: ObjectTypeDefinition) -> Bool {
        if fields.count == 1, let field = table.fields.first(where: { $0.name.value == fields[0] }),
            field.directives.first(named: "unique") != nil
        {
            return true
        }
        return table.directives.all(named: "unique").contains { Set($0.strings("fields") ?? []) == Set(fields) }
    }

    mutating func compileTable(_ definition: ObjectTypeDefinition) {
        let name = definition.name.value
        let tableDirective = definition.directives.first(named: "table")!
        let sqlName = tableDirective.string("name") ?? Naming.snakeCase(name)
        let singular = tableDirective.string("singular") ?? Naming.lowerCamel(name)
        let plural = tableDirective.string("plural") ?? Naming.plural(singular)
        for (label, value) in [("singular", singular), ("plural", plural)] where !isValidName(value) {
            error("@table(\(label):) must be a GraphQL name, got \"\(value)\"", at: tableDirective.location(of: label))
        }
        if sqlName.isEmpty {
            error("@table(name:) may not be empty", at: tableDirective.location(of: "name"))
        }
        let hasExplicitKey = tableDirective.argument("key") != nil
        let declaresId = definition.fields.contains { $0.name.value == "id" }

        var table = Table(
            name: name, sqlName: sqlName, singular: singular, plural: plural, columns: [], references: [],
            primaryKey: [], declaredKey: declaredKey(of: definition), uniqueConstraints: [], indexes: [],
            documentation: documentation(description: definition.description, comments: definition.leadingComments),
            location: definition.name.location)

        if !hasExplicitKey && !declaresId {
            table.columns.append(
                Column(
                    name: "id", sqlName: "id", type: .scalar(.uuid), isList: false, isNonNull: true, dataType: nil,
                    maxLength: nil, size: nil, defaultValue: .expression("uuidV4()"), origin: .implicitKey,
                    documentation: nil, location: definition.name.location))
        }

        var seenFields: Set<String> = []
        let declaredNames = Set(definition.fields.map(\.name.value))
        for field in definition.fields {
            let fieldName = field.name.value
            guard seenFields.insert(fieldName).inserted else {
                error("field \"\(name).\(fieldName)\" is declared twice", at: field.name.location)
                continue
            }
            if fieldName.hasPrefix("_") {
                error(
                    "field names may not start with \"_\" (\"\(name).\(fieldName)\"): they are reserved for generated fields",
                    at: field.name.location)
                continue
            }
            guard let kind = classify(field, in: name) else { continue }
            let doc = documentation(description: field.description, comments: field.leadingComments)
            switch kind {
            case .column(let type, let isList):
                if field.directives.first(named: "ref") != nil {
                    error(
                        "@ref applies only to fields whose type is a table, not \"\(field.type)\"",
                        at: field.directives.first(named: "ref")!.location)
                }
                var column = Column(
                    name: fieldName, sqlName: Naming.snakeCase(fieldName), type: type, isList: isList,
                    isNonNull: field.type.isNonNull, dataType: nil, maxLength: nil, size: nil, defaultValue: nil,
                    origin: .declared, documentation: doc, location: field.name.location)
                applyCol(field, to: &column)
                applyDefault(field, to: &column, table: name)
                if let existing = table.columns.firstIndex(where: { $0.name == fieldName }) {
                    // Declared explicitly after a reference already added it as a foreign key: keep the declaration.
                    let fk = table.columns[existing]
                    if fk.type != column.type || fk.isList {
                        error(
                            "field \"\(name).\(fieldName)\" has type \(column.graphQLType) but is the foreign key of a reference to a \(fk.type) key",
                            at: field.name.location)
                    }
                    column.origin = fk.origin
                    table.columns[existing] = column
                } else {
                    table.columns.append(column)
                }
            case .reference(let target):
                for directive in ["col", "default"] {
                    if let d = field.directives.first(named: directive) {
                        error(
                            "@\(directive) does not apply to a reference field; it applies to the foreign-key fields",
                            at: d.location)
                    }
                }
                guard let fks = foreignKeyFields(of: field, in: name, target: target) else { continue }
                let refDirective = field.directives.first(named: "ref")
                var fkNames: [String] = []
                var fkSQLNames: [String] = []
                for fk in fks {
                    let fkSQLName = Naming.snakeCase(fk.name)
                    fkNames.append(fk.name)
                    fkSQLNames.append(fkSQLName)
                    if fk.name == fieldName || (declaredNames.contains(fk.name) && seenFields.contains(fk.name)) {
                        if let existing = table.columns.first(where: { $0.name == fk.name }), existing.type != fk.type {
                            error(
                                "field \"\(name).\(fk.name)\" has type \(existing.type) but is the foreign key of \"\(fieldName)\", which needs \(fk.type)",
                                at: field.name.location)
                        }
                        continue
                    }
                    // A field declared later under the same name replaces this implicit column.
                    table.columns.append(
                        Column(
                            name: fk.name, sqlName: fkSQLName, type: fk.type, isList: false,
                            isNonNull: field.type.isNonNull, dataType: nil, maxLength: nil, size: nil,
                            defaultValue: nil, origin: .implicitForeignKey(reference: fieldName), documentation: nil,
                            location: field.name.location))
                }
                let fkColumnNames = fkSQLNames.joined(separator: "_")
                table.references.append(
                    Reference(
                        name: fieldName, target: target, isNonNull: field.type.isNonNull, foreignKeyFields: fkNames,
                        targetFields: fks.map(\.targetField),
                        constraintName: refDirective?.string("constraintName") ?? "\(sqlName)_\(fkColumnNames)_fkey",
                        onDelete: field.type.isNonNull ? .cascade : .setNull,
                        isOneToOne: field.directives.first(named: "unique") != nil, documentation: doc,
                        location: field.name.location))
            }
        }

        // The primary key.
        guard let key = keyColumns(of: name) else { return }
        table.primaryKey = key.map(\.0)
        for keyName in table.declaredKey {
            if let field = definition.fields.first(where: { $0.name.value == keyName }), !field.type.isNonNull {
                error("key field \"\(name).\(keyName)\" must be non-null (\(field.type)!)", at: field.type.location)
            }
        }
        if table.declaredKey.count == 1,
            let index = table.references.firstIndex(where: { $0.name == table.declaredKey[0] })
        {
            table.references[index].isOneToOne = true
        }

        applyUniqueAndIndexes(definition, to: &table)
        model.tables.append(table)
    }

    func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII
        else {
            return false
        }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    // MARK: - Stage 5: @col, @default, @unique, @index

    mutating func applyCol(_ field: FieldDefinition, to column: inout Column) {
        guard let col = field.directives.first(named: "col") else {
            if column.type == .scalar(.vector) {
                error("a Vector field needs @col(size:)", at: field.name.location)
            }
            return
        }
        if let name = col.string("name") {
            if name.isEmpty { error("@col(name:) may not be empty", at: col.location(of: "name")) }
            column.sqlName = name
        }
        if let size = col.int("size") {
            if column.type != .scalar(.vector) {
                error("@col(size:) applies only to Vector fields", at: col.location(of: "size"))
            } else if size <= 0 {
                error("@col(size:) must be positive", at: col.location(of: "size"))
            }
            column.size = size
        } else if column.type == .scalar(.vector) {
            error("a Vector field needs @col(size:)", at: col.location)
        }
        if let dataType = col.string("dataType") {
            column.dataType = dataType
            switch SQLDataType.check(dataType, for: column.type, isList: column.isList) {
            case .ok(let maxLength): column.maxLength = maxLength
            case .problem(let message): error(message, at: col.location(of: "dataType"))
            }
        }
    }

    mutating func applyDefault(_ field: FieldDefinition, to column: inout Column, table: String) {
        guard let directive = field.directives.first(named: "default") else { return }
        if let value = directive.argument("value")?.value {
            var checker = ValueChecker(system: prelude, allowVariables: false)
            let element: TypeReference = .named(Name(column.type.graphQLName))
            let type: TypeReference = column.isList ? .list(.nonNull(element, .synthesized), .synthesized) : element
            if case .enum(let n) = value, case .enumeration(let e) = column.type,
                let values = model.enumType(e)?.values, !values.contains(n.value)
            {
                error("@default(value:) \"\(n.value)\" is not a value of enum \"\(e)\"", at: value.location)
            } else if case .enumeration = column.type {
                if case .enum = value {
                } else if case .null = value {
                } else {
                    error("@default(value:) for an enum field must be one of its values, unquoted", at: value.location)
                }
            } else {
                checker.check(value, against: column.isNonNull ? .nonNull(type, .synthesized) : type)
                for d in checker.diagnostics {
                    error("invalid @default(value:) for \"\(table).\(column.name)\": \(d.message)", at: value.location)
                }
            }
            column.defaultValue = .value(value)
        } else if let expr = directive.string("expr") {
            let allowed: [String: Set<ScalarType>] = [
                "uuidV4()": [.uuid, .string], "uuidV7()": [.uuid, .string], "auth.uid": [.string],
                "request.time": [.timestamp, .date],
            ]
            guard let types = allowed[expr] else {
                error(
                    "unsupported @default(expr:) \"\(expr)\"; supported: \"uuidV4()\", \"uuidV7()\", \"auth.uid\", \"request.time\"",
                    at: directive.location(of: "expr"))
                return
            }
            guard case .scalar(let scalar) = column.type, types.contains(scalar), !column.isList else {
                error(
                    "@default(expr: \"\(expr)\") does not fit field \"\(table).\(column.name)\" of type \(column.graphQLType)",
                    at: directive.location(of: "expr"))
                return
            }
            column.defaultValue = .expression(expr)
        } else if let sql = directive.string("sql") {
            let normalized = sql.lowercased().filter { !$0.isWhitespace }
            let supported = [
                "now()", "current_timestamp", "current_date", "gen_random_uuid()", "uuid_generate_v4()", "true",
                "false",
            ]
            let isNumber = Double(normalized) != nil
            let isQuoted = normalized.count >= 2 && normalized.hasPrefix("'") && normalized.hasSuffix("'")
            guard supported.contains(normalized) || isNumber || isQuoted else {
                error(
                    "unsupported @default(sql:) \"\(sql)\"; the emulator supports now(), CURRENT_TIMESTAMP, CURRENT_DATE, gen_random_uuid(), uuid_generate_v4(), and constants",
                    at: directive.location(of: "sql"))
                return
            }
            column.defaultValue = .sql(sql)
        }
    }

    mutating func applyUniqueAndIndexes(_ definition: ObjectTypeDefinition, to table: inout Table) {
        let name = table.name
        /// Resolves field names (columns or references) to column field names.
        func columnsFor(
            _ fields: [String], at location: NodeLocation, in table: Table, errors: inout [Diagnostic]
        ) -> [String]? {
            var result: [String] = []
            for field in fields {
                if let reference = table.reference(field) {
                    result += reference.foreignKeyFields
                } else if table.column(field) != nil {
                    result.append(field)
                } else {
                    errors.append(
                        Diagnostic(
                            file: location.file, location: location.start,
                            message:
                                "\"\(field)\" is not a field of \"\(name)\"\(Suggestions.didYouMean(field, among: table.columns.map(\.name) + table.references.map(\.name)))"
                        ))
                    return nil
                }
            }
            return result
        }
        var errors: [Diagnostic] = []
        func sqlNames(_ fields: [String]) -> String {
            fields.map { field in table.column(field)?.sqlName ?? Naming.snakeCase(field) }.joined(separator: "_")
        }
        for field in definition.fields {
            for unique in field.directives.all(named: "unique") {
                if unique.argument("fields") != nil {
                    errors.append(
                        Diagnostic(
                            file: unique.location.file, location: unique.location.start,
                            message: "@unique(fields:) is for types; on a field, omit it"))
                    continue
                }
                guard let columns = columnsFor([field.name.value], at: unique.location, in: table, errors: &errors)
                else { continue }
                table.uniqueConstraints.append(
                    UniqueConstraint(
                        name: unique.string("indexName") ?? "\(table.sqlName)_\(sqlNames(columns))_uidx",
                        fields: columns))
            }
            for index in field.directives.all(named: "index") {
                if index.argument("fields") != nil {
                    errors.append(
                        Diagnostic(
                            file: index.location.file, location: index.location.start,
                            message: "@index(fields:) is for types; on a field, omit it"))
                    continue
                }
                guard let columns = columnsFor([field.name.value], at: index.location, in: table, errors: &errors)
                else { continue }
                let type = index.enumValues("type")?.first ?? "BTREE"
                checkIndexType(type, columns: columns, table: table, at: index.location)
                let descending = index.enumValues("order")?.map { $0 == "DESC" } ?? []
                table.indexes.append(
                    Index(
                        name: index.string("name") ?? "\(table.sqlName)_\(sqlNames(columns))_idx", fields: columns,
                        descending: columns.indices.map { $0 < descending.count ? descending[$0] : false }, type: type))
            }
        }
        for unique in definition.directives.all(named: "unique") {
            guard let fields = unique.strings("fields"), !fields.isEmpty else {
                errors.append(
                    Diagnostic(
                        file: unique.location.file, location: unique.location.start,
                        message: "@unique on a type needs fields: [...]"))
                continue
            }
            guard let columns = columnsFor(fields, at: unique.location(of: "fields"), in: table, errors: &errors) else {
                continue
            }
            table.uniqueConstraints.append(
                UniqueConstraint(
                    name: unique.string("indexName") ?? "\(table.sqlName)_\(sqlNames(columns))_uidx", fields: columns))
            if fields.count == 1, let ref = table.references.firstIndex(where: { $0.name == fields[0] }) {
                table.references[ref].isOneToOne = true
            }
        }
        for index in definition.directives.all(named: "index") {
            guard let fields = index.strings("fields"), !fields.isEmpty else {
                errors.append(
                    Diagnostic(
                        file: index.location.file, location: index.location.start,
                        message: "@index on a type needs fields: [...]"))
                continue
            }
            guard let columns = columnsFor(fields, at: index.location(of: "fields"), in: table, errors: &errors) else {
                continue
            }
            let orders = index.enumValues("order") ?? []
            if !orders.isEmpty && orders.count != fields.count {
                errors.append(
                    Diagnostic(
                        file: index.location.file, location: index.location(of: "order").start,
                        message: "@index(order:) needs one entry per field (\(fields.count))"))
                continue
            }
            let descending = orders.map { $0 == "DESC" }
            let type = index.enumValues("type")?.first ?? "BTREE"
            checkIndexType(type, columns: columns, table: table, at: index.location)
            let suffix =
                (orders.isEmpty ? Array(repeating: "a", count: columns.count) : descending.map { $0 ? "d" : "a" })
                .joined()
            table.indexes.append(
                Index(
                    name: index.string("name") ?? "\(table.sqlName)_\(sqlNames(columns))_\(suffix)_idx",
                    fields: columns,
                    descending: columns.indices.map { $0 < descending.count ? descending[$0] : false }, type: type))
        }
        var names: Set<String> = []
        for constraint in table.uniqueConstraints where !names.insert(constraint.name).inserted {
            errors.append(
                Diagnostic(
                    file: table.location.file, location: table.location.start,
                    message: "two constraints of \"\(name)\" are both named \"\(constraint.name)\""))
        }
        for index in table.indexes where !names.insert(index.name).inserted {
            errors.append(
                Diagnostic(
                    file: table.location.file, location: table.location.start,
                    message: "two indexes of \"\(name)\" are both named \"\(index.name)\""))
        }
        diagnostics += errors
    }

    mutating func checkIndexType(_ type: String, columns: [String], table: Table, at location: NodeLocation) {
        let isList = columns.contains { table.column($0)?.isList ?? false }
        if isList && type != "GIN" {
            error("an index on a list field must have type: GIN", at: location)
        } else if type != "BTREE" {
            warning(
                "@index(type: \(type)) is a PostgreSQL index type; the SQLite backend creates a plain index",
                at: location)
        }
    }

    // MARK: - Stage 6: relations and names

    mutating func checkRootFieldNames() {
        var owners: [String: String] = [:]
        for table in model.tables {
            for name in [table.singular, table.plural] {
                if let owner = owners[name], owner != table.name {
                    error(
                        "the generated field \"\(name)\" of \"\(table.name)\" collides with one of \"\(owner)\"; set @table(singular:) or @table(plural:)",
                        at: table.location)
                }
                owners[name] = table.name
            }
            if table.singular == table.plural {
                error(
                    "\"\(table.name)\" has the same singular and plural name \"\(table.singular)\"; set @table(plural:)",
                    at: table.location)
            }
            var sqlNames: [String: String] = [:]
            let lengths = Self.lengthCounts(table.columns.map(\.sqlName))
            for column in table.columns where lengths[column.sqlName.utf8.count, default: 0] > 1 {
                let key = Self.sqlIdentifierKey(column.sqlName)
                if let other = sqlNames[key] {
                    error(
                        "fields \"\(other)\" and \"\(column.name)\" of \"\(table.name)\" map to the same column \"\(column.sqlName)\"",
                        at: column.location)
                }
                sqlNames[key] = column.name
            }
        }
        var sqlTables: [String: String] = [:]
        let lengths = Self.lengthCounts(model.tables.map(\.sqlName))
        for table in model.tables where lengths[table.sqlName.utf8.count, default: 0] > 1 {
            let key = Self.sqlIdentifierKey(table.sqlName)
            if let other = sqlTables[key] {
                error(
                    "tables \"\(other)\" and \"\(table.name)\" map to the same SQL table \"\(table.sqlName)\"",
                    at: table.location)
            }
            sqlTables[key] = table.name
        }
    }

    /// A SQL identifier as SQLite compares identifiers: ASCII letters without case.
    static func sqlIdentifierKey(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 &- UInt8(ascii: "A") < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// How many names have each UTF-8 length. Identifiers that SQLite takes for the same have the same
    /// length, so only names sharing a length are compared, and long generated names
    /// (`next_next_next_id`) are not folded and hashed for nothing.
    static func lengthCounts(_ names: [String]) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for name in names { counts[name.utf8.count, default: 0] += 1 }
        return counts
    }

    mutating func buildRelations() {
        var relations: [String: [Relation]] = [:]
        for table in model.tables {
            for reference in table.references {
                relations[table.name, default: []].append(
                    Relation(
                        name: reference.name, target: reference.target, kind: .forward(reference: reference.name),
                        isList: false))
            }
        }
        for table in model.tables {
            for reference in table.references {
                let name =
                    reference.isOneToOne
                    ? "\(table.singular)_on_\(reference.name)" : "\(table.plural)_on_\(reference.name)"
                let kind: RelationKind =
                    reference.isOneToOne
                    ? .reverseOne(table: table.name, reference: reference.name)
                    : .reverseMany(table: table.name, reference: reference.name)
                relations[reference.target, default: []].append(
                    Relation(name: name, target: table.name, kind: kind, isList: !reference.isOneToOne))
            }
            if let (a, b) = table.joinReferences, let tableA = model.table(a.target), let tableB = model.table(b.target)
            {
                relations[a.target, default: []].append(
                    Relation(
                        name: "\(tableB.plural)_via_\(table.name)", target: b.target,
                        kind: .manyToMany(join: table.name, near: a.name, far: b.name), isList: true))
                if a.target != b.target || a.name != b.name {
                    let reverse = Relation(
                        name: "\(tableA.plural)_via_\(table.name)", target: a.target,
                        kind: .manyToMany(join: table.name, near: b.name, far: a.name), isList: true)
                    if !(relations[b.target]?.contains { $0.name == reverse.name } ?? false) {
                        relations[b.target, default: []].append(reverse)
                    }
                }
            }
        }
        for table in model.tables {
            let generated = (relations[table.name] ?? []).filter {
                if case .forward = $0.kind { false } else { true }
            }
            guard !generated.isEmpty else { continue }
            // Only names as long as a generated one can collide with it: longer ones are not hashed.
            let lengths = Set(generated.map(\.name.utf8.count))
            var names = Set(
                (table.columns.map(\.name) + table.references.map(\.name)).filter { lengths.contains($0.utf8.count) })
            for relation in generated where !names.insert(relation.name).inserted {
                error(
                    "the generated relation field \"\(table.name).\(relation.name)\" collides with another field of the same name",
                    at: table.location)
            }
        }
        model.relations = relations
        for table in model.tables { checkGeneratedFieldNames(table) }
    }

    /// Rule: a declared field does not take the name of a field the API generates for another one
    /// (`year_count` beside `year`, `title_expr` beside `title`).
    ///
    /// A generated name is `<column>_<variant>` and no variant contains `_`, so each declared name is split
    /// at its last `_` and only the column it names is looked at.
    mutating func checkGeneratedFieldNames(_ table: Table) {
        for column in table.columns where column.origin == .declared {
            guard let underscore = column.name.lastIndex(of: "_"), underscore != column.name.startIndex else {
                continue
            }
            let variant = String(column.name[column.name.index(after: underscore)...])
            let originName = String(column.name[..<underscore])
            guard let origin = table.column(originName), let kind = Self.generatedVariants(of: origin)[variant] else {
                continue
            }
            error(
                "field \"\(table.name).\(column.name)\" collides with the generated \(kind) field \"\(column.name)\" of \"\(table.name).\(origin.name)\"; rename it",
                at: column.location)
        }
    }

    /// The suffixes of the fields the API generates for a column, with the kind of each.
    static func generatedVariants(of column: Column) -> [String: String] {
        var variants = ["count": "aggregate", "expr": "input", "update": "input", "date": "input", "time": "input"]
        if case .scalar(let scalar) = column.type, !column.isList {
            var aggregates: [String] = []
            if scalar.isNumeric { aggregates += ["sum", "avg"] }
            if scalar.isOrderedForAggregates { aggregates += ["min", "max"] }
            for function in aggregates { variants[function] = "aggregate" }
        }
        return variants
    }

    /// Rule: a declared type name is not one the API generates for a table or enum (`Movie_Data`).
    mutating func checkTypeNamesAgainstGeneratedNames(_ enums: [EnumTypeDefinition]) {
        var reserved: [String: String] = [:]
        for table in tableDefinitions {
            for suffix in ["_KeyOutput", "_Key", "_Data", "_Filter", "_ListFilter", "_Order", "_Having", "_FirstRow"] {
                reserved[table.name.value + suffix] = "table \"\(table.name.value)\""
            }
        }
        for e in enums {
            for suffix in ["_Filter", "_ListFilter"] { reserved[e.name.value + suffix] = "enum \"\(e.name.value)\"" }
        }
        let declared: [Name] = tableDefinitions.map(\.name) + enums.map(\.name)
        for name in declared {
            if let owner = reserved[name.value] {
                error("type name \"\(name.value)\" is reserved for a type generated for \(owner)", at: name.location)
            }
        }
    }
}

extension Array where Element == Diagnostic {
    /// The diagnostics without repeats, in their first order.
    func uniqued() -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return filter { seen.insert($0).inserted }
    }
}
