import DataConnectSchema
import DataConnectWire

/// The seam between generated SQL and one SQL engine: quoting, column types, JSON functions, upserts.
///
/// Each store module has its dialect: `SQLiteDialect` for the embedded database, `PostgreSQLDialect` for
/// PostgreSQL. Code that writes SQL asks the dialect for anything engine-specific, so database idioms stay in
/// the dialects.
///
/// Storage formats are chosen so the wire format falls out directly:
/// - `UUID`: `TEXT`, 32 lowercase hex digits;
/// - `Int64`: `INTEGER`, written to JSON as a decimal string;
/// - `Boolean`: `INTEGER` 0/1;
/// - `Date`: `TEXT` `YYYY-MM-DD`;
/// - `Timestamp`: `TEXT` fixed-width UTC `YYYY-MM-DDTHH:MM:SS.ffffffZ` (sorts correctly);
/// - `Any`, lists and `Vector`: `TEXT` holding JSON;
/// - enums: `TEXT` holding the value name, with a `CHECK`.
public protocol SQLDialect: Sendable {
    /// A quoted identifier: `"movie"`, with embedded quotes doubled.
    func quote(_ identifier: String) -> String
    /// The placeholder of statement parameter `index` (from 1), for a value bound as `type`: `?1` on SQLite;
    /// a database with typed parameters wraps it in what turns the bound value into that type.
    func placeholder(_ index: Int, type: SQLParameterType) -> String
    /// The SQL type of a column.
    func columnType(_ column: Column) -> String
    /// What the column definition of an auto-numbered (``Column/isSerial``) column adds after its type, or `nil`
    /// when nothing: the database numbers it by itself or through ``serialValue(_:of:)``.
    func serialClause(_ column: Column) -> String?
    /// The SQL value an insert gives an auto-numbered column it was not given, or `nil` when the database assigns
    /// one when the column is left out.
    func serialValue(_ column: Column, of table: Table) -> String?
    /// The SQL expression that renders a stored column value as its JSON wire form, for use as a
    /// value inside ``jsonObject(_:)``.
    func jsonValue(_ expression: String, of column: Column) -> String
    /// A JSON object built from at most ``maximumJSONObjectPairs`` key/value SQL expression pairs.
    func jsonObject(_ pairs: [(key: String, value: String)]) -> String
    /// The most key/value pairs one ``jsonObject(_:)`` call may take (a function's argument limit): wider
    /// objects are built by the compiler as merged parts.
    var maximumJSONObjectPairs: Int { get }
    /// An aggregate that collects JSON values into a JSON array, in row order; an empty array (not NULL)
    /// when there are no rows.
    func jsonArrayAggregate(_ expression: String) -> String
    /// A JSON array of the JSON values of `expression` over the rows of a subquery that is sorted by `orderBy`
    /// (output column names) and cut to its page: in that order, `[]` when there are none.
    func orderedJSONArrayAggregate(_ expression: String, orderBy: String) -> String
    /// A table source (for `FROM`) with one row per element of a JSON array, the element in column `value`
    /// as the database compares JSON: comparable with another element of ``jsonArray(_:)``'s arrays.
    func jsonArrayElements(_ expression: String) -> String
    /// A JSON array of SQL values, e.g. the key columns of a row; two arrays of equal values compare equal.
    func jsonArray(_ expressions: [String]) -> String
    /// A JSON array holding the JSON value `element` when `condition` holds, and empty otherwise (the keys of an
    /// object element in their order).
    func singleElementJSONArray(_ element: String, when condition: String) -> String
    /// A stored `Float` (or an `AVG`/`SUM`) as its JSON wire number (non-finite values as `null`).
    func jsonFloat(_ expression: String) -> String
    /// A number as text (an `Int64` on the wire).
    func textCast(_ expression: String) -> String
    /// A column value in the storage form the engine reads back (a key returned by a write, a key in an
    /// entity id): what SQLite stores, whatever the database's own type.
    ///
    /// UUIDs as 32 lowercase hex digits, `Date` as `YYYY-MM-DD`, `Timestamp` as fixed-width UTC
    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, `Boolean` as the integer 0 or 1; other types as they are.
    func storageValue(_ expression: String, of column: Column) -> String
    /// A column value's storage form as text: the parts of an entity id.
    func storageText(_ expression: String, of column: Column) -> String
    /// The subquery (`SELECT value FROM ...`) of the values of a JSON array of a column's storage values
    /// (a bound `in` list, the parent keys of a split relation), typed as the column for comparison.
    func storageValues(_ array: String, of column: Column) -> String
    /// A subquery in `FROM`, with the alias the database may require.
    func derivedTable(_ subquery: String, alias: String) -> String
    /// The `LEFT JOIN` clause (with its leading space) of a to-one relation read in a list's innermost layer:
    /// `table` (`"name" AS alias`) joined on `conditions`, the target's key equal to the row's reference, so at
    /// most one row. `perParentRow`: the list is a relation of a parent row, its statement run once per parent.
    func toOneJoin(_ table: String, alias: String, on conditions: String, perParentRow: Bool) -> String
    /// The rows of `rows` (a subquery answering a JSON object `j` and its position `_rn`) without
    /// duplicate objects, each kept at its first position, in that order, cut to `page` (`LIMIT ...`).
    func distinctObjects(_ rows: String, alias: String, page: String) -> String
    /// A sort key for an enum column that follows the values' declaration order.
    func enumSortKey(_ expression: String, values: [String]) -> String
    /// A `LIKE` match; with `escaped`, `\` escapes `%`, `_` and itself in `pattern`, otherwise no
    /// character escapes.
    func like(_ subject: String, pattern: String, escaped: Bool) -> String

    // MARK: List columns

    /// A table source (for `FROM`) with one row per element of a list column's value (a stored column, or a
    /// parameter bound as ``SQLParameterType/column(_:)`` of the list column), in list order, the element in
    /// column `value` typed as the column's elements; `alias`, when given, names the source.
    func listElements(_ list: String, of column: Column, alias: String?) -> String
    /// The value of a list column built from a query of its elements (`SELECT value ...`), in the query's
    /// order; an empty list when the query has no rows.
    func listFromElements(_ query: String, of column: Column) -> String
    /// The empty list, as a value of a list column.
    func emptyList(of column: Column) -> String
    /// A constant list of elements in their wire form, as a value of a list column (a column default).
    func listLiteral(_ elements: [JSONValue], of column: Column) -> String
    /// A condition that holds when `subject` matches the POSIX extended regular expression `pattern`;
    /// `flags` is `'i'` to ignore case, `''` otherwise.
    func regularExpressionMatch(subject: String, pattern: String, flags: String) -> String
    /// A constant condition (`WHERE` true or false).
    func conditionLiteral(_ value: Bool) -> String
    /// The `LIMIT` operand meaning "no limit".
    var unlimitedCount: String { get }
    /// The clause ending an INSERT, UPDATE or DELETE that returns the given columns of each row written, in
    /// their storage form (``storageValue(_:of:)``).
    func returning(_ columns: [Column]) -> String
    /// The pseudo-column that names a row in a single-table subquery (`rowid`, `ctid`).
    var rowIdentifier: String { get }
    /// The SQL of vector similarity, full-text search and index types.
    var search: any SearchDialect { get }
    /// The statement that starts a transaction that writes (taking the write lock at once).
    var beginWriteTransaction: String { get }
    /// The most list or single-row subqueries one statement may nest: relations below are fetched by a
    /// statement of their own (the database's parser has a fixed stack).
    var maximumSubqueryNesting: Int { get }

    // MARK: Date and time arithmetic

    /// A stored `Date` moved by whole months (the day clamped to the target month's last day, as
    /// PostgreSQL does), then by days; `months` and `days` are integer SQL expressions.
    func shiftedDate(_ date: String, months: String, days: String) -> String
    /// A stored `Timestamp` moved by whole months (as ``shiftedDate(_:months:days:)``), then by an exact
    /// number of microseconds; both are integer SQL expressions.
    func shiftedTimestamp(_ stored: String, months: String, microseconds: String) -> String
    /// Re-reads a JSON text produced by a subquery as JSON (not as a string) when embedded in an object.
    func embedJSON(_ expression: String) -> String
    /// A string literal.
    func stringLiteral(_ value: String) -> String
    /// The clause that turns an INSERT into an upsert on a primary-key conflict.
    func upsertClause(conflictColumns: [String], updateColumns: [String]) -> String

    // MARK: Schema definition

    /// The statement that creates a user enum's type (values in declaration order), or `nil` when enum
    /// columns need no type of their own.
    func enumTypeDefinition(_ enumType: EnumType) -> String?
    /// The `CHECK` conditions that keep a column's values in their storage form, where the column's type
    /// does not; `values` are an enum column's values.
    func columnChecks(_ column: Column, quotedName: String, enumValues values: [String]) -> [String]
    /// A boolean constant in its storage form, for column defaults and `CHECK` constraints.
    func booleanLiteral(_ value: Bool) -> String
    /// The column-default expression for a whitelisted `@default(sql:)` function, producing the
    /// storage form of its column type; parenthesized where the engine needs it.
    func defaultExpression(_ function: SQLDefaultFunction) -> String
    /// A condition, for a `CHECK` constraint, that holds when `expression` is well-formed JSON text.
    func isValidJSON(_ expression: String) -> String
}

/// What a statement parameter is bound as: the engine binds every value in its SQLite storage form (text for
/// UUIDs, dates, timestamps and JSON; integers for `Int`, `Int64` and `Boolean`), and the dialect's
/// ``SQLDialect/placeholder(_:type:)`` turns it into the database's own type where that differs.
public enum SQLParameterType: Hashable, Sendable {
    /// A value whose type the statement decides (a constant bound by the engine).
    case untyped
    /// A value in the storage form of a column (a list column's value is JSON text of its elements' wire values).
    case column(Column)
    /// A value in the storage form of a scalar.
    case scalar(ScalarType)
    /// A JSON array as text (the keys of parent rows, filter lists, list-update operands).
    case jsonArray
    /// One element of a list column in its wire form.
    case listElement(Column)
    /// An integer.
    case integer
    /// Text.
    case text
}

/// A database function that a whitelisted `@default(sql:)` stands for.
public enum SQLDefaultFunction: Hashable, Sendable {
    /// `now()` and `CURRENT_TIMESTAMP`: the current time as a stored `Timestamp`.
    case currentTimestamp
    /// `CURRENT_DATE`: today's UTC date as a stored `Date`.
    case currentDate
    /// `gen_random_uuid()` and `uuid_generate_v4()`: a random version-4 UUID as a stored `UUID`.
    case randomUUID
}
