import DataConnectSchema

/// The seam between generated SQL and one SQL engine: quoting, column types, JSON functions, upserts.
///
/// SQLite is the embedded default; PostgreSQL is the next backend. Code that writes SQL asks the
/// dialect for anything engine-specific, so SQLite idioms stay here.
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
    /// The SQL type of a column.
    func columnType(_ column: Column) -> String
    /// The SQL expression that renders a stored column value as its JSON wire form, for use as a
    /// value inside ``jsonObject(_:)``.
    func jsonValue(_ expression: String, of column: Column) -> String
    /// A JSON object built from key/value SQL expression pairs.
    func jsonObject(_ pairs: [(key: String, value: String)]) -> String
    /// An aggregate that collects JSON values into a JSON array, in row order.
    func jsonArrayAggregate(_ expression: String) -> String
    /// Re-reads a JSON text produced by a subquery as JSON (not as a string) when embedded in an object.
    func embedJSON(_ expression: String) -> String
    /// A string literal.
    func stringLiteral(_ value: String) -> String
    /// The clause that turns an INSERT into an upsert on a primary-key conflict.
    func upsertClause(conflictColumns: [String], updateColumns: [String]) -> String

    // MARK: Schema definition

    /// A boolean constant in its storage form, for column defaults and `CHECK` constraints.
    func booleanLiteral(_ value: Bool) -> String
    /// The column-default expression for a whitelisted `@default(sql:)` function, producing the
    /// storage form of its column type; parenthesized where the engine needs it.
    func defaultExpression(_ function: SQLDefaultFunction) -> String
    /// A condition, for a `CHECK` constraint, that holds when `expression` is well-formed JSON text.
    func isValidJSON(_ expression: String) -> String
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

/// SQLite 3.40 (JSON1, `RETURNING`, `ON CONFLICT ... DO UPDATE`).
public struct SQLiteDialect: SQLDialect {
    /// Creates the dialect.
    public init() {}

    public func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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

    public func jsonValue(_ expression: String, of column: Column) -> String {
        if column.isList { return "json(\(expression))" }
        switch column.type {
        case .enumeration: return expression
        case .scalar(let scalar):
            switch scalar {
            case .string, .uuid, .date, .int: return expression
            case .float: return "json(dataconnect_float(\(expression)))"
            case .int64: return "CAST(\(expression) AS TEXT)"
            case .boolean: return "json(CASE \(expression) WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)"
            case .any, .vector: return "json(\(expression))"
            case .timestamp: return timestampOutput(expression)
            }
        }
    }

    /// Stored `YYYY-MM-DDTHH:MM:SS.ffffffZ`, written with the fraction trimmed to 0, 3 or 6 digits.
    func timestampOutput(_ e: String) -> String {
        "(CASE WHEN substr(\(e), 21, 6) = '000000' THEN substr(\(e), 1, 19) || 'Z' "
            + "WHEN substr(\(e), 24, 3) = '000' THEN substr(\(e), 1, 23) || 'Z' ELSE \(e) END)"
    }

    /// `json_object(...)`; past 63 pairs (SQLite passes at most 127 arguments to a function) the rest are
    /// added in order by nested `json_insert(object, '$."key"', value, ...)` calls of up to 63 pairs each.
    public func jsonObject(_ pairs: [(key: String, value: String)]) -> String {
        let chunk = Self.pairsPerCall
        var sql =
            "json_object("
            + pairs.prefix(chunk).map { "\(stringLiteral($0.key)), \($0.value)" }.joined(separator: ", ") + ")"
        var start = chunk
        while start < pairs.count {
            let rest = pairs[start..<min(start + chunk, pairs.count)]
            sql =
                "json_insert(\(sql), "
                + rest.map { "\(stringLiteral("$.\"" + $0.key + "\"")), \($0.value)" }.joined(separator: ", ") + ")"
            start += chunk
        }
        return sql
    }

    /// The most key/value pairs one `json_object` or `json_insert` call takes (127 arguments).
    static let pairsPerCall = 63

    public func jsonArrayAggregate(_ expression: String) -> String {
        "json_group_array(\(expression))"
    }

    public func embedJSON(_ expression: String) -> String {
        "json(\(expression))"
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
