import GraphQLLanguage

/// A native SQL root field of the generated API.
public enum NativeSQLField: String, Sendable, Hashable, CaseIterable {
    /// `_select(sql: SQL_Query!, params: SQL_Params): [Any]`: every row of a query.
    case select = "_select"
    /// `_selectFirst(sql: SQL_Query!, params: SQL_Params): Any`: the first row of a query, or null.
    case selectFirst = "_selectFirst"
    /// `_execute(sql: SQL_Mutation!, params: SQL_Params): Int`: the number of rows a statement affected.
    case execute = "_execute"
    /// `_executeReturning(sql: SQL_Mutation!, params: SQL_Params): [Any]`: the rows a statement returned.
    case executeReturning = "_executeReturning"
    /// `_executeReturningFirst(sql: SQL_Mutation!, params: SQL_Params): Any`: the first row it returned.
    case executeReturningFirst = "_executeReturningFirst"

    /// Whether the field is a query root field (read only) rather than a mutation root field.
    public var isQuery: Bool { self == .select || self == .selectFirst }

    /// Whether the field answers one row (or null) rather than a list.
    public var isFirstRow: Bool { self == .selectFirst || self == .executeReturningFirst }

    /// The field's result type.
    var resultType: String {
        switch self {
        case .select, .executeReturning: "[Any]"
        case .selectFirst, .executeReturningFirst: "Any"
        case .execute: "Int"
        }
    }

    /// The field's description.
    var documentation: String {
        switch self {
        case .select:
            "Runs a native SQL query (SELECT, TABLE or WITH) read-only; every row as a JSON object by column name."
        case .selectFirst: "Runs a native SQL query read-only; its first row as a JSON object, or null."
        case .execute: "Runs a native SQL statement in the mutation's transaction; the number of rows it affected."
        case .executeReturning: "Runs a native SQL statement with RETURNING; every returned row as a JSON object."
        case .executeReturningFirst: "Runs a native SQL statement with RETURNING; its first returned row, or null."
        }
    }
}

extension APIBuilder {
    /// Adds the native SQL root fields to the query and mutation roots.
    mutating func buildNativeSQLFields() {
        for field in NativeSQLField.allCases {
            let arguments = [
                Self.input(
                    "sql", field.isQuery ? "SQL_Query!" : "SQL_Mutation!",
                    description: "The SQL text, a literal with positional parameters $1...$n."),
                Self.input(
                    "params", "SQL_Params",
                    description:
                        "The parameters' values, in order: literals, variables or {_expr: \"...\"} server values."),
            ]
            let definition = Self.field(
                field.rawValue, field.resultType, arguments: arguments, description: field.documentation)
            if field.isQuery {
                queryFields.append(definition)
                setRole(.nativeSQL(field), field.rawValue, on: "Query")
            } else {
                mutationFields.append(definition)
                setRole(.nativeSQL(field), field.rawValue, on: "Mutation")
            }
        }
    }
}
