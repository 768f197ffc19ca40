import DataConnectSchema
import DataConnectWire

/// What `_metadata` reports for the rows of a ranked list.
enum RankingKind: Sendable {
    /// `distance`, of a similarity field.
    case distance
    /// `relevance`, of a search field.
    case relevance
}

// Similarity and search fields: lists over a subquery that ranks the rows.
extension QueryBuilder {
    /// `xs_<f>_similarity` and `xs_search`: a list whose rows come from a ranking subquery, ordered by
    /// ascending distance or descending relevance (then by key), with the rank under `_metadata`.
    ///
    /// The subquery cannot be merged into the list's (`LIMIT ... OFFSET 0`), so the database computes each
    /// row's rank once.
    mutating func rankedList(_ node: FieldNode, role: APIFieldRole) throws(PlanError) -> String {
        let args = arguments(node)
        let search = dialect.search
        let target: Table
        let rows: String
        let kind: RankingKind
        var bound: String?
        switch role {
        case .similarity(let name, let columnName):
            target = try table(name)
            guard let column = target.column(columnName) else {
                throw PlanError(message: "unknown Vector field \"\(columnName)\"", location: node.location)
            }
            let vector: String
            if let compare = args["compare"], !compare.isNullConstant {
                vector = parameter(.value(compare, .vector(column)))
            } else if let embed = args["compare_embed"], !embed.isNullConstant {
                // The text's vector, computed by the embedding provider before the request holds a connection.
                vector = parameter(.value(embed, .embedding(column, .query)))
            } else {
                throw PlanError(
                    message:
                        "give compare (a vector) or compare_embed (a text to embed) to compare \"\(columnName)\" with",
                    location: node.location)
            }
            var method = VectorDistanceMethod.innerProduct
            if case .constant(.string(let name))? = args["method"], let chosen = VectorDistanceMethod(rawValue: name) {
                method = chosen
            }
            let distance = search.vectorDistance(method, alias: "t", column: column, vector: vector)
            rows = "SELECT t.*, \(distance) AS _dc_distance FROM \(dialect.quote(target.sqlName)) AS t"
            kind = .distance
            if let within = args["within"], !within.isNullConstant {
                bound = parameter(.value(within, .scalar(.float)))
            }
        case .search(let name):
            target = try table(name)
            guard let spec = target.search else {
                throw PlanError(message: "\(name) has no @searchable fields", location: node.location)
            }
            var format = SearchQueryFormat.query
            if case .constant(.string(let name))? = args["queryFormat"], let chosen = SearchQueryFormat(rawValue: name)
            {
                format = chosen
            }
            let query = parameter(
                .value(args["query"] ?? .constant(.null), .searchQuery(format, search.searchSyntax(format))))
            rows = search.searchRows(table: target, search: spec, query: query, format: format)
            kind = .relevance
            if let threshold = args["relevanceThreshold"], !threshold.isNullConstant {
                bound = parameter(.value(threshold, .scalar(.float)))
            }
        default:
            throw PlanError(message: "field \"\(node.name)\" is not a ranked list", location: node.location)
        }
        tables.insert(target.name)
        pendingRanking = kind
        let source = "(\(rows) LIMIT \(dialect.unlimitedCount) OFFSET 0)"
        let keys = target.keyColumns.map(\.sqlName)
        let dialect = self.dialect
        return try list(node, table: target) { alias in
            let rank = kind == .distance ? "\(alias)._dc_distance" : "\(alias)._dc_relevance"
            var conditions = ["\(rank) IS NOT NULL"]
            if let bound { conditions.append(kind == .distance ? "\(rank) <= \(bound)" : "\(rank) >= \(bound)") }
            return Correlation(
                from: "\(source) AS \(alias)", conditions: conditions, filterAlias: alias, filterTable: target,
                defaultOrder: [(rank, kind == .distance ? "ASC" : "DESC")]
                    + keys.map { ("\(alias).\(dialect.quote($0))", "ASC") })
        }
    }

    /// `_metadata`: the rank of a row of a similarity or search field; NULL elsewhere.
    func metadataValue(_ node: FieldNode, parentAlias: String?) -> String {
        guard let parentAlias, let kind = rankedAliases[parentAlias] else { return "NULL" }
        var pairs: [(key: String, value: String)] = []
        for child in node.children where !resolution.skipped.contains(child.id) {
            switch child.name {
            case "distance":
                pairs.append(
                    (
                        child.responseKey,
                        kind == .distance ? dialect.jsonFloat(references.column(parentAlias, "_dc_distance")) : "NULL"
                    ))
            case "relevance":
                pairs.append(
                    (
                        child.responseKey,
                        kind == .relevance ? dialect.jsonFloat(references.column(parentAlias, "_dc_relevance")) : "NULL"
                    )
                )
            default:
                pairs.append((child.responseKey, dialect.stringLiteral("_Metadata")))
            }
        }
        return dialect.jsonObject(pairs)
    }
}
