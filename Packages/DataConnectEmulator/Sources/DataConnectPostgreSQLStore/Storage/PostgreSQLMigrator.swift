import DataConnectEngine
import DataConnectSchema
import Foundation
import PostgreSQLKit

/// Brings a PostgreSQL database to a schema: the plan of statements (`dataconnect sql diff`), and applying it
/// in one transaction under an advisory lock (`dataconnect sql migrate`, and every emulator's start-up).
///
/// The plan compares the catalog of the connection's current schema with ``SchemaDDL`` in the PostgreSQL
/// dialect:
/// - **additive** steps: missing enum types and enum values, tables, columns and indexes, and each full-text
///   index whose searchable fields or language changed, built again (its stored document holds no value of its own);
/// - **destructive** steps, applied only when forced: tables and columns no longer in the schema dropped,
///   a column's type changed to one that may not hold its values, enum values removed (reported, never
///   dropped: PostgreSQL cannot remove an enum value).
///
/// Some steps the data will make fail, and the plan knows which before anything runs (``Plan/blocked``): a
/// required column without a default (``ColumnDDL/needsValueForExistingRows``) added to a table that has rows,
/// and a column made required while rows hold `NULL` in it. Each is found from the planned column and one
/// existence query on the table, and comes with what to do. A plan with blocked steps is not run: start-up
/// applies nothing and reports them as blocking issues; `sql migrate` refuses it.
///
/// Several processes starting at once on one database serialize on `pg_advisory_xact_lock`, so each one sees
/// what the others created and the schema is migrated once.
///
/// ```swift
/// let migrator = PostgreSQLMigrator(model: model)
/// let plan = try migrator.plan(on: connection)          // what `sql diff` prints
/// let report = try migrator.migrate(on: connection)     // start-up: additive only; `force: true` for the rest
/// let outcome = try migrator.apply(plan, on: connection) // `sql migrate`: exactly the plan shown, or nothing
/// ```
public struct PostgreSQLMigrator: Sendable {
    /// The key of the advisory lock migrations hold: the bytes of `dcmigrat` as an integer.
    public static let advisoryLockKey: Int64 = 0x6463_6D69_6772_6174

    /// The DDL to migrate to (PostgreSQL dialect).
    public let ddl: SchemaDDL
    /// The user enums, in declaration order.
    public let enums: [EnumType]

    /// Creates a migrator to the schema of `model`.
    public init(model: SchemaModel) {
        self.ddl = SchemaDDL(model: model, dialect: PostgreSQLDialect())
        self.enums = model.enums
    }

    /// The statements that bring the database to the schema, additive ones first.
    public struct Plan: Hashable, Sendable {
        /// Statements that keep every row and value.
        public var additive: [String] = []
        /// Statements that drop tables or columns, or change types in ways that may lose values.
        public var destructive: [String] = []
        /// Differences no statement resolves (an enum value removed).
        public var notes: [String] = []
        /// Statements of ``additive`` the data will make fail, each with the blocking issue that says why and
        /// what to do. A plan with blocked steps must not run.
        public var blocked: [BlockedStep] = []

        /// Whether the database already matches the schema.
        public var isEmpty: Bool { additive.isEmpty && destructive.isEmpty }

        /// The plan as an SQL script, destructive statements marked, and each blocked statement followed by a
        /// `-- will fail: ...` comment.
        public var script: String {
            var lines: [String] = []
            for statement in additive {
                lines.append(statement + ";")
                for step in blocked where step.statement == statement {
                    lines.append("-- will fail: " + step.issue.description)
                }
            }
            if !destructive.isEmpty {
                lines.append("-- destructive (applied only with --force):")
                lines += destructive.map { $0 + ";" }
            }
            lines += notes.map { "-- " + $0 }
            return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        }
    }

    /// A planned statement the data will make fail, found before anything runs.
    public struct BlockedStep: Hashable, Sendable {
        /// The statement, as it stands in ``Plan/additive``.
        public var statement: String
        /// Why it will fail and what to do; blocking (``MigrationIssue/isBlocking``).
        public var issue: MigrationIssue
    }

    /// Compares the database with the schema.
    ///
    /// - Throws: ``PGError`` when the catalog cannot be read.
    public func plan(on connection: PGConnection) throws(PGError) -> Plan {
        let catalog = try Catalog(connection)
        var plan = Plan()
        let q = ddl.dialect.quote
        for type in enums {
            if let existing = catalog.enums[type.name] {
                var previous: String?
                for value in type.values where !existing.contains(value) {
                    let position = previous.map { " AFTER \(ddl.dialect.stringLiteral($0))" } ?? ""
                    plan.additive.append(
                        "ALTER TYPE \(q(type.name)) ADD VALUE IF NOT EXISTS \(ddl.dialect.stringLiteral(value))\(position)"
                    )
                    previous = value
                }
                for value in existing where !type.values.contains(value) {
                    plan.notes.append(
                        "enum \(type.name) still has the value \(value), which the schema no longer declares "
                            + "(PostgreSQL cannot remove an enum value)")
                }
            } else if let definition = ddl.dialect.enumTypeDefinition(type) {
                plan.additive.append(definition)
            }
        }
        let wanted = Set(ddl.tables.map(\.name))
        // Foreign keys of columns added to existing tables, added once every table exists.
        var addedForeignKeys: [String] = []
        for table in ddl.tables {
            guard let columns = catalog.columns[table.name] else {
                plan.additive.append(table.createStatement)
                plan.additive += table.indexes.map(\.statement)
                continue
            }
            var hasRows: Bool?
            for column in table.columns {
                guard let existing = columns[column.name] else {
                    let statement = "ALTER TABLE \(table.quotedName) ADD COLUMN \(column.definition)"
                    plan.additive.append(statement)
                    if column.needsValueForExistingRows {
                        if hasRows == nil { hasRows = try Self.hasRows(table, on: connection) }
                        if hasRows == true {
                            plan.blocked.append(
                                BlockedStep(
                                    statement: statement, issue: .requiredColumnOnTableWithRows(column, of: table)))
                        }
                    }
                    continue
                }
                let type = Self.normalized(column.type)
                if existing.type != type {
                    let statement =
                        "ALTER TABLE \(table.quotedName) ALTER COLUMN \(q(column.name)) TYPE \(column.type) "
                        + "USING \(q(column.name))::\(column.type)"
                    if Self.isWidening(from: existing.type, to: type) {
                        plan.additive.append(statement)
                    } else {
                        plan.destructive.append(statement)
                    }
                }
                if column.isNotNull && !existing.isNotNull {
                    let statement = "ALTER TABLE \(table.quotedName) ALTER COLUMN \(q(column.name)) SET NOT NULL"
                    plan.additive.append(statement)
                    if try Self.hasNulls(column, of: table, on: connection) {
                        plan.blocked.append(
                            BlockedStep(statement: statement, issue: .requiredColumnWithNulls(column, of: table)))
                    }
                } else if !column.isNotNull && existing.isNotNull {
                    plan.additive.append(
                        "ALTER TABLE \(table.quotedName) ALTER COLUMN \(q(column.name)) DROP NOT NULL")
                }
            }
            // A new column cannot have a foreign key yet: one over a new column is added with it.
            for foreignKey in table.foreignKeys where foreignKey.columns.contains(where: { columns[$0] == nil }) {
                addedForeignKeys.append("ALTER TABLE \(table.quotedName) ADD \(foreignKey.definition)")
            }
            let declared = Set(table.columns.map(\.name))
            // The stored search document is the search index's, not the schema's.
            for name in columns.keys.sorted()
            where !declared.contains(name) && name != PostgreSQLSearchDialect.documentColumn {
                plan.destructive.append("ALTER TABLE \(table.quotedName) DROP COLUMN \(q(name))")
            }
            for index in table.indexes where !catalog.indexes.contains(index.name) {
                plan.additive.append(index.statement)
            }
        }
        plan.additive += addedForeignKeys
        var recordsMetadata = planSearchIndexes(&plan, catalog: catalog)
        for name in catalog.columns.keys.sorted() where !wanted.contains(name) && name != Self.metadataTable {
            plan.destructive.append("DROP TABLE \(q(name)) CASCADE")
        }
        recordsMetadata = planViews(&plan, catalog: catalog) || recordsMetadata
        if recordsMetadata && !catalog.hasMetadataTable {
            plan.additive.insert(
                "CREATE TABLE IF NOT EXISTS \(q(Self.metadataTable)) (\"key\" text PRIMARY KEY, \"value\" text NOT NULL)",
                at: 0)
        }
        return plan
    }

    /// Whether a table of the database has at least one row.
    static func hasRows(_ table: TableDDL, on connection: PGConnection) throws(PGError) -> Bool {
        try connection.query("SELECT EXISTS (SELECT 1 FROM \(table.quotedName))").bool(row: 0, column: 0) == true
    }

    /// Whether a column of the database holds `NULL` in some row.
    static func hasNulls(_ column: ColumnDDL, of table: TableDDL, on connection: PGConnection) throws(PGError) -> Bool {
        let name = PGConnection.quoteIdentifier(column.name)
        return try connection.query("SELECT EXISTS (SELECT 1 FROM \(table.quotedName) WHERE \(name) IS NULL)")
            .bool(row: 0, column: 0) == true
    }

    /// The statement that records `value` under `key` in the metadata table.
    private func recordStatement(key: String, value: String) -> String {
        "INSERT INTO \(ddl.dialect.quote(Self.metadataTable)) (\"key\", \"value\") VALUES ("
            + "\(ddl.dialect.stringLiteral(key)), \(ddl.dialect.stringLiteral(value))) "
            + "ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\""
    }

    /// The statement that forgets what the metadata table holds under `key`.
    private func forgetStatement(key: String) -> String {
        "DELETE FROM \(ddl.dialect.quote(Self.metadataTable)) WHERE \"key\" = \(ddl.dialect.stringLiteral(key))"
    }

    /// Full-text indexes: each searchable table's stored document column and its GIN index.
    ///
    /// An index is created when missing, and built again when its definition differs from the one the migrator
    /// recorded (a field made searchable or no longer, another language; or none recorded, as in a database an
    /// earlier version migrated). A table no longer searchable loses both. The document holds only what
    /// PostgreSQL derives from the row's own fields, so these steps are additive: no value is lost.
    ///
    /// - Returns: Whether the plan writes to the metadata table.
    private func planSearchIndexes(_ plan: inout Plan, catalog: Catalog) -> Bool {
        let q = ddl.dialect.quote
        let documentColumn = PostgreSQLSearchDialect.documentColumn
        var recordsMetadata = false
        for index in ddl.searchIndexes {
            let definition = Self.definition(of: index)
            let exists = catalog.indexes.contains(index.name)
            if exists && catalog.recordedSearchIndexes[index.name] == definition { continue }
            if exists || catalog.columns[index.table]?[documentColumn] != nil {
                plan.additive.append("DROP INDEX IF EXISTS \(q(index.name))")
                plan.additive.append("ALTER TABLE \(q(index.table)) DROP COLUMN IF EXISTS \(q(documentColumn))")
            }
            plan.additive += index.statements
            plan.additive.append(recordStatement(key: Self.searchIndexKeyPrefix + index.name, value: definition))
            recordsMetadata = true
        }
        let searchable = Set(ddl.searchIndexes.map(\.table))
        let tables = Set(ddl.tables.map(\.name))
        for (table, columns) in catalog.columns.sorted(by: { $0.key < $1.key })
        where columns[documentColumn] != nil && tables.contains(table) && !searchable.contains(table) {
            // Its index goes with it.
            plan.additive.append("ALTER TABLE \(q(table)) DROP COLUMN IF EXISTS \(q(documentColumn))")
        }
        let wanted = Set(ddl.searchIndexes.map(\.name))
        for name in catalog.recordedSearchIndexes.keys.sorted() where !wanted.contains(name) {
            plan.additive.append(forgetStatement(key: Self.searchIndexKeyPrefix + name))
        }
        return recordsMetadata
    }

    /// The metadata keys of the full-text index definitions the migrator applied: this prefix and the index's name.
    static let searchIndexKeyPrefix = "search:"

    /// Runs one statement of a plan; a failing `CREATE VIEW` names the `@view` type it declares.
    func run(_ statement: String, on connection: PGConnection) throws(PGError) {
        do {
            try connection.execute(statement)
        } catch {
            guard let view = ddl.views.first(where: { $0.createStatement == statement }) else { throw error }
            var named = error
            named.message = "@view(sql:) of \(view.typeName) does not run: \(error.message)"
            throw named
        }
    }

    /// Views hold no data: each `@view(sql:)` is created when missing or changed, and every view this migrator
    /// created is dropped first and created again when tables change (PostgreSQL refuses to alter a column a
    /// view reads). Views no longer declared are dropped; a `@view(name:)` the database lacks is a note.
    ///
    /// - Returns: Whether the plan writes to the metadata table.
    func planViews(_ plan: inout Plan, catalog: Catalog) -> Bool {
        let tablesChange = !plan.isEmpty
        var first: [String] = []
        var last: [String] = []
        let declared = Set(ddl.views.map(\.name))
        for (name, _) in catalog.recordedViews.sorted(by: { $0.key < $1.key }) where !declared.contains(name) {
            first.append("DROP VIEW IF EXISTS \(ddl.dialect.quote(name))")
            first.append(forgetStatement(key: "view:" + name))
        }
        for view in ddl.views {
            guard let create = view.createStatement, let sql = view.sql else {
                if !catalog.views.contains(view.name) && catalog.columns[view.name] == nil {
                    plan.notes.append(
                        "@view(name: \"\(view.name)\") of \(view.typeName) names a view the database does not have; "
                            + "create it, or declare @view(sql:)")
                }
                continue
            }
            let current = catalog.views.contains(view.name) && catalog.recordedViews[view.name] == sql
            guard tablesChange || !current else { continue }
            first.append(view.dropStatement)
            last.append(create)
            last.append(recordStatement(key: view.metadataKey, value: sql))
        }
        guard !first.isEmpty || !last.isEmpty else { return false }
        plan.additive = first + plan.additive + last
        return !last.isEmpty
    }

    /// The table where the migrator records the fingerprint it applied.
    public static let metadataTable = SchemaDDL.metadataTable

    /// Creates the table where migrations record the schema fingerprint, unless it exists.
    ///
    /// ``migrate(on:force:)`` and ``apply(_:on:)`` create it themselves; `dataconnect sql setup` calls this to
    /// prepare a database, and to prove that its user may create tables.
    ///
    /// When the table exists in the current schema no `CREATE` runs, so a user without the right to create
    /// tables can still migrate a database that needs no new table.
    ///
    /// - Returns: Whether the table was created (`false` when it existed).
    /// - Throws: ``PGError``, e.g. `permission denied for schema public` when the user may not create tables.
    @discardableResult
    public static func createMetadataTable(on connection: PGConnection) throws(PGError) -> Bool {
        let name = PGConnection.quoteIdentifier(metadataTable)
        let existing = try connection.query(
            "SELECT to_regclass(quote_ident(current_schema()) || '.' || $1) IS NOT NULL", [.text(name)])
        if existing.bool(row: 0, column: 0) == true { return false }
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(name) (\"key\" text PRIMARY KEY, \"value\" text NOT NULL)")
        return true
    }

    /// Migrates the database in one transaction under the advisory lock: the additive steps always, the
    /// destructive ones only when `force` is set.
    ///
    /// When the database records this schema's fingerprint, nothing is examined: start-up stays cheap. Use
    /// ``apply(_:on:)`` to compare the catalog whatever the fingerprint says.
    ///
    /// When the plan has blocked steps (``Plan/blocked``), nothing runs: the report lists them as blocking
    /// issues, with no statement.
    ///
    /// - Parameter force: Apply destructive steps too.
    /// - Returns: The statements run, and an issue per blocked step, destructive step left out or note.
    /// - Throws: ``PGError`` when a statement fails (nothing is applied then).
    public func migrate(on connection: PGConnection, force: Bool = false) throws(PGError) -> MigrationReport {
        try inLockedTransaction(on: connection) { () throws(PGError) in
            let recorded = try connection.query(
                "SELECT \"value\" FROM \(ddl.dialect.quote(Self.metadataTable)) WHERE \"key\" = 'fingerprint'"
            ).string(row: 0, column: 0)
            if recorded == ddl.fingerprint, try searchIndexesAreRecorded(on: connection) {
                return MigrationReport(statements: [], issues: [], fingerprint: ddl.fingerprint, wasUpToDate: true)
            }
            let plan = try plan(on: connection)
            guard plan.blocked.isEmpty else {
                return MigrationReport(
                    statements: [],
                    issues: plan.blocked.map(\.issue) + plan.notes.map { MigrationIssue(table: "", message: $0) },
                    fingerprint: ddl.fingerprint, wasUpToDate: false)
            }
            let statements = plan.additive + (force ? plan.destructive : [])
            for statement in statements { try run(statement, on: connection) }
            var issues = plan.notes.map { MigrationIssue(table: "", message: $0) }
            if !force {
                issues += plan.destructive.map {
                    MigrationIssue(table: "", message: "not applied without --force: \($0)")
                }
            }
            if issues.isEmpty { try recordFingerprint(on: connection) }
            return MigrationReport(
                statements: statements, issues: issues, fingerprint: ddl.fingerprint, wasUpToDate: false)
        }
    }

    /// How ``apply(_:on:)`` ended.
    public enum Application: Hashable, Sendable {
        /// The plan ran and was committed.
        case applied(MigrationReport)
        /// The database no longer calls for the plan given (another process changed it since the plan was
        /// made); nothing ran. The associated plan is the current one.
        case superseded(by: Plan)
    }

    /// Applies a plan made earlier by ``plan(on:)``, destructive statements included, in one transaction under
    /// the advisory lock, provided the database still calls for exactly that plan.
    ///
    /// This is `dataconnect sql migrate`: the user sees the plan (and decides about its destructive
    /// statements) before it runs, and what runs is what they saw. A plan with blocked steps (``Plan/blocked``)
    /// is for the caller to refuse: run, it fails at the first of them and nothing is applied. Unlike ``migrate(on:force:)`` it does not
    /// trust a recorded fingerprint: it compares the catalog every time, so it also repairs a database changed
    /// behind the migrator's back. The fingerprint is recorded when no note is left, so that every emulator's
    /// start-up then finds the database up to date.
    ///
    /// ```swift
    /// let plan = try migrator.plan(on: connection)
    /// guard plan.destructive.isEmpty || force else { ... }  // refuse, nothing applied
    /// if case .applied(let report) = try migrator.apply(plan, on: connection) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - plan: The plan to apply, as ``plan(on:)`` returned it.
    ///   - connection: The database.
    /// - Returns: ``Application/applied(_:)`` with the statements run and the notes as issues, or
    ///   ``Application/superseded(by:)`` when the database changed since the plan was made.
    /// - Throws: ``PGError`` when a statement fails (nothing is applied then).
    public func apply(_ plan: Plan, on connection: PGConnection) throws(PGError) -> Application {
        try inLockedTransaction(on: connection) { () throws(PGError) in
            let current = try self.plan(on: connection)
            guard current == plan else { return .superseded(by: current) }
            let statements = plan.additive + plan.destructive
            for statement in statements { try run(statement, on: connection) }
            if plan.notes.isEmpty { try recordFingerprint(on: connection) }
            return .applied(
                MigrationReport(
                    statements: statements, issues: plan.notes.map { MigrationIssue(table: "", message: $0) },
                    fingerprint: ddl.fingerprint, wasUpToDate: false))
        }
    }

    /// Runs `body` in a transaction holding the advisory lock, with the metadata table created: committed
    /// when `body` returns, rolled back when it throws.
    private func inLockedTransaction<Result>(
        on connection: PGConnection, _ body: () throws(PGError) -> Result
    ) throws(PGError) -> Result {
        try connection.execute("BEGIN")
        do {
            try connection.execute("SELECT pg_advisory_xact_lock(\(Self.advisoryLockKey))")
            try Self.createMetadataTable(on: connection)
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Whether the metadata table holds the definition of every full-text index of the schema, as this migrator
    /// writes it. A database an earlier version migrated has the schema's fingerprint but no definitions, and
    /// possibly a search document built from other fields: the plan then builds each index again, once.
    private func searchIndexesAreRecorded(on connection: PGConnection) throws(PGError) -> Bool {
        guard !ddl.searchIndexes.isEmpty else { return true }
        let definitions = try Self.recordedSearchIndexes(on: connection)
        return ddl.searchIndexes.allSatisfy { definitions[$0.name] == Self.definition(of: $0) }
    }

    /// The definitions of full-text indexes the metadata table records, by index name (it must exist).
    static func recordedSearchIndexes(on connection: PGConnection) throws(PGError) -> [String: String] {
        let recorded = try connection.query(
            "SELECT substr(\"key\", \(searchIndexKeyPrefix.count + 1)), \"value\" FROM "
                + "\(PGConnection.quoteIdentifier(metadataTable)) WHERE starts_with(\"key\", $1)",
            [.text(searchIndexKeyPrefix)])
        var definitions: [String: String] = [:]
        for row in 0..<recorded.rowCount {
            if let name = recorded.string(row: row, column: 0), let definition = recorded.string(row: row, column: 1) {
                definitions[name] = definition
            }
        }
        return definitions
    }

    /// What the metadata table records of a full-text index: its statements.
    static func definition(of index: SearchIndexDDL) -> String {
        index.statements.joined(separator: ";\n")
    }

    /// Records this schema's fingerprint in the metadata table.
    private func recordFingerprint(on connection: PGConnection) throws(PGError) {
        try connection.query(
            "INSERT INTO \(ddl.dialect.quote(Self.metadataTable)) (\"key\", \"value\") VALUES ('fingerprint', $1) "
                + "ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
            [.text(ddl.fingerprint)])
    }

    /// A column type as the catalog spells it (`udt_name`, with `varchar(n)`'s length and `_` for arrays).
    static func normalized(_ type: String) -> String {
        let lowered = type.trimmingCharacters(in: .whitespaces)
        if lowered.hasSuffix("[]") { return "_" + normalized(String(lowered.dropLast(2))) }
        if lowered.hasPrefix("\"") && lowered.hasSuffix("\"") {
            return String(lowered.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
        switch lowered.lowercased() {
        case "integer", "int": return "int4"
        case "bigint": return "int8"
        case "double precision": return "float8"
        case "boolean": return "bool"
        default: return lowered.lowercased()
        }
    }

    /// Whether changing `old` to `new` keeps every value: wider integers, longer or unbounded text.
    static func isWidening(from old: String, to new: String) -> Bool {
        switch (old, new) {
        case ("int2", "int4"), ("int2", "int8"), ("int4", "int8"), ("float4", "float8"): return true
        default: break
        }
        if old.hasPrefix("varchar") && (new == "text" || new == "varchar") { return true }
        if old.hasPrefix("varchar("), new.hasPrefix("varchar("), let from = Self.length(old), let to = Self.length(new)
        {
            return to >= from
        }
        return false
    }

    static func length(_ type: String) -> Int? {
        guard let open = type.firstIndex(of: "("), let close = type.firstIndex(of: ")") else { return nil }
        return Int(type[type.index(after: open)..<close])
    }

    /// The parts of the catalog of the current schema that the plan compares.
    struct Catalog {
        struct Column {
            var type: String
            var isNotNull: Bool
        }

        /// Columns by table, then by name.
        var columns: [String: [String: Column]] = [:]
        /// Enum labels by type name, in order.
        var enums: [String: [String]] = [:]
        /// Index and constraint names.
        var indexes: Set<String> = []
        /// The names of the schema's views.
        var views: Set<String> = []
        /// The SQL of the views migrations created, by view name.
        var recordedViews: [String: String] = [:]
        /// The definitions of the full-text indexes migrations created, by index name.
        var recordedSearchIndexes: [String: String] = [:]
        /// Whether the migrator's own table exists.
        var hasMetadataTable = false

        init(_ connection: PGConnection) throws(PGError) {
            let columnRows = try connection.query(
                "SELECT c.table_name, c.column_name, c.udt_name, c.character_maximum_length, c.is_nullable "
                    + "FROM information_schema.columns c JOIN information_schema.tables t "
                    + "ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
                    + "WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'")
            for row in 0..<columnRows.rowCount {
                guard let table = columnRows.string(row: row, column: 0),
                    let name = columnRows.string(row: row, column: 1),
                    var type = columnRows.string(row: row, column: 2)
                else { continue }
                if type == "varchar", let length = columnRows.string(row: row, column: 3) {
                    type = "varchar(\(length))"
                }
                columns[table, default: [:]][name] = Column(
                    type: type, isNotNull: columnRows.string(row: row, column: 4) == "NO")
            }
            let enumRows = try connection.query(
                "SELECT t.typname, e.enumlabel FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid "
                    + "JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = current_schema() "
                    + "ORDER BY t.typname, e.enumsortorder")
            for row in 0..<enumRows.rowCount {
                guard let type = enumRows.string(row: row, column: 0), let label = enumRows.string(row: row, column: 1)
                else { continue }
                enums[type, default: []].append(label)
            }
            let indexRows = try connection.query(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
            for row in 0..<indexRows.rowCount {
                if let name = indexRows.string(row: row, column: 0) { indexes.insert(name) }
            }
            let viewRows = try connection.query(
                "SELECT viewname FROM pg_views WHERE schemaname = current_schema()")
            for row in 0..<viewRows.rowCount {
                if let name = viewRows.string(row: row, column: 0) { views.insert(name) }
            }
            let meta = PGConnection.quoteIdentifier(PostgreSQLMigrator.metadataTable)
            hasMetadataTable =
                try connection.query(
                    "SELECT to_regclass(quote_ident(current_schema()) || '.' || $1) IS NOT NULL", [.text(meta)]
                ).bool(row: 0, column: 0) == true
            if hasMetadataTable {
                let recorded = try connection.query(
                    "SELECT substr(\"key\", 6), \"value\" FROM \(meta) WHERE \"key\" LIKE 'view:%'")
                for row in 0..<recorded.rowCount {
                    guard let name = recorded.string(row: row, column: 0),
                        let sql = recorded.string(row: row, column: 1)
                    else { continue }
                    recordedViews[name] = sql
                }
                recordedSearchIndexes = try PostgreSQLMigrator.recordedSearchIndexes(on: connection)
            }
        }
    }
}
