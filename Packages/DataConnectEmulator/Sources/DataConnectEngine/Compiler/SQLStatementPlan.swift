/// A compiled statement: SQL text with numbered placeholders, the recipe for each parameter, and the
/// tables it reads.
///
/// Plans are built once per operation and argument shape by ``QueryBuilder`` or ``MutationCompiler``;
/// a request only evaluates the parameter sources (``ParameterBinder``), binds and steps.
struct SQLStatementPlan: Sendable {
    /// The SQL text, with numbered placeholders (``SQLDialect/placeholder(_:type:)``).
    let sql: String
    /// One source per placeholder, in order.
    let parameters: [ParameterSource]
    /// The tables (GraphQL type names) the statement names in a `FROM` or `JOIN`, recorded as it was written.
    var tables: Set<String> = []
}
