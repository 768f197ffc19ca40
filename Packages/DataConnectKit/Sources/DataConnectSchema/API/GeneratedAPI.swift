import GraphQLLanguage

/// An aggregate function on a column.
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    case count, sum, avg, min, max
}

/// What a field of the generated API means: how the emulator executes it and how codegen types it.
public enum APIFieldRole: Sendable, Hashable {
    /// A stored column of `table`.
    case column(table: String, column: String)
    /// A relation field of `table` (forward or reverse).
    case relation(table: String, relation: Relation)
    /// `_id`: the entity id derived from the key.
    case entityId(table: String)
    /// `_count`: the number of rows in the group.
    case rowCount(table: String)
    /// `<column>_count`, `_sum`, `_avg`, `_min`, `_max`.
    case aggregate(table: String, column: String, function: AggregateFunction)
    /// `Query.x`: one row by id, key or first match.
    case lookup(table: String)
    /// `Query.xs`: a list of rows.
    case list(table: String)
    /// `Mutation.x_insert`.
    case insert(table: String)
    /// `Mutation.x_insertMany`.
    case insertMany(table: String)
    /// `Mutation.x_upsert`.
    case upsert(table: String)
    /// `Mutation.x_upsertMany`.
    case upsertMany(table: String)
    /// `Mutation.x_update`.
    case update(table: String)
    /// `Mutation.x_updateMany`.
    case updateMany(table: String)
    /// `Mutation.x_delete`.
    case delete(table: String)
    /// `Mutation.x_deleteMany`.
    case deleteMany(table: String)
    /// `Mutation.query`: a read inside a mutation.
    case mutationQuery
    /// `Query._service`.
    case service
    /// A native SQL root field: `Query._select`/`_selectFirst`, `Mutation._execute`/`_executeReturning`/
    /// `_executeReturningFirst`.
    case nativeSQL(NativeSQLField)
    /// A root field of a custom resolver schema: forwarded to the endpoint of the `schemas:` entry `schema`.
    case remote(schema: String)
    /// `_metadata`: the distance or relevance of a row returned by a similarity or search field.
    case metadata(table: String)
    /// `Query.xs_<column>_similarity`: rows by ascending distance of the `Vector` column to a given vector.
    case similarity(table: String, column: String)
    /// `Query.xs_search`: rows matching a full-text query over the `@searchable` fields, by relevance.
    case search(table: String)
}

/// The GraphQL API generated from a schema: the SDL definitions, a type system that includes the
/// prelude, and the role of every generated field.
///
/// Built once per schema and shared by operation validation, code generation and the emulator.
public struct GeneratedAPI: Sendable {
    /// The compiled schema the API was generated from.
    public let model: SchemaModel
    /// The generated definitions (the prelude's are in ``Prelude``), in print order.
    public let definitions: [Definition]
    /// Prelude plus generated types.
    public let typeSystem: TypeSystem
    /// The custom resolver schemas merged into the API, in `schemas:` order.
    public let remoteSchemas: [RemoteSchema]
    /// Type → field → role.
    private let roles: [String: [String: APIFieldRole]]

    /// Generates the API of a compiled schema, with the root fields and types of custom resolver schemas.
    ///
    /// The remote schemas must not clash with the generated names or with each other; use
    /// ``merging(model:remoteSchemas:)`` to check them first.
    public init(model: SchemaModel, remoteSchemas: [RemoteSchema] = []) {
        var builder = APIBuilder(model: model)
        builder.remoteSchemas = remoteSchemas
        builder.build()
        self.model = model
        self.remoteSchemas = remoteSchemas
        self.definitions = builder.definitions
        self.roles = builder.roles
        var system = TypeSystem.build(
            from: PreludeTypeSystem.definitions + IntrospectionTypes.definitions + builder.definitions
        ).0
        system.queryType = "Query"
        system.mutationType = "Mutation"
        self.typeSystem = system
    }

    /// The role of a field of the generated API, or `nil` for `__typename` and prelude types.
    public func role(of field: String, on type: String) -> APIFieldRole? {
        roles[type]?[field]
    }

    /// The generated API as SDL.
    ///
    /// - Parameter includePrelude: whether to print the prelude's definitions first.
    public func sdl(includePrelude: Bool = false) -> String {
        var parts: [String] = []
        if includePrelude { parts.append(GraphQLPrinter.print(Document(definitions: PreludeTypeSystem.definitions))) }
        parts.append(GraphQLPrinter.print(Document(definitions: definitions)))
        return parts.joined(separator: "\n\n") + "\n"
    }
}

/// Builds the generated definitions (graphql-js style SDL AST) for every table.
struct APIBuilder {
    let model: SchemaModel
    var definitions: [Definition] = []
    var roles: [String: [String: APIFieldRole]] = [:]
    var queryFields: [FieldDefinition] = []
    var mutationFields: [FieldDefinition] = []
    var remoteSchemas: [RemoteSchema] = []

    init(model: SchemaModel) {
        self.model = model
    }

    // MARK: Small constructors

    static func type(_ text: String) -> TypeReference {
        if text.hasSuffix("!") { return .nonNull(type(String(text.dropLast())), .synthesized) }
        if text.hasPrefix("[") && text.hasSuffix("]") {
            return .list(type(String(text.dropFirst().dropLast())), .synthesized)
        }
        return .named(Name(text))
    }

    static func description(_ text: String?) -> StringValue? {
        guard let text, !text.isEmpty else { return nil }
        return StringValue(text, isBlock: text.utf8.contains(UInt8(ascii: "\n")))
    }

    static func input(
        _ name: String, _ type: String, default defaultValue: Value? = nil, directives: [Directive] = [],
        description: String? = nil
    ) -> InputValueDefinition {
        InputValueDefinition(
            description: Self.description(description), name: Name(name), type: Self.type(type),
            defaultValue: defaultValue, directives: directives)
    }

    static func field(
        _ name: String, _ type: String, arguments: [InputValueDefinition] = [], description: String? = nil
    ) -> FieldDefinition {
        FieldDefinition(
            description: Self.description(description), name: Name(name), arguments: arguments, type: Self.type(type))
    }

    static func oneOf(group: String = "", required: Bool = false) -> Directive {
        var arguments: [Argument] = []
        if !group.isEmpty { arguments.append(Argument(name: Name("group"), value: .string(StringValue(group)))) }
        if required { arguments.append(Argument(name: Name("required"), value: .boolean(true, .synthesized))) }
        return Directive(name: Name("fdc_oneOf"), arguments: arguments)
    }

    static let forbiddenInVariables = Directive(name: Name("fdc_forbiddenInVariables"))
    static let int100 = Value.int("100", .synthesized)
    static let falseValue = Value.boolean(false, .synthesized)

    mutating func setRole(_ role: APIFieldRole, _ field: String, on type: String) {
        roles[type, default: [:]][field] = role
    }

    // MARK: Build

    mutating func build() {
        for e in model.enums { buildEnum(e) }
        for table in model.tables { buildTable(table) }
        let service = Self.field("_service", "_Service!", description: "The service's schema.")
        queryFields.append(service)
        setRole(.service, "_service", on: "Query")
        buildNativeSQLFields()
        mutationFields.append(
            Self.field(
                "query", "Query",
                description: "Runs a query inside the mutation, e.g. to @check a condition before a write."))
        setRole(.mutationQuery, "query", on: "Mutation")
        buildRemoteSchemas()
        definitions.append(.type(.object(ObjectTypeDefinition(name: Name("Query"), fields: queryFields))))
        definitions.append(.type(.object(ObjectTypeDefinition(name: Name("Mutation"), fields: mutationFields))))
    }

    mutating func buildEnum(_ e: EnumType) {
        definitions.append(
            .type(
                .enum(
                    EnumTypeDefinition(
                        description: Self.description(e.documentation), name: Name(e.name),
                        values: e.values.map { EnumValueDefinition(name: Name($0)) }))))
        let n = e.name
        definitions.append(
            .type(
                .inputObject(
                    InputObjectTypeDefinition(
                        description: Self.description("Conditions on a \(n) value."), name: Name("\(n)_Filter"),
                        fields: [
                            Self.input("isNull", "Boolean"), Self.input("eq", n), Self.input("ne", n),
                            Self.input("in", "[\(n)!]"), Self.input("nin", "[\(n)!]"),
                        ]))))
        definitions.append(
            .type(
                .inputObject(
                    InputObjectTypeDefinition(
                        description: Self.description("Conditions on a list of \(n)."), name: Name("\(n)_ListFilter"),
                        fields: [
                            Self.input("includes", n), Self.input("excludes", n),
                            Self.input("includesAll", "[\(n)!]"), Self.input("excludesAll", "[\(n)!]"),
                        ]))))
    }

    /// The list arguments of `xs` and of reverse list fields, typed on `table`.
    static func listArguments(_ table: String) -> [InputValueDefinition] {
        [
            input("where", "\(table)_Filter"),
            input("orderBy", "[\(table)_Order!]"),
            input("offset", "Int"),
            input("limit", "Int", default: int100),
            input("distinct", "Boolean", default: falseValue),
            input("having", "\(table)_Having"),
        ]
    }

    /// The row selectors of `x`, `x_update` and `x_delete`.
    static func selectorArguments(_ table: Table) -> [InputValueDefinition] {
        var arguments: [InputValueDefinition] = []
        let required = oneOf(required: true)
        if table.primaryKey == ["id"], let id = table.column("id") {
            arguments.append(input("id", id.type.graphQLName, directives: [required]))
            if id.type == .scalar(.string) {
                arguments.append(input("id_expr", "String_Expr", directives: [required]))
            }
        }
        arguments.append(input("key", "\(table.name)_Key", directives: [required]))
        arguments.append(input("first", "\(table.name)_FirstRow", directives: [required]))
        return arguments
    }

    static func aggregateType(_ scalar: ScalarType, _ function: AggregateFunction) -> String? {
        switch function {
        case .count: "Int!"
        case .sum: scalar.isNumeric ? scalar.rawValue : nil
        case .avg: scalar.isNumeric ? "Float" : nil
        case .min, .max: scalar.isOrderedForAggregates ? scalar.rawValue : nil
        }
    }

    mutating func buildTable(_ table: Table) {
        let n = table.name
        var fields: [FieldDefinition] = []
        for column in table.columns {
            fields.append(Self.field(column.name, column.graphQLType, description: column.documentation))
            setRole(.column(table: n, column: column.name), column.name, on: n)
        }
        for relation in model.relations[n] ?? [] {
            switch relation.kind {
            case .forward(let referenceName):
                let reference = table.reference(referenceName)!
                fields.append(
                    Self.field(
                        relation.name, reference.isNonNull ? "\(relation.target)!" : relation.target,
                        description: reference.documentation))
            case .reverseOne(let other, let via):
                fields.append(
                    Self.field(
                        relation.name, other, description: "The \(other) whose `\(via)` is this \(n) (one-to-one)."))
            case .reverseMany(let other, let via):
                fields.append(
                    Self.field(
                        relation.name, "[\(other)!]!", arguments: Self.listArguments(other),
                        description: "The \(model.table(other)?.plural ?? other) whose `\(via)` is this \(n)."))
            case .manyToMany(let join, _, _):
                fields.append(
                    Self.field(
                        relation.name, "[\(relation.target)!]!", arguments: Self.listArguments(join),
                        description:
                            "The \(model.table(relation.target)?.plural ?? relation.target) linked to this \(n) through \(join); `where` and `orderBy` apply to \(join)."
                    ))
            }
            setRole(.relation(table: n, relation: relation), relation.name, on: n)
        }
        fields.append(
            Self.field("_metadata", "_Metadata", description: "Extra information about this row in search results."))
        setRole(.metadata(table: n), "_metadata", on: n)
        if !table.isView {
            fields.append(
                Self.field("_id", "ID!", description: "An opaque, stable id of this row, derived from its key."))
            setRole(.entityId(table: n), "_id", on: n)
        }
        fields.append(Self.field("_count", "Int!", description: "The number of rows (an aggregate)."))
        setRole(.rowCount(table: n), "_count", on: n)
        let distinct = [Self.input("distinct", "Boolean", default: Self.falseValue)]
        for column in table.columns {
            guard case .scalar(let scalar) = column.type, !column.isList else {
                fields.append(Self.field("\(column.name)_count", "Int!", arguments: distinct))
                setRole(.aggregate(table: n, column: column.name, function: .count), "\(column.name)_count", on: n)
                continue
            }
            for function in AggregateFunction.allCases {
                guard let type = Self.aggregateType(scalar, function) else { continue }
                let name = "\(column.name)_\(function.rawValue)"
                let arguments = (function == .min || function == .max) ? [] : distinct
                fields.append(Self.field(name, type, arguments: arguments))
                setRole(.aggregate(table: n, column: column.name, function: function), name, on: n)
            }
        }
        definitions.append(
            .type(
                .object(
                    ObjectTypeDefinition(
                        description: Self.description(table.documentation), name: Name(n),
                        directives: [typeDirective(table)], fields: fields))
            ))
        if !table.isView {
            definitions.append(
                .type(
                    .scalar(
                        ScalarTypeDefinition(
                            description: Self.description("The key of a \(n): a JSON object of its key fields."),
                            name: Name("\(n)_KeyOutput")))))
        }

        buildRootFields(table)
        buildInputs(table)
    }

    /// `@table(...)` of a table, `@view(...)` of a view, as the generated SDL declares them.
    func typeDirective(_ table: Table) -> Directive {
        guard let view = table.view else { return Directive(name: Name("table"), arguments: tableArguments(table)) }
        let source: Argument =
            switch view {
            case .sql(let sql): Argument(name: Name("sql"), value: .string(StringValue(sql)))
            case .name(let name): Argument(name: Name("name"), value: .string(StringValue(name)))
            }
        return Directive(
            name: Name("view"),
            arguments: [
                source, Argument(name: Name("singular"), value: .string(StringValue(table.singular))),
                Argument(name: Name("plural"), value: .string(StringValue(table.plural))),
            ])
    }

    func tableArguments(_ table: Table) -> [Argument] {
        [
            Argument(name: Name("name"), value: .string(StringValue(table.sqlName))),
            Argument(name: Name("singular"), value: .string(StringValue(table.singular))),
            Argument(name: Name("plural"), value: .string(StringValue(table.plural))),
            Argument(name: Name("key"), value: .list(table.primaryKey.map { .string(StringValue($0)) }, .synthesized)),
        ]
    }

    mutating func buildRootFields(_ table: Table) {
        let n = table.name
        let s = table.singular
        let p = table.plural
        if !table.isView {
            queryFields.append(
                Self.field(
                    s, n, arguments: Self.selectorArguments(table),
                    description: "Looks up one \(n) by its id, key or first match; null when none matches."))
            setRole(.lookup(table: n), s, on: "Query")
        }
        queryFields.append(Self.field(p, "[\(n)!]!", arguments: Self.listArguments(n), description: "Lists \(n) rows."))
        setRole(.list(table: n), p, on: "Query")
        // A view is read-only and has no key (nor search or similarity fields, which rank rows by key).
        if table.isView { return }
        buildSearchFields(table)

        let data = Self.input("data", "\(n)_Data!")
        let mutations: [(String, String, [InputValueDefinition], APIFieldRole, String)] = [
            ("\(s)_insert", "\(n)_KeyOutput!", [data], .insert(table: n), "Inserts one \(n) and returns its key."),
            (
                "\(s)_insertMany", "[\(n)_KeyOutput!]!", [Self.input("data", "[\(n)_Data!]!")], .insertMany(table: n),
                "Inserts \(n) rows and returns their keys."
            ),
            (
                "\(s)_upsert", "\(n)_KeyOutput!", [data], .upsert(table: n),
                "Inserts one \(n), or updates the given fields when its key exists."
            ),
            (
                "\(s)_upsertMany", "[\(n)_KeyOutput!]!", [Self.input("data", "[\(n)_Data!]!")], .upsertMany(table: n),
                "Upserts \(n) rows."
            ),
            (
                "\(s)_update", "\(n)_KeyOutput", Self.selectorArguments(table) + [data], .update(table: n),
                "Updates the given fields of one \(n); null when no row matches."
            ),
            (
                "\(s)_updateMany", "Int!",
                [Self.input("where", "\(n)_Filter"), Self.input("all", "Boolean", default: Self.falseValue), data],
                .updateMany(table: n),
                "Updates every \(n) matching `where` (or all with `all: true`); returns the count."
            ),
            (
                "\(s)_delete", "\(n)_KeyOutput", Self.selectorArguments(table), .delete(table: n),
                "Deletes one \(n); null when no row matches."
            ),
            (
                "\(s)_deleteMany", "Int!",
                [Self.input("where", "\(n)_Filter"), Self.input("all", "Boolean", default: Self.falseValue)],
                .deleteMany(table: n),
                "Deletes every \(n) matching `where` (or all with `all: true`); returns the count."
            ),
        ]
        _ = p
        for (name, type, arguments, role, doc) in mutations {
            mutationFields.append(Self.field(name, type, arguments: arguments, description: doc))
            setRole(role, name, on: "Mutation")
        }
    }

    func filterType(_ column: Column) -> String {
        switch column.type {
        case .enumeration(let e): column.isList ? "\(e)_ListFilter" : "\(e)_Filter"
        case .scalar(let s): column.isList ? "\(s.rawValue)_ListFilter" : "\(s.rawValue)_Filter"
        }
    }

    mutating func addInput(_ name: String, _ fields: [InputValueDefinition], description: String) {
        definitions.append(
            .type(
                .inputObject(
                    InputObjectTypeDefinition(
                        description: Self.description(description), name: Name(name), fields: fields))))
    }

    mutating func buildInputs(_ table: Table) {
        if !table.isView { buildKeyAndDataInputs(table) }
        buildFilterInputs(table)
    }

    /// `X_FirstRow`, `X_Key` and `X_Data`: the inputs of lookups and writes, which views do not have.
    mutating func buildKeyAndDataInputs(_ table: Table) {
        let n = table.name
        addInput(
            "\(n)_FirstRow", [Self.input("where", "\(n)_Filter"), Self.input("orderBy", "[\(n)_Order!]")],
            description: "Selects the first \(n) matching `where` in `orderBy` order.")

        // X_Key
        var keyFields: [InputValueDefinition] = []
        for column in table.keyColumns {
            let group = Self.oneOf(group: column.name, required: true)
            keyFields.append(Self.input(column.name, column.type.graphQLName, directives: [group]))
            if case .scalar(let s) = column.type, s.hasExpr {
                keyFields.append(
                    Self.input(
                        "\(column.name)_expr", "\(s.rawValue)_Expr", directives: [group, Self.forbiddenInVariables]))
            }
        }
        addInput("\(n)_Key", keyFields, description: "The key of a \(n).")

        // X_Data
        var dataFields: [InputValueDefinition] = []
        for column in table.columns {
            let group = Self.oneOf(group: column.name)
            let element = column.type.graphQLName
            dataFields.append(
                Self.input(
                    column.name, column.isList ? "[\(element)!]" : element, directives: [group],
                    description: column.documentation))
            guard case .scalar(let s) = column.type else { continue }
            let variant = [group, Self.forbiddenInVariables]
            if !column.isList && s.hasExpr {
                dataFields.append(Self.input("\(column.name)_expr", "\(s.rawValue)_Expr", directives: variant))
            }
            if column.isList {
                if s != .vector {
                    dataFields.append(
                        Self.input("\(column.name)_update", "[\(s.rawValue)_ListUpdate!]", directives: variant))
                }
            } else if s.isNumeric || s == .date || s == .timestamp {
                dataFields.append(Self.input("\(column.name)_update", "[\(s.rawValue)_Update!]", directives: variant))
            }
            if !column.isList && s == .date {
                dataFields.append(Self.input("\(column.name)_date", "Date_Relative", directives: variant))
            }
            if !column.isList && s == .timestamp {
                dataFields.append(Self.input("\(column.name)_time", "Timestamp_Relative", directives: variant))
            }
            if !column.isList && s == .vector {
                // The text is usually a variable (`{model: "...", text: $description}`), so the field is allowed
                // inside variable values too; `Vector_Embed` itself cannot be a variable's type.
                dataFields.append(
                    Self.input(
                        "\(column.name)_embed", "Vector_Embed", directives: [group],
                        description: "`\(column.name)` as the embedding of a text, computed by the server."))
            }
        }
        for reference in table.references {
            dataFields.append(
                Self.input(
                    reference.name, "\(reference.target)_Key", directives: [Self.forbiddenInVariables],
                    description:
                        "Sets `\(reference.foreignKeyFields.joined(separator: "`, `"))` from the key of a \(reference.target)."
                ))
        }
        addInput("\(n)_Data", dataFields, description: "The fields of a \(n) to write.")
    }

    /// `X_Filter`, `X_ListFilter`, `X_Order` and `X_Having`.
    mutating func buildFilterInputs(_ table: Table) {
        let n = table.name
        // X_Filter
        var filterFields: [InputValueDefinition] = [
            Self.input("_and", "[\(n)_Filter!]"),
            Self.input("_or", "[\(n)_Filter!]"),
            Self.input("_not", "\(n)_Filter"),
        ]
        for column in table.columns {
            filterFields.append(Self.input(column.name, filterType(column)))
        }
        for relation in model.relations[n] ?? [] {
            switch relation.kind {
            case .forward, .reverseOne: filterFields.append(Self.input(relation.name, "\(relation.target)_Filter"))
            case .reverseMany, .manyToMany:
                filterFields.append(Self.input(relation.name, "\(relation.target)_ListFilter"))
            }
        }
        addInput("\(n)_Filter", filterFields, description: "Conditions on a \(n); sibling fields must all hold.")

        // X_ListFilter
        let gtZero = Value.object([ObjectField(name: Name("gt"), value: .int("0", .synthesized))], .synthesized)
        addInput(
            "\(n)_ListFilter",
            [Self.input("count", "Int_Filter", default: gtZero), Self.input("exist", "\(n)_Filter")],
            description: "Conditions on a list of \(n): how many related rows match `exist`.")

        // X_Order and X_Having
        var orderFields: [InputValueDefinition] = []
        var havingFields: [InputValueDefinition] = [
            Self.input("_and", "[\(n)_Having!]"), Self.input("_or", "[\(n)_Having!]"),
            Self.input("_not", "\(n)_Having"),
            Self.input("_distinct", "Boolean"), Self.input("_count", "Int_Filter"),
        ]
        for column in table.columns where !column.isList {
            if case .scalar(let s) = column.type, s == .any || s == .vector { continue }
            orderFields.append(Self.input(column.name, "OrderDirection"))
        }
        for reference in table.references {
            orderFields.append(Self.input(reference.name, "\(reference.target)_Order"))
        }
        orderFields.append(Self.input("_count", "OrderDirection"))
        for column in table.columns {
            orderFields.append(Self.input("\(column.name)_count", "OrderDirection"))
            havingFields.append(Self.input("\(column.name)_count", "Int_Filter"))
            guard case .scalar(let s) = column.type, !column.isList else { continue }
            for function in [AggregateFunction.sum, .avg, .min, .max] {
                guard let type = Self.aggregateType(s, function) else { continue }
                orderFields.append(Self.input("\(column.name)_\(function.rawValue)", "OrderDirection"))
                havingFields.append(Self.input("\(column.name)_\(function.rawValue)", "\(type)_Filter"))
            }
        }
        addInput("\(n)_Order", orderFields, description: "Sort keys of a \(n).")
        addInput("\(n)_Having", havingFields, description: "Conditions on groups of \(n) rows.")
    }
}
