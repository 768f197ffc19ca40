import DataConnectEngine
import DataConnectSchema
import DataConnectWire

/// SQLite 3.40 (JSON1, `RETURNING`, `ON CONFLICT ... DO UPDATE`).
public struct SQLiteDialect: SQLDialect {
    /// Creates the dialect.
    public init() {}

    public func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `?N`: SQLite converts nothing, values are bound in storage form.
    public func placeholder(_ index: Int, type: SQLParameterType) -> String {
        "?\(index)"
    }

    public func columnType(_ column: Column) -> String {
        if column.isList { return "TEXT" }
        switch column.type {
        case .enumeration: return "TEXT"
        case .scalar(let scalar):
            switch scalar {
            case .string, .uuid, .date, .timestamp, .any, .vector: return "TEXT"
            case .int, .int64, .boolean: return "INTEGER"
            case .float: return "REAL"
            }
        }
    }

    /// Nothing: a single `INTEGER` key is SQLite's row id, numbered when left out; other columns take
    /// ``serialValue(_:of:)``.
    public func serialClause(_ column: Column) -> String? { nil }

    /// `nil` for the single `INTEGER` key (the row id: SQLite numbers it); otherwise one more than the largest
    /// number in the column (mutations run one at a time on the writer connection, so no two inserts see the
    /// same largest number).
    public func serialValue(_ column: Column, of table: Table) -> String? {
        if table.primaryKey == [column.name], columnType(column) == "INTEGER" { return nil }
        let name = quote(column.sqlName)
        return "(SELECT coalesce(max(\(name)), 0) + 1 FROM \(quote(table.sqlName)))"
    }

    /// The function that marks JSON text SQLite wrote (a subquery's result) as JSON, unchecked.
    public static let embedFunction = "dataconnect_embed"
    /// The function that checks JSON text read from a column and marks it as JSON.
    public static let storedJSONFunction = "dataconnect_stored_json"

    /// Stored JSON (lists, `Any`, vectors) is checked and marked as JSON rather than parsed and written again
    /// by `json()`.
    public func jsonValue(_ expression: String, of column: Column) -> String {
        if column.isList { return "\(Self.storedJSONFunction)(\(expression))" }
        switch column.type {
        case .enumeration: return expression
        case .scalar(let scalar):
            switch scalar {
            case .string, .uuid, .date, .int: return expression
            case .float: return jsonFloat(expression)
            case .int64: return textCast(expression)
            case .boolean:
                return "\(Self.embedFunction)(CASE \(expression) WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)"
            case .any, .vector: return "\(Self.storedJSONFunction)(\(expression))"
            case .timestamp: return timestampOutput(expression)
            }
        }
    }

    /// Stored `YYYY-MM-DDTHH:MM:SS.ffffffZ`, written with the fraction trimmed to 0, 3 or 6 digits.
    func timestampOutput(_ e: String) -> String {
        "(CASE WHEN substr(\(e), 21, 6) = '000000' THEN substr(\(e), 1, 19) || 'Z' "
            + "WHEN substr(\(e), 24, 3) = '000' THEN substr(\(e), 1, 23) || 'Z' ELSE \(e) END)"
    }

    /// `json_object(...)`.
    public func jsonObject(_ pairs: [(key: String, value: String)]) -> String {
        "json_object(" + pairs.map { "\(stringLiteral($0.key)), \($0.value)" }.joined(separator: ", ") + ")"
    }

    /// 63: SQLite passes at most 127 arguments to a function.
    public var maximumJSONObjectPairs: Int { 63 }

    public func jsonArrayAggregate(_ expression: String) -> String {
        "coalesce(json_group_array(\(expression)), '[]')"
    }

    /// `json_group_array` over the rows as the sorted subquery hands them over: SQLite runs a subquery with
    /// `ORDER BY` and `LIMIT` in `FROM` as a co-routine that yields its rows in order (it has no `ORDER BY`
    /// inside aggregates before 3.44), so the objects are neither sorted again nor parsed again.
    public func orderedJSONArrayAggregate(_ expression: String, orderBy: String) -> String {
        jsonArrayAggregate(expression)
    }

    public func jsonArrayElements(_ expression: String) -> String {
        "json_each(\(expression))"
    }

    public func singleElementJSONArray(_ element: String, when condition: String) -> String {
        "CASE WHEN \(condition) THEN json_array(\(element)) ELSE json_array() END"
    }

    public func jsonArray(_ expressions: [String]) -> String {
        "json_array(\(expressions.joined(separator: ", ")))"
    }

    /// Through `dataconnect_float`, which writes the shortest round-trip number as JSON, and non-finite values
    /// as Data Connect does.
    public func jsonFloat(_ expression: String) -> String {
        "dataconnect_float(\(expression))"
    }

    public func textCast(_ expression: String) -> String {
        "CAST(\(expression) AS TEXT)"
    }

    /// The value itself: SQLite stores the storage form.
    public func storageValue(_ expression: String, of column: Column) -> String {
        expression
    }

    public func storageText(_ expression: String, of column: Column) -> String {
        textCast(expression)
    }

    /// `SELECT value FROM json_each(array)`: the storage values compare as they are.
    public func storageValues(_ array: String, of column: Column) -> String {
        "SELECT value FROM \(jsonArrayElements(array))"
    }

    /// The subquery alone: SQLite needs no alias.
    public func derivedTable(_ subquery: String, alias: String) -> String {
        "(\(subquery))"
    }

    /// A plain `LEFT JOIN`: SQLite reads the one row through the target's key whatever the list.
    public func toOneJoin(_ table: String, alias: String, on conditions: String, perParentRow: Bool) -> String {
        " LEFT JOIN \(table) ON \(conditions)"
    }

    /// Grouped by the object's JSON text.
    public func distinctObjects(_ rows: String, alias: String, page: String) -> String {
        "SELECT j FROM (\(rows)) GROUP BY j ORDER BY min(_rn)\(page)"
    }

    /// A `CASE` numbering the values: enums are stored as text.
    public func enumSortKey(_ expression: String, values: [String]) -> String {
        let cases = values.enumerated().map { "WHEN \(stringLiteral($0.element)) THEN \($0.offset)" }
        return "(CASE \(expression) \(cases.joined(separator: " ")) END)"
    }

    /// `LIKE` is case-sensitive on the engine's connections (`PRAGMA case_sensitive_like`) and has no escape
    /// character unless one is named.
    ///
    /// Each match is preceded by ``interruptCheckFunction``: SQLite checks for an interrupt only between rows, and
    /// hundreds of `LIKE`s over megabytes of text make one row take seconds; with the check, a request stopped by
    /// its time limit ends after the match running then.
    public func like(_ subject: String, pattern: String, escaped: Bool) -> String {
        let match = escaped ? "\(subject) LIKE \(pattern) ESCAPE '\\'" : "\(subject) LIKE \(pattern)"
        return "(\(Self.interruptCheckFunction)() AND \(match))"
    }

    /// `dataconnect_continue()`: 1 while the statement may go on, an `SQLITE_INTERRUPT` error once its connection
    /// was interrupted (see ``SQLiteKit/Connection/createInterruptCheckFunction(_:)``).
    public static let interruptCheckFunction = "dataconnect_continue"

    /// `json_each(list)`: lists are stored as JSON arrays of wire values.
    public func listElements(_ list: String, of column: Column, alias: String?) -> String {
        "json_each(\(list))" + (alias.map { " AS \($0)" } ?? "")
    }

    public func listFromElements(_ query: String, of column: Column) -> String {
        "(SELECT \(jsonArrayAggregate("value")) FROM (\(query)))"
    }

    public func emptyList(of column: Column) -> String {
        "'[]'"
    }

    /// The JSON text of the elements.
    public func listLiteral(_ elements: [JSONValue], of column: Column) -> String {
        stringLiteral(JSONValue.array(elements).jsonString())
    }

    /// Through `dataconnect_regexp(pattern, subject, flags)`, registered on every connection.
    public func regularExpressionMatch(subject: String, pattern: String, flags: String) -> String {
        "dataconnect_regexp(\(pattern), \(subject), \(flags))"
    }

    public func conditionLiteral(_ value: Bool) -> String {
        value ? "1" : "0"
    }

    /// `-1`: SQLite reads a negative limit as none.
    public var unlimitedCount: String { "-1" }

    public func returning(_ columns: [Column]) -> String {
        "RETURNING " + columns.map { quote($0.sqlName) }.joined(separator: ", ")
    }

    public var rowIdentifier: String { "rowid" }

    public var beginWriteTransaction: String { "BEGIN IMMEDIATE" }

    /// 4: SQLite 3.40's parser stack (100 entries) overflows a little past five nested list subqueries.
    public var maximumSubqueryNesting: Int { 4 }

    /// Through the date functions' modifiers: `'start of month'`, `'N months'`, then the day clamped. The
    /// date is named once in a subquery, so chained shifts grow the SQL linearly.
    public func shiftedDate(_ date: String, months: String, days: String) -> String {
        let d = "_dc_d"
        let lastDay =
            "CAST(strftime('%d', \(d), 'start of month', ((\(months)) + 1) || ' months', '-1 day') AS INTEGER)"
        return "(SELECT date(\(d), 'start of month', (\(months)) || ' months', "
            + "'+' || (min(CAST(strftime('%d', \(d)) AS INTEGER), \(lastDay)) - 1) || ' days', "
            + "(\(days)) || ' days') FROM (SELECT \(date) AS \(d)))"
    }

    /// The calendar part through ``shiftedDate(_:months:days:)``, then the microseconds since the epoch; the
    /// stored value is named once in a subquery.
    public func shiftedTimestamp(_ stored: String, months: String, microseconds: String) -> String {
        let s = "_dc_s"
        let date = shiftedDate("substr(\(s), 1, 10)", months: months, days: "0")
        let seconds = "CAST(strftime('%s', \(date) || ' ' || substr(\(s), 12, 8)) AS INTEGER)"
        let total = "\(seconds) * 1000000 + CAST(substr(\(s), 21, 6) AS INTEGER) + (\(microseconds))"
        return "(SELECT strftime('%Y-%m-%dT%H:%M:%S', (u - f) / 1000000, 'unixepoch') || '.' "
            + "|| substr('00000' || f, -6) || 'Z' "
            + "FROM (SELECT u, ((u % 1000000) + 1000000) % 1000000 AS f "
            + "FROM (SELECT \(total) AS u FROM (SELECT \(stored) AS \(s)))))"
    }

    /// Through `dataconnect_embed`: the JSON text SQLite wrote, marked as JSON again without a parse.
    public func embedJSON(_ expression: String) -> String {
        "\(Self.embedFunction)(\(expression))"
    }

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

    /// `nil`: enum columns are `TEXT`, checked by ``columnChecks(_:quotedName:enumValues:)``.
    public func enumTypeDefinition(_ enumType: EnumType) -> String? {
        nil
    }

    /// `varchar(n)` gives `length(c) <= n`; enums `c IN (...)`; `Boolean` `c IN (0, 1)`; `UUID`
    /// `length(c) = 32`; `Any`, `Vector` and lists `json_valid(c)` (or `NULL` when nullable).
    public func columnChecks(_ column: Column, quotedName name: String, enumValues values: [String]) -> [String] {
        // SQLite before 3.45 says `json_valid(NULL)` is 0, so a nullable JSON column lets `NULL` through itself.
        let json = column.isNonNull ? isValidJSON(name) : "\(name) IS NULL OR \(isValidJSON(name))"
        if column.isList { return [json] }
        switch column.type {
        case .enumeration:
            return ["\(name) IN (\(values.map(stringLiteral).joined(separator: ", ")))"]
        case .scalar(let scalar):
            switch scalar {
            case .boolean:
                return ["\(name) IN (\(booleanLiteral(false)), \(booleanLiteral(true)))"]
            case .uuid:
                return ["length(\(name)) = 32"]
            case .any, .vector:
                return [json]
            case .string:
                return column.maxLength.map { ["length(\(name)) <= \($0)"] } ?? []
            case .int, .int64, .float, .date, .timestamp:
                return []
            }
        }
    }

    public func booleanLiteral(_ value: Bool) -> String {
        value ? "1" : "0"
    }

    /// `strftime`'s `%f` is `SS.SSS`; three zeros pad it to the stored six fractional digits.
    /// The UUID is 32 lowercase hex digits with the version nibble `4` and an RFC 4122 variant nibble.
    public func defaultExpression(_ function: SQLDefaultFunction) -> String {
        switch function {
        case .currentTimestamp:
            "(strftime('%Y-%m-%dT%H:%M:%f000Z', 'now'))"
        case .currentDate:
            "(date('now'))"
        case .randomUUID:
            "(lower(hex(randomblob(6)) || '4' || substr(hex(randomblob(2)), 2) || "
                + "substr('89ab', 1 + abs(random() % 4), 1) || substr(hex(randomblob(2)), 2) || hex(randomblob(6))))"
        }
    }

    public func isValidJSON(_ expression: String) -> String {
        "json_valid(\(expression))"
    }
}
