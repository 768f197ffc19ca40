import DataConnectEngine
import DataConnectSchema
import DataConnectWire
import SQLiteKit

/// Brings an existing database up to a schema, additively: it creates what is missing and never drops data.
///
/// The steps, in one `IMMEDIATE` transaction with foreign keys off (checked with `PRAGMA foreign_key_check`):
/// 1. **Skip** when the database records the fingerprint of the same DDL (``SchemaDDL/fingerprint``).
/// 2. **Create** missing tables.
/// 3. **Add** missing columns with `ALTER TABLE ... ADD COLUMN` when SQLite allows it: not part of a key, and
///    nullable or with a constant default.
/// 4. **Rebuild** a table (create new, copy, drop, rename) when a column's type, nullability, default or
///    checks changed, when its keys changed, when a new column needs it (a key, a foreign key, an expression
///    default, or a required column of an empty table), or when a column no longer in the schema is still
///    `NOT NULL` without a default (it is kept, made nullable). Columns removed from the schema are kept.
/// 5. **Create** missing indexes; an index whose definition changed under the same name is re-created.
///
/// What the data does not allow is reported as a ``MigrationIssue`` and leaves the table as it was: a required
/// column without a default on a table with rows, a copy that breaks a `NOT NULL`, `CHECK` or unique
/// constraint, values that do not fit a new type, or rows whose references would dangle.
///
/// A required column without a default is found before any statement runs, from the planned column
/// (``ColumnDDL/needsValueForExistingRows``) and whether the table has a row. SQLite would refuse the
/// `ADD COLUMN` outright, and a rebuild would fail on the copy; instead the column is left out and the issue
/// is *blocking* (``MigrationIssue/isBlocking``): the schema cannot be served without the column, so the
/// emulator refuses the migration and says what to do (a `@default`, or an optional field backfilled first).
///
/// ```swift
/// let report = try SQLiteMigrator(model: model).migrate(pool)
/// for issue in report.issues { print("failed to migrate schema: \(issue)") }
/// ```
///
/// The database records, in the `_dataconnect_meta` table, the definition applied to each table and the
/// fingerprint of the DDL once it applied without issues.
public struct SQLiteMigrator: Sendable {
    /// The table where the migrator records what it applied (``SchemaDDL/metadataTable``).
    public static let metadataTable = SchemaDDL.metadataTable

    /// The DDL to migrate to.
    public let ddl: SchemaDDL
    /// The schema the DDL was translated from, when known: its `@default(sql:)` expressions are checked first.
    let model: SchemaModel?

    /// Creates a migrator to the given DDL.
    public init(ddl: SchemaDDL) {
        self.ddl = ddl
        self.model = nil
    }

    /// Creates a migrator to the DDL of a model.
    ///
    /// - Parameters:
    ///   - model: The compiled schema.
    ///   - dialect: The SQL dialect; SQLite by default.
    public init(model: SchemaModel, dialect: any SQLDialect = SQLiteDialect()) {
        self.ddl = SchemaDDL(model: model, dialect: dialect)
        self.model = model
    }

    /// Migrates the database behind a pool, on its writer connection.
    ///
    /// - Returns: The statements run and the issues found.
    /// - Throws: ``SQLiteError`` for failures that are not about the data (I/O, a locked database, ...).
    public func migrate(_ pool: SQLitePool) throws -> MigrationReport {
        try pool.write { try migrate($0.connection) }
    }

    /// Migrates the database of a connection, which must not be inside a transaction.
    ///
    /// - Returns: The statements run and the issues found.
    /// - Throws: ``SQLiteError`` for failures that are not about the data (I/O, a locked database, ...).
    public func migrate(_ connection: Connection) throws -> MigrationReport {
        if let model { try NativeDefaultCheck.check(model, on: connection) }
        // Triggers and backfills of vector copies call the search functions.
        try SearchFunctions.register(on: connection)
        var run = MigrationRun(ddl: ddl, db: connection)
        return try run.run()
    }
}

/// A column as the database has it (`PRAGMA table_info`).
private struct ExistingColumn {
    var name: String
    var type: String
    var isNotNull: Bool
    var defaultSQL: String?
}

/// The definition the migrator last applied to a table: column definitions by name and table constraints.
private struct AppliedDefinition: Equatable {
    var columns: [String: String]
    var constraints: [String]

    init(columns: [String: String], constraints: [String]) {
        self.columns = columns
        self.constraints = constraints
    }

    init?(json text: String) {
        guard let value = try? JSONValue(parsing: text), let columnObject = value["columns"]?.objectValue,
            let constraintArray = value["constraints"]?.arrayValue
        else { return nil }
        var columns: [String: String] = [:]
        for (name, definition) in zip(columnObject.keys, columnObject.values) {
            guard let definition = definition.stringValue else { return nil }
            columns[name] = definition
        }
        let constraints = constraintArray.compactMap(\.stringValue)
        guard constraints.count == constraintArray.count else { return nil }
        self.init(columns: columns, constraints: constraints)
    }

    var json: String {
        var columnObject = JSONObject()
        for name in columns.keys.sorted() {
            columnObject[name] = .string(columns[name]!)
        }
        let value: JSONValue = [
            "columns": .object(columnObject), "constraints": .array(constraints.map(JSONValue.string)),
        ]
        return value.jsonString()
    }
}

/// A rebuild the data does not allow.
private struct RebuildRefused: Error {
    var column: String?
    var message: String
}

/// A `@view(sql:)` SQLite cannot create or read.
public struct ViewRefused: Error, CustomStringConvertible, Sendable {
    /// The view's GraphQL type name.
    public var typeName: String
    /// The database's reason.
    public var reason: String

    public var description: String {
        "@view(sql:) of \(typeName) does not run on SQLite (\(reason)); if it is PostgreSQL SQL, run the emulator "
            + "with --postgres"
    }
}

/// The state of one migration.
private struct MigrationRun {
    let ddl: SchemaDDL
    let db: Connection
    var statements: [String] = []
    var issues: [MigrationIssue] = []

    init(ddl: SchemaDDL, db: Connection) {
        self.ddl = ddl
        self.db = db
    }

    func q(_ identifier: String) -> String {
        ddl.dialect.quote(identifier)
    }

    mutating func run() throws -> MigrationReport {
        let meta = q(SQLiteMigrator.metadataTable)
        try db.execute(
            "CREATE TABLE IF NOT EXISTS \(meta) (\"key\" TEXT NOT NULL PRIMARY KEY, \"value\" TEXT NOT NULL)")
        if try metadata("schema_fingerprint") == ddl.fingerprint {
            return MigrationReport(statements: [], issues: [], fingerprint: ddl.fingerprint, wasUpToDate: true)
        }
        let foreignKeysWereOn = try db.query("PRAGMA foreign_keys").first?[0] == .integer(1)
        try db.execute("PRAGMA foreign_keys = OFF")
        defer {
            if foreignKeysWereOn { try? db.execute("PRAGMA foreign_keys = ON") }
        }
        try db.transaction(.immediate) {
            // Views hold no data: the ones this migrator created go first (a table rebuilt under a view would
            // fail) and the declared ones are created after the tables.
            try dropRecordedViews()
            for table in ddl.tables {
                try migrate(table)
            }
            try ensureSearchIndexes()
            try createViews()
            try reportDanglingReferences()
            if issues.isEmpty {
                try setMetadata("schema_fingerprint", ddl.fingerprint)
            } else {
                try db.execute("DELETE FROM \(meta) WHERE \"key\" = 'schema_fingerprint'")
            }
        }
        return MigrationReport(statements: statements, issues: issues, fingerprint: ddl.fingerprint, wasUpToDate: false)
    }

    // MARK: Views

    mutating func dropRecordedViews() throws {
        let recorded = try db.query(
            "SELECT \"key\" FROM \(q(SQLiteMigrator.metadataTable)) WHERE \"key\" LIKE 'view:%'")
        for row in recorded {
            guard let key = row[0].textValue else { continue }
            try db.execute("DROP VIEW IF EXISTS \(q(String(key.dropFirst(5))))")
            try db.execute("DELETE FROM \(q(SQLiteMigrator.metadataTable)) WHERE \"key\" = ?", [.text(key)])
        }
    }

    /// Creates each `@view(sql:)`, and reports each `@view(name:)` whose view the database does not have.
    ///
    /// - Throws: ``ViewRefused`` when SQLite refuses a view's SQL.
    mutating func createViews() throws {
        for view in ddl.views {
            guard let create = view.createStatement, let sql = view.sql else {
                let found = try db.query(
                    "SELECT 1 FROM sqlite_master WHERE type IN ('view', 'table') AND name = ?", [.text(view.name)])
                if found.isEmpty {
                    issues.append(
                        MigrationIssue(
                            table: view.name,
                            message:
                                "@view(name: \"\(view.name)\") of \(view.typeName) names a view the database does not have; create it, or declare @view(sql:)"
                        ))
                }
                continue
            }
            do {
                try apply(create)
                // SQLite checks the tables a view reads only when it is used.
                _ = try db.query("SELECT * FROM \(view.quotedName) LIMIT 0")
            } catch let error as SQLiteError {
                throw ViewRefused(typeName: view.typeName, reason: error.message)
            }
            try setMetadata(view.metadataKey, sql)
        }
    }

    // MARK: Tables

    mutating func migrate(_ table: TableDDL) throws {
        let existing = try existingColumns(of: table.name)
        if existing.isEmpty {
            try apply(table.createStatement)
            for index in table.indexes {
                try ensure(index)
            }
            try record(
                AppliedDefinition(columns: definitions(table.columns), constraints: table.constraints), for: table)
            return
        }
        let recorded = try metadata("table:" + table.name).flatMap(AppliedDefinition.init(json:))
        let existingNames = Set(existing.map(\.name))
        let hasRows = try !db.query("SELECT 1 FROM \(table.quotedName) LIMIT 1").isEmpty

        var additions: [ColumnDDL] = []
        var waiting: [ColumnDDL] = []
        var rebuildReasons: [String] = []
        for column in table.columns {
            if existingNames.contains(column.name) {
                if let recorded, recorded.columns[column.name] != column.definition {
                    rebuildReasons.append("column \"\(column.name)\" changed")
                }
            } else if column.needsValueForExistingRows && hasRows {
                waiting.append(column)
                issues.append(.requiredColumnOnTableWithRows(column, of: table))
            } else if !column.isPrimaryKey && !column.isForeignKey
                && (column.defaultSQL == nil ? !column.isNotNull : column.hasConstantDefault)
            {
                additions.append(column)
            } else {
                rebuildReasons.append("new column \"\(column.name)\" cannot be added in place")
            }
        }
        if let recorded {
            if recorded.constraints != table.constraints { rebuildReasons.append("keys changed") }
        } else {
            rebuildReasons.append("the table was not created by this migrator")
        }
        let modelNames = Set(table.columns.map(\.name))
        let leftovers = existing.filter { !modelNames.contains($0.name) }
        if leftovers.contains(where: { $0.isNotNull && $0.defaultSQL == nil }) {
            rebuildReasons.append("a column no longer in the schema is still required")
        }

        var rebuilt = false
        if !rebuildReasons.isEmpty {
            if let blocker = waiting.first(where: { $0.isPrimaryKey || $0.isForeignKey }) {
                issues.append(
                    MigrationIssue(
                        table: table.name,
                        message: "the table is not rebuilt (\(rebuildReasons.joined(separator: "; "))) until "
                            + "key column \"\(blocker.name)\" can be added",
                        isBlocking: true))
            } else {
                rebuilt = try rebuild(
                    table, keeping: table.columns.filter { !waiting.contains($0) }, existing: existing,
                    leftovers: leftovers)
            }
        }
        var available = existingNames
        if rebuilt {
            available.formUnion(table.columns.filter { !waiting.contains($0) }.map(\.name))
        } else {
            for column in additions {
                if try add(column, to: table) { available.insert(column.name) }
            }
        }
        for index in table.indexes where index.columns.allSatisfy(available.contains) {
            try ensure(index)
        }

        if rebuilt {
            let kept = table.columns.filter { !waiting.contains($0) }
            try record(AppliedDefinition(columns: definitions(kept), constraints: table.constraints), for: table)
        } else if var recorded {
            for column in additions where available.contains(column.name) {
                recorded.columns[column.name] = column.definition
            }
            try record(recorded, for: table)
        }
    }

    /// Adds a column in place; reports an issue and returns `false` when SQLite refuses.
    mutating func add(_ column: ColumnDDL, to table: TableDDL) throws -> Bool {
        let sql = "ALTER TABLE \(table.quotedName) ADD COLUMN \(column.definition)"
        do {
            try db.savepoint("add_column") { try db.execute(sql) }
            statements.append(sql)
            return true
        } catch let error as SQLiteError {
            issues.append(
                MigrationIssue(
                    table: table.name, column: column.name, message: "cannot add the column: \(error.message)"))
            return false
        }
    }

    /// Rebuilds a table to its new definition, keeping every row and every existing column; reports an issue and
    /// returns `false` when the data does not allow it.
    mutating func rebuild(
        _ table: TableDDL, keeping columns: [ColumnDDL], existing: [ExistingColumn], leftovers: [ExistingColumn]
    ) throws -> Bool {
        let temporary = q(table.name + "__dataconnect_rebuild")
        let leftoverDefinitions = leftovers.map { column in
            [q(column.name), column.type, column.defaultSQL.map { "DEFAULT (\($0))" } ?? ""]
                .filter { !$0.isEmpty }.joined(separator: " ")
        }
        let create = SchemaDDL.createTable(
            quotedName: temporary, items: columns.map(\.definition) + leftoverDefinitions + table.constraints,
            ifNotExists: false)
        let copied = existing.map { q($0.name) }.joined(separator: ", ")
        let copy = "INSERT INTO \(temporary) (\(copied)) SELECT \(copied) FROM \(table.quotedName)"
        let retyped = columns.compactMap { column -> (ColumnDDL, [String])? in
            guard let old = existing.first(where: { $0.name == column.name }),
                old.type.uppercased() != column.type.uppercased()
            else { return nil }
            switch column.type.uppercased() {
            case "INTEGER": return (column, ["integer"])
            case "REAL": return (column, ["real", "integer"])
            default: return nil
            }
        }
        let modelIndexes = Set(table.indexes.map(\.name))
        let recreated = try db.query(
            "SELECT name, sql FROM sqlite_schema WHERE tbl_name = ? AND type IN ('index', 'trigger') "
                + "AND sql IS NOT NULL ORDER BY type, name",
            [.text(table.name)]
        ).filter { !modelIndexes.contains($0[0].textValue ?? "") }.compactMap { $0[1].textValue }
        let sequence =
            [create, copy, "DROP TABLE \(table.quotedName)", "ALTER TABLE \(temporary) RENAME TO \(table.quotedName)"]
            + recreated
        do {
            try db.savepoint("rebuild") {
                try db.execute(create)
                try db.execute(copy)
                for (column, types) in retyped {
                    let allowed = types.map { "'\($0)'" }.joined(separator: ", ")
                    let misfits = try db.query(
                        "SELECT count(*) FROM \(temporary) WHERE \(q(column.name)) IS NOT NULL "
                            + "AND typeof(\(q(column.name))) NOT IN (\(allowed))")
                    if let count = misfits.first?[0], count != .integer(0) {
                        throw RebuildRefused(
                            column: column.name,
                            message: "cannot change the column to \(column.type): \(count) row(s) hold other values")
                    }
                }
                for statement in sequence.dropFirst(2) {
                    try db.execute(statement)
                }
                let dangling = try db.query("PRAGMA foreign_key_check").filter {
                    $0[0].textValue == table.name || $0[2].textValue == table.name
                }
                if let first = dangling.first {
                    throw RebuildRefused(
                        column: nil,
                        message: "\(dangling.count) row(s) of \"\(first[0].textValue ?? "?")\" would reference "
                            + "missing rows of \"\(first[2].textValue ?? "?")\"")
                }
            }
        } catch let refusal as RebuildRefused {
            issues.append(
                MigrationIssue(table: table.name, column: refusal.column, message: "cannot rebuild: " + refusal.message)
            )
            return false
        } catch let error as SQLiteError {
            issues.append(MigrationIssue(table: table.name, message: "cannot rebuild: \(error.message)"))
            return false
        }
        statements += sequence
        return true
    }

    // MARK: Indexes

    /// Creates an index when missing, or re-creates it when its definition changed; reports an issue when the
    /// data does not allow it (duplicates for a unique index).
    mutating func ensure(_ index: IndexDDL) throws {
        let recorded = try db.query(
            "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(index.name)]
        ).first?[0].textValue
        if recorded == index.recordedSQL { return }
        var sequence: [String] = []
        if recorded != nil { sequence.append("DROP INDEX \(q(index.name))") }
        sequence.append(index.statement)
        do {
            try db.savepoint("index") {
                for statement in sequence { try db.execute(statement) }
            }
            statements += sequence
        } catch let error as SQLiteError {
            let what = index.isUnique ? "unique constraint" : "index"
            issues.append(
                MigrationIssue(
                    table: index.table, column: index.columns.count == 1 ? index.columns[0] : nil,
                    message: "cannot create \(what) \"\(index.name)\": \(error.message)"))
        }
    }

    // MARK: Full-text indexes

    /// Creates each full-text index that is missing or changed (indexing the rows already there), and drops
    /// those the schema no longer has.
    mutating func ensureSearchIndexes() throws {
        let meta = q(SQLiteMigrator.metadataTable)
        for index in ddl.searchIndexes {
            let script = index.statements.joined(separator: ";\n")
            let placeholders = index.objects.map { _ in "?" }.joined(separator: ", ")
            let present = try db.query(
                "SELECT count(*) FROM sqlite_schema WHERE name IN (\(placeholders))", index.objects.map { .text($0) }
            ).first?[0]
            if try metadata("search:" + index.name) == script && present == .integer(Int64(index.objects.count)) {
                continue
            }
            try dropSearchObjects(index.objects)
            let columns = Set(try existingColumns(of: index.table).map(\.name))
            for column in index.columns where !columns.contains(column.name) {
                try apply(index.addColumnStatement(column, quote: q))
            }
            for statement in index.statements { try apply(statement) }
            try setMetadata("search:" + index.name, script)
            try setMetadata("search-objects:" + index.name, index.objects.joined(separator: "\n"))
        }
        let wanted = Set(ddl.searchIndexes.map(\.name))
        for row in try db.query("SELECT \"key\", \"value\" FROM \(meta) WHERE \"key\" LIKE 'search-objects:%'") {
            guard case .text(let key) = row[0], case .text(let objects) = row[1] else { continue }
            let name = String(key.dropFirst("search-objects:".count))
            guard !wanted.contains(name) else { continue }
            try dropSearchObjects(objects.split(separator: "\n").map(String.init))
            try db.execute(
                "DELETE FROM \(meta) WHERE \"key\" IN (?, ?)",
                [.text("search:" + name), .text("search-objects:" + name)])
        }
    }

    /// Drops an index's schema objects (triggers first, then tables), as SQLite lists them.
    mutating func dropSearchObjects(_ objects: [String]) throws {
        var tables: [String] = []
        for name in objects {
            let type = try db.query("SELECT type FROM sqlite_schema WHERE name = ?", [.text(name)]).first?[0]
            switch type?.textValue {
            case "trigger"?: try apply("DROP TRIGGER IF EXISTS \(q(name))")
            case "table"?: tables.append(name)
            default: break
            }
        }
        for table in tables { try apply("DROP TABLE IF EXISTS \(q(table))") }
    }

    // MARK: Checks

    /// Reports rows whose references dangle after the migration.
    mutating func reportDanglingReferences() throws {
        var counts: [String: (table: String, parent: String, rows: Int)] = [:]
        var order: [String] = []
        let violations: [Row]
        do {
            violations = try db.query("PRAGMA foreign_key_check")
        } catch {
            issues.append(MigrationIssue(table: "", message: "cannot check the foreign keys: \(error.message)"))
            return
        }
        for row in violations {
            let table = row[0].textValue ?? "?"
            let parent = row[2].textValue ?? "?"
            let key = table + "\u{0}" + parent
            if counts[key] == nil { order.append(key) }
            counts[key, default: (table, parent, 0)].rows += 1
        }
        for key in order {
            let entry = counts[key]!
            issues.append(
                MigrationIssue(
                    table: entry.table, message: "\(entry.rows) row(s) reference missing rows of \"\(entry.parent)\""))
        }
    }

    // MARK: Database state

    func existingColumns(of table: String) throws -> [ExistingColumn] {
        try db.query("PRAGMA table_info(\(q(table)))").map { row in
            ExistingColumn(
                name: row["name"]?.textValue ?? "", type: row["type"]?.textValue ?? "",
                isNotNull: row["notnull"] == .integer(1), defaultSQL: row["dflt_value"]?.textValue)
        }
    }

    func definitions(_ columns: [ColumnDDL]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0.definition) })
    }

    mutating func apply(_ sql: String) throws {
        try db.execute(sql)
        statements.append(sql)
    }

    func metadata(_ key: String) throws -> String? {
        try db.query("SELECT \"value\" FROM \(q(SQLiteMigrator.metadataTable)) WHERE \"key\" = ?", [.text(key)])
            .first?[0].textValue
    }

    func setMetadata(_ key: String, _ value: String) throws {
        try db.execute(
            "INSERT INTO \(q(SQLiteMigrator.metadataTable)) (\"key\", \"value\") VALUES (?, ?) "
                + "ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
            [.text(key), .text(value)])
    }

    func record(_ definition: AppliedDefinition, for table: TableDDL) throws {
        try setMetadata("table:" + table.name, definition.json)
    }
}

extension SQLiteValue {
    /// The text, when the value is text.
    fileprivate var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
