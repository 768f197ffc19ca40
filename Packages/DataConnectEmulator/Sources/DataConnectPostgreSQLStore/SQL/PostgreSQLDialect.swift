import DataConnectEngine
import DataConnectSchema
import DataConnectWire

/// PostgreSQL 15, storing each value in PostgreSQL's own type, as Data Connect does.
///
/// | GraphQL | column type |
/// |---|---|
/// | `String` | `text`, or `varchar(n)` from `@col(dataType:)` |
/// | `Int`, `Int64`, `Float`, `Boolean` | `int4`, `int8`, `float8`, `bool` |
/// | `UUID`, `Date`, `Timestamp` | `uuid`, `date`, `timestamptz` |
/// | `Any` | `jsonb` |
/// | `Vector` | `jsonb` (a JSON array of numbers): pgvector, upstream's `vector(n)`, is not packaged for Debian 12 |
/// | `[T]` | `T[]` |
/// | user enum | `CREATE TYPE "Enum" AS ENUM (...)`, in declaration order, so ordering follows it natively |
///
/// Other `@col(dataType:)` types (`int2`, `serial`, `char(n)`, ...) take the GraphQL type's column type, as
/// SQLite maps them to storage classes: the answers stay the same on both databases (`char(n)` becomes
/// `varchar(n)`, without the padding).
///
/// The engine binds every value in its SQLite storage form (see ``SQLParameterType``), as text parameters
/// whose type the server infers; each placeholder casts it to the column's type: `$1::uuid` reads 32 hex
/// digits, `$1::timestamptz` the fixed-width UTC text, `($1::int4 <> 0)` a Boolean bound as 0 or 1, and a list
/// bound as JSON text becomes a typed array. The answer is JSON built by the server (`json_build_object`, which
/// keeps key order, and `json_agg`), in exactly the wire form the SQLite dialect writes, up to insignificant
/// whitespace: UUIDs without dashes, `Int64` as strings, timestamps in UTC with the fraction trimmed to 0, 3 or
/// 6 digits.
///
/// ```swift
/// let ddl = SchemaDDL(model: model, dialect: PostgreSQLDialect())
/// print(ddl.script)  // DO $$ BEGIN CREATE TYPE "Genre" AS ENUM (...) ...; CREATE TABLE IF NOT EXISTS ...
/// ```
public struct PostgreSQLDialect: SQLDialect {
    /// Creates the dialect.
    public init() {}

    public func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: Types and parameters

    /// `$N`, cast from the bound storage form to the type the statement compares or stores.
    ///
    /// Lists bound as JSON text of their elements' wire values become typed arrays (`NULL` stays `NULL`, `[]`
    /// becomes `'{}'`); JSON arrays of storage values (``SQLParameterType/jsonArray``) become `jsonb`.
    public func placeholder(_ index: Int, type: SQLParameterType) -> String {
        let parameter = "$\(index)"
        switch type {
        case .untyped: return parameter
        case .integer: return parameter + "::int8"
        case .text: return parameter + "::text"
        case .jsonArray: return parameter + "::jsonb"
        case .scalar(let scalar): return boundScalar(parameter, scalar)
        case .column(let column):
            if column.isList { return boundList(parameter, of: column) }
            return boundElement(parameter, of: column)
        case .listElement(let column): return boundElement(parameter, of: column)
        }
    }

    /// A bound scalar in the column's type.
    func boundScalar(_ parameter: String, _ scalar: ScalarType) -> String {
        scalar == .boolean ? "(\(parameter)::int4 <> 0)" : "\(parameter)::\(Self.scalarType(scalar, maxLength: nil))"
    }

    /// A bound value (or list element) of a column, in the type of the column's elements; strings stay `text`
    /// (an assignment to `varchar(n)` checks the length, a cast would cut it).
    func boundElement(_ parameter: String, of column: Column) -> String {
        switch column.type {
        case .enumeration(let name): return "\(parameter)::\(quote(name))"
        case .scalar(let scalar): return boundScalar(parameter, scalar)
        }
    }

    /// A list bound as JSON text, as a typed array in list order.
    func boundList(_ parameter: String, of column: Column) -> String {
        let elements: String
        let element: String
        switch column.type {
        case .scalar(.any), .scalar(.vector):
            elements = "jsonb_array_elements(\(parameter)::jsonb)"
            element = "_l.e"
        default:
            elements = "jsonb_array_elements_text(\(parameter)::jsonb)"
            element = textAsElement("_l.e", of: column)
        }
        return "(CASE WHEN \(parameter)::jsonb IS NULL THEN NULL ELSE ARRAY(SELECT \(element) FROM \(elements) "
            + "WITH ORDINALITY AS _l(e, o) ORDER BY _l.o) END)"
    }

    /// Text (a JSON element's, a storage value's) read as the type of a column's elements.
    func textAsElement(_ text: String, of column: Column) -> String {
        switch column.type {
        case .enumeration(let name): return "CAST(\(text) AS \(quote(name)))"
        case .scalar(.string): return text
        case .scalar(let scalar): return "CAST(\(text) AS \(Self.scalarType(scalar, maxLength: nil)))"
        }
    }

    /// The type of one scalar value.
    static func scalarType(_ scalar: ScalarType, maxLength: Int?) -> String {
        switch scalar {
        case .string: maxLength.map { "varchar(\($0))" } ?? "text"
        case .int: "int4"
        case .int64: "int8"
        case .float: "float8"
        case .boolean: "bool"
        case .uuid: "uuid"
        case .date: "date"
        case .timestamp: "timestamptz"
        case .any, .vector: "jsonb"
        }
    }

    /// `GENERATED BY DEFAULT AS IDENTITY`: the SQL-standard form of `serial`, numbered from a sequence the column
    /// owns, that still accepts a number an insert gives.
    public func serialClause(_ column: Column) -> String? {
        column.isSerial ? "GENERATED BY DEFAULT AS IDENTITY" : nil
    }

    /// `nil`: the identity column numbers itself when an insert leaves it out.
    public func serialValue(_ column: Column, of table: Table) -> String? { nil }

    public func columnType(_ column: Column) -> String {
        let element: String
        switch column.type {
        case .enumeration(let name): element = quote(name)
        case .scalar(let scalar): element = Self.scalarType(scalar, maxLength: column.maxLength)
        }
        return column.isList ? element + "[]" : element
    }

    // MARK: JSON answers

    public func jsonValue(_ expression: String, of column: Column) -> String {
        if column.isList { return listJSON(expression, of: column) }
        switch column.type {
        case .enumeration: return expression
        case .scalar(let scalar):
            switch scalar {
            case .string, .int, .boolean, .date, .any, .vector: return expression
            case .uuid: return uuidText(expression)
            case .int64: return textCast(expression)
            case .float: return jsonFloat(expression)
            case .timestamp: return timestampOutput(expression)
            }
        }
    }

    /// A list as a JSON array of its elements' wire values: `to_json` where PostgreSQL's JSON form is the wire
    /// form, else element by element.
    func listJSON(_ expression: String, of column: Column) -> String {
        let element: String
        switch column.type {
        case .scalar(.uuid): element = uuidText("_l.e")
        case .scalar(.int64): element = textCast("_l.e")
        case .scalar(.timestamp): element = timestampOutput("_l.e")
        default: return "to_json(\(expression))"
        }
        return "(CASE WHEN \(expression) IS NULL THEN NULL ELSE coalesce((SELECT json_agg(\(element) ORDER BY _l.o) "
            + "FROM unnest(\(expression)) WITH ORDINALITY AS _l(e, o)), '[]'::json) END)"
    }

    /// A UUID as 32 lowercase hex digits: its 16 bytes in hex, about twice as fast as removing the dashes from
    /// its text form (a list's ids are written once per object).
    func uuidText(_ expression: String) -> String {
        "encode(uuid_send(\(expression)), 'hex')"
    }

    /// A timestamp in UTC, `YYYY-MM-DDTHH:MM:SS.ffffffZ`: the SQLite storage form.
    func timestampStorage(_ expression: String) -> String {
        "to_char((\(expression)) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
    }

    /// A timestamp's wire text: the storage form with the fraction trimmed to 0, 3 or 6 digits, as
    /// ``SQLiteDialect`` writes it.
    func timestampOutput(_ expression: String) -> String {
        "regexp_replace(\(timestampStorage(expression)), '(\\.000)?000Z$', 'Z')"
    }

    /// `json_build_object(...)`: `json`, not `jsonb`, so keys keep their order.
    public func jsonObject(_ pairs: [(key: String, value: String)]) -> String {
        "json_build_object(" + pairs.map { "\(stringLiteral($0.key)), \($0.value)" }.joined(separator: ", ") + ")"
    }

    /// 50: a PostgreSQL function takes at most 100 arguments (`FUNC_MAX_ARGS`); wider objects are built in parts
    /// and merged by the engine.
    public var maximumJSONObjectPairs: Int { 50 }

    /// `json_agg` in the order the rows come: from a subquery sorted by the list's `orderBy`, which PostgreSQL
    /// aggregates in that order.
    public func jsonArrayAggregate(_ expression: String) -> String {
        "coalesce(json_agg(\(expression)), '[]'::json)"
    }

    public func orderedJSONArrayAggregate(_ expression: String, orderBy: String) -> String {
        orderBy.isEmpty
            ? jsonArrayAggregate(expression) : "coalesce(json_agg(\(expression) ORDER BY \(orderBy)), '[]'::json)"
    }

    /// `jsonb_array_elements`: the elements as `jsonb`, which compares by value (`json` has no equality).
    public func jsonArrayElements(_ expression: String) -> String {
        "jsonb_array_elements(\(expression))"
    }

    /// `jsonb_build_array`, so that arrays compare with ``jsonArrayElements(_:)``'s elements.
    /// `json_build_array`, not `jsonb`: the element's keys stay in their order.
    public func singleElementJSONArray(_ element: String, when condition: String) -> String {
        "CASE WHEN \(condition) THEN json_build_array(\(element)) ELSE '[]'::json END"
    }

    public func jsonArray(_ expressions: [String]) -> String {
        "jsonb_build_array(\(expressions.joined(separator: ", ")))"
    }

    /// As `float8` (an `AVG` of integers is `numeric`), with non-finite values as `null`, as SQLite writes
    /// them.
    public func jsonFloat(_ expression: String) -> String {
        "nullif(nullif(nullif(CAST(\(expression) AS float8), 'Infinity'), '-Infinity'), 'NaN')"
    }

    public func textCast(_ expression: String) -> String {
        "CAST(\(expression) AS text)"
    }

    public func storageValue(_ expression: String, of column: Column) -> String {
        if column.isList { return textCast(listJSON(expression, of: column)) }
        switch column.type {
        case .enumeration: return textCast(expression)
        case .scalar(let scalar):
            switch scalar {
            case .uuid: return uuidText(expression)
            case .date: return "to_char(\(expression), 'YYYY-MM-DD')"
            case .timestamp: return timestampStorage(expression)
            case .boolean: return "CAST(\(expression) AS int4)"
            case .any, .vector: return textCast(expression)
            case .string, .int, .int64, .float: return expression
            }
        }
    }

    public func storageText(_ expression: String, of column: Column) -> String {
        if column.isList { return storageValue(expression, of: column) }
        switch column.type {
        case .enumeration: return storageValue(expression, of: column)
        case .scalar(let scalar):
            switch scalar {
            case .uuid, .date, .timestamp, .any, .vector, .string: return storageValue(expression, of: column)
            case .boolean, .int, .int64, .float: return textCast(storageValue(expression, of: column))
            }
        }
    }

    /// The elements as text, cast to the column's type (which reads the storage form and PostgreSQL's JSON
    /// forms alike: dashed UUIDs, `+00:00` offsets).
    public func storageValues(_ array: String, of column: Column) -> String {
        "SELECT \(textAsElement("_v.value", of: Column.element(of: column))) "
            + "FROM jsonb_array_elements_text(\(array)) AS _v(value)"
    }

    public func derivedTable(_ subquery: String, alias: String) -> String {
        "(\(subquery)) AS \(alias)"
    }

    /// A plain `LEFT JOIN` for a root list; below a parent row, a lateral subquery of at most one row, which the
    /// planner cannot merge into a join: it finds the row through the target's key. As a plain join, the planner
    /// prices a seq scan of a small target table (a few pages) below the few index probes the join needs, and
    /// so hashes the whole table again for every parent row (a 3-level list of 20 movies, their reviews and
    /// each review's author ran 4 to 5 times slower that way).
    public func toOneJoin(_ table: String, alias: String, on conditions: String, perParentRow: Bool) -> String {
        guard perParentRow else { return " LEFT JOIN \(table) ON \(conditions)" }
        return " LEFT JOIN LATERAL (SELECT * FROM \(table) WHERE \(conditions) LIMIT 1) AS \(alias) ON true"
    }

    /// Grouped by the object's text (`json` has no equality); the groups' objects are equal text.
    public func distinctObjects(_ rows: String, alias: String, page: String) -> String {
        "SELECT CAST(min(CAST(j AS text)) AS json) AS j FROM (\(rows)) AS \(alias) GROUP BY CAST(j AS text) "
            + "ORDER BY min(_rn)\(page)"
    }

    /// The column itself: a PostgreSQL enum sorts in declaration order.
    public func enumSortKey(_ expression: String, values: [String]) -> String {
        expression
    }

    /// `LIKE` is case-sensitive; its default escape character, `\`, is turned off with `ESCAPE ''`.
    public func like(_ subject: String, pattern: String, escaped: Bool) -> String {
        "\(subject) LIKE \(pattern) ESCAPE '\(escaped ? "\\" : "")'"
    }

    // MARK: Lists

    /// `unnest(list) AS alias(value)`; the alias is `_e` when none is given.
    public func listElements(_ list: String, of column: Column, alias: String?) -> String {
        "unnest(\(list)) AS \(alias ?? "_e")(value)"
    }

    public func listFromElements(_ query: String, of column: Column) -> String {
        "ARRAY(\(query))"
    }

    public func emptyList(of column: Column) -> String {
        "'{}'"
    }

    /// An array literal, `'{"a","b"}'`: each element's text (a string's value, any other value's JSON) quoted.
    public func listLiteral(_ elements: [JSONValue], of column: Column) -> String {
        let items = elements.map { element -> String in
            let text = element.stringValue ?? element.jsonString()
            return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        return stringLiteral("{" + items.joined(separator: ",") + "}")
    }

    // MARK: Conditions and statements

    /// `regexp_like` (PostgreSQL 15): advanced regular expressions, a superset of POSIX extended ones for the
    /// patterns the engine accepts; `flags` `'i'` ignores case.
    public func regularExpressionMatch(subject: String, pattern: String, flags: String) -> String {
        "regexp_like(\(subject), \(pattern), \(flags))"
    }

    public func conditionLiteral(_ value: Bool) -> String {
        value ? "TRUE" : "FALSE"
    }

    /// `NULL`: `LIMIT NULL` is no limit.
    public var unlimitedCount: String { "NULL" }

    /// `RETURNING`, each column in its storage form (``storageValue(_:of:)``) under its own name.
    public func returning(_ columns: [Column]) -> String {
        "RETURNING "
            + columns.map { column in
                let name = quote(column.sqlName)
                let value = storageValue(name, of: column)
                return value == name ? name : "\(value) AS \(name)"
            }.joined(separator: ", ")
    }

    /// `ctid`, the row's physical address: stable within the statement that reads and writes it.
    public var rowIdentifier: String { "ctid" }

    /// `BEGIN`: rows are locked as they are written.
    public var beginWriteTransaction: String { "BEGIN" }

    /// 32: PostgreSQL's parser and planner recurse on the C stack (`max_stack_depth`, 2 MB by default) with
    /// no small fixed parser stack like SQLite's, so a relation chain is split off only when it is deeper than
    /// any connector written by hand (validation bounds the depth too), keeping one statement per root field.
    public var maximumSubqueryNesting: Int { 32 }

    // MARK: Date and time arithmetic

    /// `date + make_interval(months => m)`, which clamps the day to the target month's end, then `+ days`.
    public func shiftedDate(_ date: String, months: String, days: String) -> String {
        "(CAST((\(date)) + make_interval(months => CAST(\(months) AS int4)) AS date) + CAST(\(days) AS int4))"
    }

    /// The months added to the UTC wall-clock time (so no time zone's daylight saving moves the hour), then the
    /// exact microseconds.
    public func shiftedTimestamp(_ stored: String, months: String, microseconds: String) -> String {
        "((((\(stored)) AT TIME ZONE 'UTC' + make_interval(months => CAST(\(months) AS int4))) AT TIME ZONE 'UTC') "
            + "+ (\(microseconds)) * interval '1 microsecond')"
    }

    /// The expression itself: subqueries answer `json` already.
    public func embedJSON(_ expression: String) -> String {
        expression
    }

    /// `'...'` with quotes doubled (`standard_conforming_strings` is on: backslashes are plain).
    public func stringLiteral(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }

    public func upsertClause(conflictColumns: [String], updateColumns: [String]) -> String {
        let target = conflictColumns.map(quote).joined(separator: ", ")
        if updateColumns.isEmpty, let first = conflictColumns.first {
            // A no-op update, so that RETURNING still yields the existing row's key.
            return "ON CONFLICT (\(target)) DO UPDATE SET \(quote(first)) = excluded.\(quote(first))"
        }
        let sets = updateColumns.map { "\(quote($0)) = excluded.\(quote($0))" }.joined(separator: ", ")
        return "ON CONFLICT (\(target)) DO UPDATE SET \(sets)"
    }

    // MARK: Schema definition

    /// `CREATE TYPE "Enum" AS ENUM (...)` in a `DO` block that ignores an existing type, as
    /// `CREATE TABLE IF NOT EXISTS` ignores an existing table.
    public func enumTypeDefinition(_ enumType: EnumType) -> String? {
        let values = enumType.values.map(stringLiteral).joined(separator: ", ")
        return "DO $$ BEGIN CREATE TYPE \(quote(enumType.name)) AS ENUM (\(values)); "
            + "EXCEPTION WHEN duplicate_object THEN NULL; END $$"
    }

    /// None: each column's type keeps its values valid.
    public func columnChecks(_ column: Column, quotedName: String, enumValues values: [String]) -> [String] {
        []
    }

    public func booleanLiteral(_ value: Bool) -> String {
        value ? "TRUE" : "FALSE"
    }

    /// `now()`, today's UTC date and `gen_random_uuid()`, parenthesized as expressions evaluated per row.
    public func defaultExpression(_ function: SQLDefaultFunction) -> String {
        switch function {
        case .currentTimestamp: "(now())"
        case .currentDate: "(CAST(now() AT TIME ZONE 'UTC' AS date))"
        case .randomUUID: "(gen_random_uuid())"
        }
    }

    /// `TRUE`: `jsonb` holds valid JSON only.
    public func isValidJSON(_ expression: String) -> String {
        "TRUE"
    }
}
