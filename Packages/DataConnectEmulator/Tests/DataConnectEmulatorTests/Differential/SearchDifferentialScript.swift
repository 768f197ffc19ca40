import DataConnectWire

/// The calls of `Tests/Backends/search`: every operation of the `catalog` connector on the six films of
/// `seed_data.gql`, each similarity method and search format, with `within`, `where`, thresholds and limits.
extension DifferentialScript {
    static let search = DifferentialScript(
        queries: [
            DifferentialCall("catalog", "listMovies"),
            DifferentialCall("catalog", "similarDefault", ["compare": [1, 0, 0, 0]]),
            DifferentialCall("catalog", "similar", ["compare": [1, 0, 0, 0], "method": "L2"]),
            DifferentialCall("catalog", "similar", ["compare": [0.5, 0.5, 0, 0], "method": "COSINE"]),
            DifferentialCall("catalog", "similar", ["compare": [0, 1, 0, 0], "method": "INNER_PRODUCT", "limit": 2]),
            DifferentialCall("catalog", "similar", ["compare": [1, 0, 0, 0], "method": "L2", "within": 1]),
            DifferentialCall(
                "catalog", "similar",
                ["compare": [1, 0, 0, 0], "method": "COSINE", "where": ["genre": ["eq": "scifi"]], "offset": 1]),
            // a vector of the wrong size: refused alike
            DifferentialCall("catalog", "similar", ["compare": [1, 0, 0]]),
            DifferentialCall("catalog", "similarToText"),
            DifferentialCall("catalog", "search", ["query": "machines"]),
            DifferentialCall("catalog", "search", ["query": "matrix -reloaded"]),
            // (a phrase with a stop word, "fights the machines", differs by design: PostgreSQL drops "the" and then
            // also matches "fights more machines"; FTS5 keeps every word)
            DifferentialCall("catalog", "search", ["query": "\"electric sheep\" or cats", "format": "QUERY"]),
            DifferentialCall("catalog", "search", ["query": "cats singing", "format": "PLAIN"]),
            DifferentialCall("catalog", "search", ["query": "hot afternoon", "format": "PHRASE"]),
            DifferentialCall("catalog", "search", ["query": "machine & !matrix", "format": "ADVANCED"]),
            DifferentialCall("catalog", "search", ["query": "dream:*", "format": "ADVANCED"]),
            DifferentialCall("catalog", "search", ["query": "machines", "where": ["year": ["gt": 2000]], "limit": 5]),
            // an ADVANCED query that does not parse: refused alike
            DifferentialCall("catalog", "search", ["query": "cats & (", "format": "ADVANCED"]),
            DifferentialCall("catalog", "searchNewestFirst", ["query": "machines"]),
        ],
        mutations: [])
}
