import GraphQLLanguage

/// The scalar types a column can have.
public enum ScalarType: String, Sendable, Hashable, CaseIterable {
    case string = "String"
    case int = "Int"
    case int64 = "Int64"
    case float = "Float"
    case boolean = "Boolean"
    case uuid = "UUID"
    case date = "Date"
    case timestamp = "Timestamp"
    case any = "Any"
    case vector = "Vector"

    /// Whether `_sum` and `_avg` aggregates apply.
    public var isNumeric: Bool { self == .int || self == .int64 || self == .float }
    /// Whether `_min` and `_max` aggregates apply (numbers, dates and timestamps).
    public var isOrderedForAggregates: Bool { isNumeric || self == .date || self == .timestamp }
    /// Whether a CEL `_Expr` twin exists.
    public var hasExpr: Bool { Prelude.scalarsWithExpr.contains(rawValue) }
}

/// A column's value type: a built-in scalar or a user enum.
public enum ColumnType: Sendable, Hashable, CustomStringConvertible {
    case scalar(ScalarType)
    case enumeration(String)

    /// The GraphQL type name.
    public var graphQLName: String {
        switch self {
        case .scalar(let s): s.rawValue
        case .enumeration(let e): e
        }
    }

    public var description: String { graphQLName }
}

/// Where a column came from.
public enum ColumnOrigin: Sendable, Hashable {
    /// Declared in the schema.
    case declared
    /// The implicit `id: UUID!` key.
    case implicitKey
    /// A foreign-key field added for a reference (`chefId` for `chef: Chef!`).
    case implicitForeignKey(reference: String)
}

/// A column default (`@default`).
public enum ColumnDefault: Sendable, Hashable {
    /// `@default(value:)`: a constant, as written.
    case value(Value)
    /// `@default(expr:)`: a CEL expression such as `uuidV4()`, `auth.uid` or `request.time`.
    case expression(String)
    /// `@default(sql:)`: a SQL expression, as written. The portable ones (`now()`, `CURRENT_DATE`,
    /// `gen_random_uuid()`, constants) are translated for each database; any other is PostgreSQL SQL that runs
    /// as written (on SQLite only when SQLite accepts it).
    case sql(String)
}

/// One column of a table.
public struct Column: Sendable, Hashable {
    /// The GraphQL field name (`releaseYear`).
    public var name: String
    /// The SQL column name (`release_year`).
    public var sqlName: String
    /// The element type.
    public var type: ColumnType
    /// Whether the column holds a list (`[String]`).
    public var isList: Bool
    /// Whether the field is non-null (`String!`).
    public var isNonNull: Bool
    /// `@col(dataType:)`, as written.
    public var dataType: String?
    /// The `n` of `varchar(n)`.
    public var maxLength: Int?
    /// `@col(size:)`, for vectors.
    public var size: Int?
    /// `@default`.
    public var defaultValue: ColumnDefault?
    /// Declared, implicit key, or implicit foreign key.
    public var origin: ColumnOrigin
    /// The field's description or the `#` comments above it.
    public var documentation: String?
    /// Where the field was declared (the reference field for implicit foreign keys).
    public var location: NodeLocation

    /// Creates a column.
    public init(
        name: String, sqlName: String, type: ColumnType, isList: Bool, isNonNull: Bool, dataType: String? = nil,
        maxLength: Int? = nil, size: Int? = nil, defaultValue: ColumnDefault? = nil, origin: ColumnOrigin = .declared,
        documentation: String? = nil, location: NodeLocation = .synthesized
    ) {
        self.name = name
        self.sqlName = sqlName
        self.type = type
        self.isList = isList
        self.isNonNull = isNonNull
        self.dataType = dataType
        self.maxLength = maxLength
        self.size = size
        self.defaultValue = defaultValue
        self.origin = origin
        self.documentation = documentation
        self.location = location
    }

    /// Whether `@col(dataType:)` makes the column auto-numbered (`serial`, `bigserial`, `smallserial` and their
    /// aliases): the database assigns the next number when an insert does not give one.
    public var isSerial: Bool {
        guard let dataType else { return false }
        return SQLDataType.serialTypes.contains(dataType.lowercased().filter { !$0.isWhitespace })
    }

    /// The GraphQL type of the field: `String!`, `[String]`, `[String!]` (lists hold non-null elements).
    public var graphQLType: String {
        let element = isList ? "[\(type.graphQLName)!]" : type.graphQLName
        return isNonNull ? element + "!" : element
    }
}

/// What happens to referencing rows when the referenced row is deleted.
public enum ReferentialAction: String, Sendable, Hashable {
    case cascade = "CASCADE"
    case setNull = "SET NULL"
}

/// A many-to-one reference (`chef: Chef!`), stored as foreign-key columns.
public struct Reference: Sendable, Hashable {
    /// The reference field's name (`chef`).
    public var name: String
    /// The referenced table's type name (`Chef`).
    public var target: String
    /// Whether the field is non-null.
    public var isNonNull: Bool
    /// The local foreign-key columns' field names (`chefId`), in the order of `targetFields`.
    public var foreignKeyFields: [String]
    /// The referenced fields on the target (its key, or a `@unique` field set).
    public var targetFields: [String]
    /// The constraint name (`recipe_chef_id_fkey`).
    public var constraintName: String
    /// CASCADE for required references, SET NULL for optional ones.
    public var onDelete: ReferentialAction
    /// Whether the reference is one-to-one (`@unique`, or the whole primary key).
    public var isOneToOne: Bool
    /// The field's description or comments.
    public var documentation: String?
    /// Where the reference was declared.
    public var location: NodeLocation
}

/// A unique constraint (`@unique`).
public struct UniqueConstraint: Sendable, Hashable {
    /// The constraint or index name (`recipe_title_uidx`).
    public var name: String
    /// The constrained columns' field names.
    public var fields: [String]
}

/// An index (`@index`).
public struct Index: Sendable, Hashable {
    /// The index name (`recipe_year_idx`).
    public var name: String
    /// The indexed columns' field names.
    public var fields: [String]
    /// `ASC`/`DESC` per field.
    public var descending: [Bool]
    /// `BTREE`, `GIN`, `HNSW` or `IVFFLAT`.
    public var type: String
}

/// Where the rows of a `@view` type come from.
public enum ViewSource: Sendable, Hashable {
    /// `@view(sql:)`: the view's `SELECT`, created by the emulator.
    case sql(String)
    /// `@view(name:)`: a view that already exists in the database.
    case name(String)
}

/// A table declared with `@table`, or a read-only view declared with `@view`.
public struct Table: Sendable, Hashable {
    /// The GraphQL type name (`RecipeNote`).
    public var name: String
    /// The SQL table name (`recipe_note`).
    public var sqlName: String
    /// The singular root-field name (`recipeNote`).
    public var singular: String
    /// The plural root-field name (`recipeNotes`).
    public var plural: String
    /// Columns in declaration order, implicit ones included (the implicit `id` first, a reference's
    /// foreign-key columns right after the reference).
    public var columns: [Column]
    /// References in declaration order.
    public var references: [Reference]
    /// The primary key as column field names (`["recipeId", "cookId"]`).
    public var primaryKey: [String]
    /// The key as declared: field names, possibly naming references (`["recipe", "cook"]`).
    public var declaredKey: [String]
    /// Unique constraints.
    public var uniqueConstraints: [UniqueConstraint]
    /// Indexes.
    public var indexes: [Index]
    /// The type's description or comments.
    public var documentation: String?
    /// Where the type was declared.
    public var location: NodeLocation
    /// For a `@view` type, where its rows come from; `nil` for a table. A view has no key (so no lookup, no
    /// mutations and no `_id`), every field is nullable, and nothing references it.
    public var view: ViewSource? = nil

    /// Whether the type is a read-only view.
    public var isView: Bool { view != nil }
    /// The full-text search over the `@searchable` fields, when the table has any.
    public var search: TableSearch? = nil

    /// The column with this field name.
    public func column(_ name: String) -> Column? { columns.first { $0.name == name } }
    /// The reference with this field name.
    public func reference(_ name: String) -> Reference? { references.first { $0.name == name } }
    /// The primary-key columns.
    public var keyColumns: [Column] { primaryKey.compactMap { column($0) } }
    /// Whether the table's primary key is exactly two references: a many-to-many join table.
    public var joinReferences: (Reference, Reference)? {
        guard declaredKey.count == 2,
            let a = reference(declaredKey[0]), let b = reference(declaredKey[1])
        else { return nil }
        return (a, b)
    }
}

/// A user enum.
public struct EnumType: Sendable, Hashable {
    /// The enum's name.
    public var name: String
    /// Values in declaration order (the order `orderBy` and comparisons follow).
    public var values: [String]
    /// The description or comments.
    public var documentation: String?
    /// Where the enum was declared.
    public var location: NodeLocation
}

/// How a table is reached from another one (generated relation fields).
public enum RelationKind: Sendable, Hashable {
    /// `recipe.chef`: the declared reference.
    case forward(reference: String)
    /// `chef.recipes_on_chef`: rows of `table` whose `reference` points here.
    case reverseMany(table: String, reference: String)
    /// `recipe.recipeNote_on_recipe`: the one row of `table` whose one-to-one `reference` points here.
    case reverseOne(table: String, reference: String)
    /// `recipe.cooks_via_Bookmark`: rows of the other side through join table `join`, whose
    /// reference `near` points here and `far` points at the target.
    case manyToMany(join: String, near: String, far: String)
}

/// A relation field generated on a table type.
public struct Relation: Sendable, Hashable {
    /// The field name (`recipes_on_chef`).
    public var name: String
    /// The table the field returns rows of.
    public var target: String
    /// How it is reached.
    public var kind: RelationKind
    /// Whether the field returns a list.
    public var isList: Bool
}

/// The compiled schema: tables, enums and the relations between tables.
public struct SchemaModel: Sendable {
    /// Tables in declaration order.
    public var tables: [Table]
    /// User enums in declaration order.
    public var enums: [EnumType]
    /// Generated relation fields per table type name (forward and reverse).
    public var relations: [String: [Relation]]

    /// The table with this type name.
    public func table(_ name: String) -> Table? { tables.first { $0.name == name } }
    /// The enum with this name.
    public func enumType(_ name: String) -> EnumType? { enums.first { $0.name == name } }
}
