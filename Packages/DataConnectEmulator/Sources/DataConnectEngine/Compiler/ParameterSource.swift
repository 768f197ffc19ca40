import DataConnectCEL
import DataConnectSchema

/// How a bound value turns into the storage value a statement compares or stores.
enum Conversion: Sendable {
    /// The storage form of a column's type (UUID canonical, Boolean 0/1, JSON text for lists).
    case column(Column)
    /// The storage form of a scalar.
    case scalar(ScalarType)
    /// A JSON array of storage values, for `IN (...)` through ``SQLDialect/storageValues(_:of:)``.
    case storageArray(Column)
    /// A JSON array of wire values, for list-column filters and updates: bound as the list column's value.
    case wireArray(Column)
    /// A JSON array of wire values with repeated values dropped (the list update `add`).
    case uniqueWireArray(Column)
    /// One wire value of a list column's element.
    case wireElement(Column)
    /// A non-negative integer (limit, offset).
    case count(String)
    /// The text, escaped for `LIKE ... ESCAPE '\'`, with `%` around it as the kind says.
    case like(LikeKind)
    /// A POSIX extended regular expression (`pattern.regex`), checked to compile before the statement runs.
    case regularExpression
    /// A vector to compare a `Vector` column with: a JSON array of finite numbers of the column's size.
    case vector(Column)
    /// A `Vector_Embed` value (`{model, text}`) turned into a vector of the column's size by the embedding
    /// provider: stored as the column's value for a `.document`, bound as ``vector(_:)`` for a `.query`.
    case embedding(Column, EmbeddingPurpose)
    /// The text of a full-text query, read as the format says and bound in the database's syntax.
    case searchQuery(SearchQueryFormat, SearchQuerySyntax)
}

/// Where `contains`, `startsWith` and `endsWith` put the wildcards.
enum LikeKind: Sendable {
    case contains, prefix, suffix
}

/// Where a statement parameter's value comes from at bind time.
enum ParameterSource: Sendable {
    /// A resolved argument value (leaves substituted from the request).
    case value(Resolved, Conversion)
    /// A CEL server value (`eq_expr: "auth.uid"`).
    case expression(CELExpression, Conversion)
    /// A relative date or timestamp (`{today: true, add: {days: 7}}`).
    case relative(Resolved, isDate: Bool)
    /// A fixed value.
    case fixed(DatabaseValue)
    /// The keys of the parent rows of a split relation (``ReadPlan``), supplied by the executor.
    case rowKeys
    /// A column's `@default(expr:)` evaluated for the request (`uuidV4()`, `auth.uid`, `request.time`, ...).
    case columnDefault(String, Column)
    /// The whole months of a `Date`/`Timestamp` `_update` duration (`years * 12 + months`), times `sign`.
    case durationMonths(Resolved, sign: Int64)
    /// The days of a `Date` `_update` duration (`weeks * 7 + days`), times `sign`.
    case durationDays(Resolved, sign: Int64)
    /// The exact part of a `Timestamp` `_update` duration (weeks down to milliseconds) in microseconds,
    /// times `sign`.
    case durationMicroseconds(Resolved, sign: Int64)
}

extension ParameterSource {
    /// What the bound value is, for the dialect's placeholder.
    var parameterType: SQLParameterType {
        switch self {
        case .value(_, let conversion), .expression(_, let conversion): conversion.parameterType
        case .relative(_, let isDate): .scalar(isDate ? .date : .timestamp)
        case .fixed: .untyped
        case .rowKeys: .jsonArray
        case .columnDefault(_, let column): .column(column)
        case .durationMonths, .durationDays, .durationMicroseconds: .integer
        }
    }
}

extension Conversion {
    /// What a value converted this way is bound as.
    var parameterType: SQLParameterType {
        switch self {
        case .column(let column): .column(column)
        case .scalar(let scalar): .scalar(scalar)
        // A list of wire values is bound as a list column's value is.
        case .wireArray(let column), .uniqueWireArray(let column): .column(column)
        case .storageArray: .jsonArray
        case .wireElement(let column): .listElement(column)
        case .count: .integer
        case .like, .regularExpression, .searchQuery: .text
        case .vector: .jsonArray
        case .embedding(let column, let purpose): purpose == .document ? .column(column) : .jsonArray
        }
    }
}
