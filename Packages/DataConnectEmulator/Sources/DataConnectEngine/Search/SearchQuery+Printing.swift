import Foundation

// Printing a ``SearchQuery`` for each database.
extension SearchQuery {
    /// The query as an FTS5 `MATCH` expression, every word a quoted string.
    ///
    /// FTS5's `NOT` is binary (`a NOT b`), so a negated part must stand next to a part that is not negated,
    /// inside an `and`; its phrases allow only adjacent words (`<->`).
    ///
    /// ```swift
    /// SearchQuery.and([.phrase(["red", "car"]), .not(.term("truck", prefix: false))]).fts5Expression()
    /// // ("red" + "car") NOT ("truck")
    /// ```
    ///
    /// - Throws: ``SearchQueryError`` for what FTS5 cannot express.
    func fts5Expression() throws(SearchQueryError) -> String {
        switch self {
        case .term, .phrase, .followedBy:
            return try fts5Phrase().joined(separator: " + ")
        case .and(let parts):
            var positive: [String] = []
            var negative: [String] = []
            for part in parts {
                if case .not(let inner) = part {
                    negative.append("(\(try inner.fts5Expression()))")
                } else {
                    positive.append("(\(try part.fts5Expression()))")
                }
            }
            guard !positive.isEmpty else { throw Self.negationOnly }
            var text = positive.joined(separator: " AND ")
            for part in negative { text = "(\(text)) NOT \(part)" }
            return text
        case .or(let parts):
            var printed: [String] = []
            for part in parts {
                if case .not = part { throw Self.negationOnly }
                printed.append("(\(try part.fts5Expression()))")
            }
            return printed.joined(separator: " OR ")
        case .not:
            throw Self.negationOnly
        }
    }

    static let negationOnly = SearchQueryError(
        message: "the search query must match at least one word: on SQLite a negated word (-word, !word) "
            + "only narrows the words beside it")

    /// The FTS5 phrase parts (`"word"`, `"word"*`) of a term, a phrase or a chain of `<->`.
    private func fts5Phrase() throws(SearchQueryError) -> [String] {
        switch self {
        case .term(let word, let prefix):
            return [Self.fts5String(word) + (prefix ? "*" : "")]
        case .phrase(let words):
            return words.map(Self.fts5String)
        case .followedBy(let lhs, let rhs, let distance):
            guard distance == 1 else {
                throw SearchQueryError(
                    message: "the SQLite emulator supports only <-> (adjacent words), not <\(distance)>")
            }
            return try lhs.fts5Phrase() + rhs.fts5Phrase()
        default:
            throw SearchQueryError(message: "<-> may only join words and phrases on the SQLite emulator")
        }
    }

    /// A word as an FTS5 string: in double quotes, inner quotes doubled.
    static func fts5String(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The query in `to_tsquery` syntax, every word a quoted lexeme.
    ///
    /// ```swift
    /// SearchQuery.or([.term("cat", prefix: true), .phrase(["fat", "rat"])]).tsquery()
    /// // ('cat':* | ('fat' <-> 'rat'))
    /// ```
    func tsquery() -> String {
        switch self {
        case .term(let word, let prefix):
            return Self.tsqueryLexeme(word) + (prefix ? ":*" : "")
        case .phrase(let words):
            return "(" + words.map(Self.tsqueryLexeme).joined(separator: " <-> ") + ")"
        case .and(let parts):
            return "(" + parts.map { $0.tsquery() }.joined(separator: " & ") + ")"
        case .or(let parts):
            return "(" + parts.map { $0.tsquery() }.joined(separator: " | ") + ")"
        case .not(let inner):
            return "!" + inner.tsquery()
        case .followedBy(let lhs, let rhs, let distance):
            let op = distance == 1 ? "<->" : "<\(distance)>"
            return "(\(lhs.tsquery()) \(op) \(rhs.tsquery()))"
        }
    }

    /// A word as a `tsquery` lexeme: in single quotes, with `'` and `\` doubled.
    static func tsqueryLexeme(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}
