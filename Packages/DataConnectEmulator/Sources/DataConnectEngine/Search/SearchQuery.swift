/// A full-text query as a tree: what the user asked for, apart from any database's syntax.
///
/// ``SearchQueryParser`` builds it from the text of each `Search_QueryFormat`; ``fts5Expression()`` and
/// ``tsquery()`` print it for SQLite's FTS5 and PostgreSQL's `to_tsquery`, quoting every word, so the user's
/// text never reaches either syntax raw.
indirect enum SearchQuery: Equatable, Sendable {
    /// A word; with `prefix`, any word starting with it (`word:*`).
    case term(String, prefix: Bool)
    /// Words that must appear next to each other, in order.
    case phrase([String])
    /// Every part must match.
    case and([SearchQuery])
    /// At least one part must match.
    case or([SearchQuery])
    /// The part must not match.
    case not(SearchQuery)
    /// `lhs` followed by `rhs`, `distance` words later (`<->` is 1, `<N>` is N).
    case followedBy(SearchQuery, SearchQuery, distance: Int)
}

/// How the text of a full-text query is read (`Search_QueryFormat`).
public enum SearchQueryFormat: String, Sendable {
    /// Web-search syntax, like PostgreSQL's `websearch_to_tsquery`: words, `"quoted phrases"`, `or`, `-word`.
    case query = "QUERY"
    /// Every word must appear, like `plainto_tsquery`; punctuation is ignored.
    case plain = "PLAIN"
    /// The words must appear in order, next to each other, like `phraseto_tsquery`.
    case phrase = "PHRASE"
    /// PostgreSQL's `to_tsquery` syntax: `& | ! <-> <N> ( ) :*` and `'quoted lexemes'`.
    case advanced = "ADVANCED"
}

/// A full-text query that cannot be read or cannot be asked of the database.
struct SearchQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    let message: String
    var description: String { message }
}
