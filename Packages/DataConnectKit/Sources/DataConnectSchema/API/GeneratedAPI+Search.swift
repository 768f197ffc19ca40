import GraphQLLanguage

// The vector similarity and full-text search root fields.
extension APIBuilder {
    static let queryFormatDefault = Value.enum(Name("QUERY"))
    static let innerProductDefault = Value.enum(Name("INNER_PRODUCT"))

    /// `xs_<f>_similarity` for each `Vector` column, and `xs_search` when the table has `@searchable` fields.
    mutating func buildSearchFields(_ table: Table) {
        let n = table.name
        let p = table.plural
        let required = Self.oneOf(required: true)
        for column in table.columns where column.type == .scalar(.vector) && !column.isList {
            let name = "\(p)_\(column.name)_similarity"
            queryFields.append(
                Self.field(
                    name, "[\(n)!]!",
                    arguments: [
                        Self.input(
                            "compare", "Vector", directives: [required],
                            description: "The vector to compare `\(column.name)` with."),
                        Self.input(
                            "compare_embed", "Vector_Embed", directives: [required],
                            description: "Text to embed with a model and compare with."),
                        Self.input(
                            "method", "VectorSimilarityMethod", default: Self.innerProductDefault,
                            description: "The distance: L2, COSINE, or INNER_PRODUCT (the negative inner product)."),
                        Self.input("within", "Float", description: "Keeps rows whose distance is at most this."),
                        Self.input("where", "\(n)_Filter"),
                        Self.input("limit", "Int", default: Self.int100),
                        Self.input("offset", "Int"),
                    ],
                    description: "Lists \(n) rows by ascending distance of `\(column.name)` to a vector."))
            setRole(.similarity(table: n, column: column.name), name, on: "Query")
        }
        guard table.search != nil else { return }
        queryFields.append(
            Self.field(
                "\(p)_search", "[\(n)!]!",
                arguments: [
                    Self.input("query", "String", description: "The text to search for."),
                    Self.input(
                        "queryFormat", "Search_QueryFormat", default: Self.queryFormatDefault,
                        description: "How `query` is read: QUERY (web search syntax), PLAIN, PHRASE or ADVANCED."),
                    Self.input(
                        "relevanceThreshold", "Float", description: "Keeps rows whose relevance is at least this."),
                    Self.input("where", "\(n)_Filter"),
                    Self.input(
                        "orderBy", "[\(n)_Order!]", description: "The order; by descending relevance when absent."),
                    Self.input("offset", "Int"),
                    Self.input("limit", "Int", default: Self.int100),
                ],
                description: "Lists \(n) rows matching a full-text query over its @searchable fields."))
        setRole(.search(table: n), "\(p)_search", on: "Query")
    }
}
