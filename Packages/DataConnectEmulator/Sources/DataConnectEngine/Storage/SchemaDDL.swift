import DataConnectSchema

/// The SQL that creates a compiled schema's tables and indexes, rendered for one dialect.
///
/// The stages:
/// 1. **Order** the tables so a referenced table comes before the tables referencing it (declaration order
///    otherwise; cycles keep declaration order, which SQLite allows since foreign keys are checked on use).
/// 2. **Translate** each user enum into the dialect's type definition, if it has one (PostgreSQL's
///    `CREATE TYPE ... AS ENUM`), and each table into a ``TableDDL``: columns in model order with the dialect's
///    type, `NOT NULL`, `DEFAULT` and `CHECK`s; the primary key; named foreign keys with
///    `ON DELETE CASCADE | SET NULL`.
/// 3. **Translate** unique constraints into unique indexes, `@index` into indexes, and add an index on every
///    foreign-key column set that no key, unique constraint or index already starts with.
/// 4. **Render** the enum types, then `CREATE TABLE IF NOT EXISTS` and `CREATE [UNIQUE] INDEX IF NOT EXISTS`
///    statements.
///
/// Checks keep values in their storage form where the column's type does not
/// (``SQLDialect/columnChecks(_:quotedName:enumValues:)``): on SQLite, `varchar(n)` gives `length(c) <= n`;
/// enums `c IN (...)`; `Boolean` `c IN (0, 1)`; `UUID` `length(c) = 32`; `Any`, `Vector` and lists
/// `json_valid(c)` (or `NULL` when nullable). PostgreSQL's own types need none. `@default(expr:)` is left to
/// the engine.
///
/// PostgreSQL checks a foreign key when it is created, so a cycle of references between tables (which SQLite
/// accepts, checking keys on use) fails there.
///
/// ```swift
/// let ddl = SchemaDDL(model: model, dialect: store.dialect)
/// try connection.execute(ddl.script)
/// print(ddl.tables[0].createStatement)  // CREATE TABLE IF NOT EXISTS "chef" ( ... )
/// ```
///
/// The output is deterministic: the same model and dialect give the same bytes, and ``fingerprint`` names them.
public struct SchemaDDL: Sendable {
    /// The table where a store's migrator records what it applied: each table's definition and the DDL's
    /// fingerprint. Not one of the schema's tables.
    public static let metadataTable = "_dataconnect_meta"

    /// The dialect the SQL is written in.
    public let dialect: any SQLDialect
    /// The statements that create the user enums' types, in declaration order (none where enum columns need
    /// no type of their own).
    public let enumTypes: [String]
    /// The tables in creation order: referenced tables first where possible.
    public let tables: [TableDDL]
    /// The `@view` types, in declaration order, created after the tables.
    public let views: [ViewDDL]
    /// The full-text indexes of the tables with `@searchable` fields, and the vector copies of the tables with
    /// `Vector` fields where the dialect keeps them, created after every table.
    public let searchIndexes: [SearchIndexDDL]

    /// Translates a model.
    ///
    /// - Parameters:
    ///   - model: The compiled schema.
    ///   - dialect: The SQL dialect of the database (the store's ``DataStore/dialect``).
    public init(model: SchemaModel, dialect: any SQLDialect) {
        self.dialect = dialect
        let translator = TableTranslator(model: model, dialect: dialect)
        self.enumTypes = model.enums.compactMap(dialect.enumTypeDefinition)
        self.tables = Self.dependencyOrder(model.tables.filter { !$0.isView }).map(translator.translate)
        self.views = model.tables.compactMap { table in table.view.map { ViewDDL(table, source: $0, dialect: dialect) }
        }
        self.searchIndexes =
            model.tables.compactMap { table in
                table.search.map { dialect.search.searchIndex(table: table, search: $0) }
            } + model.tables.compactMap { dialect.search.vectorIndex(table: $0) }
    }

    /// Every statement, without a trailing `;`: the enum types, then each table's `CREATE TABLE` followed by its
    /// indexes, then each `@view(sql:)`'s `CREATE VIEW`.
    public var statements: [String] {
        enumTypes + tables.flatMap { [$0.createStatement] + $0.indexes.map(\.statement) }
            + searchIndexes.flatMap { index in
                index.columns.map { index.addColumnStatement($0, quote: dialect.quote) } + index.statements
            }
            + views.compactMap(\.createStatement)
    }

    /// The statements as one script, each ending with `;` on its own line.
    public var script: String {
        statements.map { $0 + ";\n" }.joined()
    }

    /// A stable digest of ``script`` (64-bit FNV-1a, 16 hex digits): equal for equal DDL, across processes.
    public var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in script.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The table with this SQL name.
    public func table(named name: String) -> TableDDL? {
        tables.first { $0.name == name }
    }

    /// Orders tables so that referenced tables come first, keeping declaration order among the rest.
    static func dependencyOrder(_ tables: [Table]) -> [Table] {
        var remaining = tables
        var placed: Set<String> = []
        var ordered: [Table] = []
        while !remaining.isEmpty {
            let ready = remaining.firstIndex { table in
                table.references.allSatisfy { $0.target == table.name || placed.contains($0.target) }
            }
            let next = remaining.remove(at: ready ?? 0)
            placed.insert(next.name)
            ordered.append(next)
        }
        return ordered
    }

    /// Renders `CREATE TABLE` from already rendered column definitions and table constraints.
    package static func createTable(quotedName: String, items: [String], ifNotExists: Bool) -> String {
        let head = ifNotExists ? "CREATE TABLE IF NOT EXISTS " : "CREATE TABLE "
        return head + quotedName + " (\n" + items.map { "    " + $0 }.joined(separator: ",\n") + "\n)"
    }
}

/// One table's definition: columns, keys and indexes, each rendered in the dialect.
public struct TableDDL: Hashable, Sendable {
    /// The SQL table name.
    public var name: String
    /// The GraphQL type name.
    public var typeName: String
    /// The table name, quoted.
    public var quotedName: String
    /// Columns in model order.
    public var columns: [ColumnDDL]
    /// The primary-key column names, in key order.
    public var primaryKey: [String]
    /// The `PRIMARY KEY (...)` table constraint.
    public var primaryKeyDefinition: String
    /// Foreign keys in reference order.
    public var foreignKeys: [ForeignKeyDDL]
    /// Unique indexes, then `@index` indexes, then foreign-key indexes.
    public var indexes: [IndexDDL]

    /// The table constraints: the primary key, then the foreign keys.
    public var constraints: [String] {
        [primaryKeyDefinition] + foreignKeys.map(\.definition)
    }

    /// `CREATE TABLE IF NOT EXISTS ...`.
    public var createStatement: String {
        SchemaDDL.createTable(
            quotedName: quotedName, items: columns.map(\.definition) + constraints, ifNotExists: true)
    }

    /// The column with this SQL name.
    public func column(_ name: String) -> ColumnDDL? {
        columns.first { $0.name == name }
    }
}

/// One column's definition.
public struct ColumnDDL: Hashable, Sendable {
    /// The SQL column name.
    public var name: String
    /// The dialect's type (`TEXT`, `INTEGER`, `REAL`).
    public var type: String
    /// Whether the column is `NOT NULL` (non-null fields and key columns).
    public var isNotNull: Bool
    /// The `DEFAULT` expression, when the DDL carries one.
    public var defaultSQL: String?
    /// The `CHECK` conditions.
    public var checks: [String]
    /// Whether the column belongs to the primary key.
    public var isPrimaryKey: Bool
    /// Whether the column belongs to a foreign key.
    public var isForeignKey: Bool
    /// Whether the database numbers the column itself (PostgreSQL's `GENERATED BY DEFAULT AS IDENTITY`), which
    /// gives the rows already there a value when the column is added.
    public var isIdentity: Bool
    /// The GraphQL field the column stores, for messages (`servings`).
    public var fieldName: String
    /// The rendered definition: `"handle" TEXT NOT NULL CHECK(length("handle") <= 40)`.
    public var definition: String

    /// Whether the default is a constant rather than an expression evaluated per row.
    public var hasConstantDefault: Bool {
        guard let defaultSQL else { return false }
        return !defaultSQL.hasPrefix("(")
    }

    /// Whether adding the column needs a value for each row already there that the database cannot supply: the
    /// column is `NOT NULL`, with no `DEFAULT` and no identity (a `@default(expr:)` is evaluated by the engine
    /// on insert, so it gives existing rows nothing). Adding such a column to a table with rows fails.
    public var needsValueForExistingRows: Bool {
        isNotNull && defaultSQL == nil && !isIdentity
    }
}

/// One foreign key.
public struct ForeignKeyDDL: Hashable, Sendable {
    /// The constraint name (`recipe_chef_id_fkey`).
    public var name: String
    /// The local columns.
    public var columns: [String]
    /// The referenced table.
    public var targetTable: String
    /// The referenced columns.
    public var targetColumns: [String]
    /// `CASCADE` or `SET NULL`.
    public var onDelete: ReferentialAction
    /// `CONSTRAINT "..." FOREIGN KEY (...) REFERENCES "..." (...) ON DELETE ...`.
    public var definition: String
}

/// One index: a unique constraint, an `@index`, or the index on a foreign key.
public struct IndexDDL: Hashable, Sendable {
    /// What the index is for.
    public enum Kind: Hashable, Sendable {
        /// A `@unique` constraint.
        case unique
        /// An `@index`.
        case index
        /// The index on a foreign key's columns (`<table>_<columns>_fkidx`).
        case foreignKey
    }

    /// The index name.
    public var name: String
    /// The table it indexes.
    public var table: String
    /// The indexed columns.
    public var columns: [String]
    /// Whether each column is sorted descending.
    public var descending: [Bool]
    /// What the index is for; unique constraints give unique indexes.
    public var kind: Kind
    /// `CREATE [UNIQUE] INDEX IF NOT EXISTS ...`.
    public var statement: String
    /// The statement as SQLite records it in `sqlite_schema.sql` (without `IF NOT EXISTS`).
    public var recordedSQL: String

    /// Whether the index enforces uniqueness.
    public var isUnique: Bool { kind == .unique }
}

/// Translates one model table into its ``TableDDL``.
private struct TableTranslator {
    let model: SchemaModel
    let dialect: any SQLDialect

    func translate(_ table: Table) -> TableDDL {
        let q = dialect.quote
        func sqlName(_ field: String, in table: Table) -> String {
            table.column(field)?.sqlName ?? field
        }
        let primaryKey = table.primaryKey.map { sqlName($0, in: table) }
        let foreignKeyColumns = Set(table.references.flatMap { $0.foreignKeyFields.map { sqlName($0, in: table) } })
        let columns = table.columns.map { column in
            translate(
                column, isPrimaryKey: primaryKey.contains(column.sqlName),
                isForeignKey: foreignKeyColumns.contains(column.sqlName))
        }
        let foreignKeys = table.references.map { reference -> ForeignKeyDDL in
            let target = model.table(reference.target)
            let local = reference.foreignKeyFields.map { sqlName($0, in: table) }
            let targetTable = target?.sqlName ?? reference.target
            let targetColumns = reference.targetFields.map { field in target.map { sqlName(field, in: $0) } ?? field }
            let definition =
                "CONSTRAINT \(q(reference.constraintName)) FOREIGN KEY (\(local.map(q).joined(separator: ", "))) "
                + "REFERENCES \(q(targetTable)) (\(targetColumns.map(q).joined(separator: ", "))) "
                + "ON DELETE \(reference.onDelete.rawValue)"
            return ForeignKeyDDL(
                name: reference.constraintName, columns: local, targetTable: targetTable, targetColumns: targetColumns,
                onDelete: reference.onDelete, definition: definition)
        }

        var indexes: [IndexDDL] = []
        for unique in table.uniqueConstraints {
            let names = unique.fields.map { sqlName($0, in: table) }
            indexes.append(index(unique.name, table.sqlName, names, names.map { _ in false }, .unique))
        }
        for plain in table.indexes {
            let method = dialect.search.indexMethod(plain, table: table)
            if method == .skip { continue }
            let names = plain.fields.map { sqlName($0, in: table) }
            let descending = names.indices.map { plain.descending.indices.contains($0) && plain.descending[$0] }
            indexes.append(index(plain.name, table.sqlName, names, descending, .index, method: method))
        }
        let leadingColumnSets = [primaryKey] + indexes.map(\.columns)
        for foreignKey in foreignKeys {
            let covered = leadingColumnSets.contains { $0.starts(with: foreignKey.columns) }
            let name = "\(table.sqlName)_\(foreignKey.columns.joined(separator: "_"))_fkidx"
            guard !covered, !indexes.contains(where: { $0.name == name }) else { continue }
            indexes.append(
                index(name, table.sqlName, foreignKey.columns, foreignKey.columns.map { _ in false }, .foreignKey))
        }

        return TableDDL(
            name: table.sqlName, typeName: table.name, quotedName: q(table.sqlName), columns: columns,
            primaryKey: primaryKey, primaryKeyDefinition: "PRIMARY KEY (\(primaryKey.map(q).joined(separator: ", ")))",
            foreignKeys: foreignKeys, indexes: indexes)
    }

    func translate(_ column: Column, isPrimaryKey: Bool, isForeignKey: Bool) -> ColumnDDL {
        let name = dialect.quote(column.sqlName)
        let type = dialect.columnType(column)
        let isNotNull = column.isNonNull || isPrimaryKey
        let defaultSQL = ColumnDefaultSQL.render(column, dialect: dialect)
        let checks = self.checks(column, quotedName: name)
        var definition = "\(name) \(type)"
        if isNotNull { definition += " NOT NULL" }
        let serialClause = column.isSerial ? dialect.serialClause(column) : nil
        if let serialClause { definition += " " + serialClause }
        if let defaultSQL { definition += " DEFAULT \(defaultSQL)" }
        for check in checks { definition += " CHECK(\(check))" }
        return ColumnDDL(
            name: column.sqlName, type: type, isNotNull: isNotNull, defaultSQL: defaultSQL, checks: checks,
            isPrimaryKey: isPrimaryKey, isForeignKey: isForeignKey, isIdentity: serialClause != nil,
            fieldName: column.name, definition: definition)
    }

    func checks(_ column: Column, quotedName name: String) -> [String] {
        var values: [String] = []
        if case .enumeration(let enumName) = column.type { values = model.enumType(enumName)?.values ?? [] }
        return dialect.columnChecks(column, quotedName: name, enumValues: values)
    }

    func index(
        _ name: String, _ table: String, _ columns: [String], _ descending: [Bool], _ kind: IndexDDL.Kind,
        method: IndexMethod = .standard
    ) -> IndexDDL {
        let q = dialect.quote
        let terms = zip(columns, descending).map { q($0) + ($1 ? " DESC" : "") }.joined(separator: ", ")
        let head = kind == .unique ? "CREATE UNIQUE INDEX" : "CREATE INDEX"
        var using = ""
        if case .using(let name) = method { using = " USING \(name)" }
        let tail = "\(q(name)) ON \(q(table))\(using) (\(terms))"
        return IndexDDL(
            name: name, table: table, columns: columns, descending: descending, kind: kind,
            statement: "\(head) IF NOT EXISTS \(tail)", recordedSQL: "\(head) \(tail)")
    }
}

/// A `@view` type's DDL: the `CREATE VIEW` of a `@view(sql:)`, or the name of a view a `@view(name:)` expects to
/// find in the database.
public struct ViewDDL: Hashable, Sendable {
    /// The view's SQL name.
    public var name: String
    /// The GraphQL type name.
    public var typeName: String
    /// The name, quoted.
    public var quotedName: String
    /// The `SELECT` of a `@view(sql:)` without a trailing `;`, or `nil` for a `@view(name:)`.
    public var sql: String?

    init(_ table: Table, source: ViewSource, dialect: any SQLDialect) {
        name = table.sqlName
        typeName = table.name
        quotedName = dialect.quote(table.sqlName)
        if case .sql(let text) = source {
            var body = Substring(text)
            while let last = body.last, last == ";" || last.isWhitespace { body = body.dropLast() }
            while let first = body.first, first.isWhitespace { body = body.dropFirst() }
            sql = String(body)
        }
    }

    /// `CREATE VIEW "name" AS <sql>`, or `nil` for a view the schema only names.
    public var createStatement: String? {
        sql.map { "CREATE VIEW \(quotedName) AS \($0)" }
    }

    /// `DROP VIEW IF EXISTS "name"`.
    public var dropStatement: String { "DROP VIEW IF EXISTS \(quotedName)" }

    /// The key under which migrators record the SQL of a view they created.
    public var metadataKey: String { "view:" + name }
}
