/// What a migration did.
public struct MigrationReport: Hashable, Sendable {
    /// The schema statements that ran and stayed applied, in order (bookkeeping statements excluded).
    public var statements: [String]
    /// What could not be migrated; empty when the database matches the schema.
    public var issues: [MigrationIssue]
    /// The fingerprint of the DDL migrated to.
    public var fingerprint: String
    /// Whether the database already recorded this DDL, so that nothing was examined.
    public var wasUpToDate: Bool

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - statements: The schema statements that ran and stayed applied, in order.
    ///   - issues: What could not be migrated.
    ///   - fingerprint: The fingerprint of the DDL migrated to.
    ///   - wasUpToDate: Whether the database already recorded this DDL.
    public init(statements: [String], issues: [MigrationIssue], fingerprint: String, wasUpToDate: Bool) {
        self.statements = statements
        self.issues = issues
        self.fingerprint = fingerprint
        self.wasUpToDate = wasUpToDate
    }

    /// The issues that keep the schema from being served (see ``MigrationIssue/isBlocking``).
    public var blockingIssues: [MigrationIssue] { issues.filter(\.isBlocking) }
}

/// Something the migration could not do, with the table and column it concerns.
public struct MigrationIssue: Hashable, Sendable, CustomStringConvertible {
    /// The SQL table name; empty when the issue concerns the whole database.
    public var table: String
    /// The SQL column name, when the issue concerns one column.
    public var column: String?
    /// What went wrong and what to do about it.
    public var message: String
    /// Whether the schema cannot be served until the issue is resolved: a column the schema needs is missing
    /// because the data does not allow adding it. The emulator then refuses the migration (a start fails, a
    /// reload keeps serving the last good version), and `dataconnect sql migrate` applies nothing.
    public var isBlocking: Bool

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - table: The SQL table name; empty when the issue concerns the whole database.
    ///   - column: The SQL column name, when the issue concerns one column.
    ///   - message: What went wrong and what to do about it.
    ///   - isBlocking: Whether the schema cannot be served until the issue is resolved; `false` by default.
    public init(table: String, column: String? = nil, message: String, isBlocking: Bool = false) {
        self.table = table
        self.column = column
        self.message = message
        self.isBlocking = isBlocking
    }

    /// A required column without a default (``ColumnDDL/needsValueForExistingRows``) planned for a table that
    /// has rows: adding it would fail, since the rows would have no value. Blocking.
    ///
    /// - Parameters:
    ///   - column: The planned column.
    ///   - table: The table it is added to.
    /// - Returns: The issue, naming the field and saying what to do.
    public static func requiredColumnOnTableWithRows(_ column: ColumnDDL, of table: TableDDL) -> MigrationIssue {
        MigrationIssue(
            table: table.name, column: column.name,
            message: "cannot add a required column without a default to a table that has rows: field "
                + "\(table.typeName).\(column.fieldName) is non-null and the rows already there would have no value; "
                + "give the field a @default(value:) or @default(sql:) (a @default(expr:) fills only rows inserted "
                + "later), or make it optional, fill it in for the existing rows, then make it required",
            isBlocking: true)
    }

    /// A nullable column made required (`SET NOT NULL`) while rows hold no value in it: the step would fail.
    /// Blocking.
    ///
    /// - Parameters:
    ///   - column: The column as planned.
    ///   - table: Its table.
    /// - Returns: The issue, naming the field and saying what to do.
    public static func requiredColumnWithNulls(_ column: ColumnDDL, of table: TableDDL) -> MigrationIssue {
        MigrationIssue(
            table: table.name, column: column.name,
            message: "cannot make the column required: field \(table.typeName).\(column.fieldName) became non-null "
                + "but rows hold no value (NULL) in it; give those rows a value first, or keep the field optional",
            isBlocking: true)
    }

    /// `table "recipe", column "rating": ...`, or the message alone when no table is concerned.
    public var description: String {
        if table.isEmpty { return message }
        let place = column.map { "table \"\(table)\", column \"\($0)\"" } ?? "table \"\(table)\""
        return "\(place): \(message)"
    }
}
