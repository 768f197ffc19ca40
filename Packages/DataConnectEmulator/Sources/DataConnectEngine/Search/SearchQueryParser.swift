/// Reads the text of a full-text query into a ``SearchQuery``.
///
/// Words are runs of letters and digits; any other character separates them. A run of words that the
/// syntax keeps together (`e-mail`, a quoted phrase) becomes a ``SearchQuery/phrase(_:)``.
///
/// ```swift
/// let tree = try SearchQueryParser.parse(#""red car" -truck"#, format: .query)
/// // .and([.phrase(["red", "car"]), .not(.term("truck", prefix: false))])
/// ```
///
/// - Returns from ``parse(_:format:)``: `nil` when the text holds no word.
/// - Throws: ``SearchQueryError`` for text that is too long, or `ADVANCED` syntax errors.
struct SearchQueryParser {
    /// The longest query text accepted, in characters.
    static let maximumLength = 4096
    /// The most words one query may hold.
    static let maximumWords = 256
    /// The deepest nesting of parentheses and `!` in an `ADVANCED` query.
    static let maximumDepth = 32

    private let characters: [Character]
    private var position = 0
    private var words = 0
    private var depth = 0

    private init(_ text: String) {
        characters = Array(text)
    }

    /// Parses `text` as `format` says.
    static func parse(_ text: String, format: SearchQueryFormat) throws(SearchQueryError) -> SearchQuery? {
        guard text.count <= maximumLength else {
            throw SearchQueryError(message: "the search query is longer than \(maximumLength) characters")
        }
        var parser = SearchQueryParser(text)
        switch format {
        case .plain:
            let all = try parser.count(Self.words(in: text))
            return all.isEmpty ? nil : .and(all.map { .term($0, prefix: false) }).simplified
        case .phrase:
            return try parser.count(Self.words(in: text)).asPhrase
        case .query:
            return try parser.webSearch()
        case .advanced:
            return try parser.advanced()
        }
    }

    /// The words of `text`: runs of letters and digits, lowercased.
    static func words(in text: some StringProtocol) -> [String] {
        var result: [String] = []
        var current = ""
        for c in text {
            if c.isLetter || c.isNumber {
                current.append(c)
            } else if !current.isEmpty {
                result.append(current.lowercased())
                current = ""
            }
        }
        if !current.isEmpty { result.append(current.lowercased()) }
        return result
    }

    private mutating func count(_ found: [String]) throws(SearchQueryError) -> [String] {
        words += found.count
        guard words <= Self.maximumWords else {
            throw SearchQueryError(message: "the search query has more than \(Self.maximumWords) words")
        }
        return found
    }

    private var atEnd: Bool { position >= characters.count }
    private var current: Character? { atEnd ? nil : characters[position] }

    // MARK: QUERY

    /// `websearch_to_tsquery` syntax: groups of items joined by `or`; the items of a group must all match.
    private mutating func webSearch() throws(SearchQueryError) -> SearchQuery? {
        var groups: [[SearchQuery]] = [[]]
        while !atEnd {
            guard let c = current else { break }
            if c.isWhitespace {
                position += 1
                continue
            }
            var negated = false
            if c == "-" {
                negated = true
                position += 1
                if let next = current, next.isWhitespace || next == "-" { continue }
            }
            var item: SearchQuery?
            if current == "\"" {
                position += 1
                var text = ""
                while let c = current, c != "\"" {
                    text.append(c)
                    position += 1
                }
                position += 1
                item = try count(Self.words(in: text)).asPhrase
            } else {
                var text = ""
                while let c = current, !c.isWhitespace, c != "\"" {
                    text.append(c)
                    position += 1
                }
                if !negated && text.lowercased() == "or" {
                    if !(groups.last?.isEmpty ?? true) { groups.append([]) }
                    continue
                }
                item = try count(Self.words(in: text)).asPhrase
            }
            if let item { groups[groups.count - 1].append(negated ? .not(item) : item) }
        }
        let parts = groups.filter { !$0.isEmpty }.map { SearchQuery.and($0).simplified }
        return parts.isEmpty ? nil : SearchQuery.or(parts).simplified
    }

    // MARK: ADVANCED

    /// `to_tsquery` syntax:
    ///
    ///     or      := and ('|' and)*
    ///     and     := follow ('&' follow)*
    ///     follow  := unary (('<->' | '<' digits '>') unary)*
    ///     unary   := '!' unary | '(' or ')' | lexeme (':' ('*' | 'A'...'D')*)?
    ///     lexeme  := "'" ("''" | any but "'")* "'" | (any but space and operators)+
    private mutating func advanced() throws(SearchQueryError) -> SearchQuery? {
        skipSpaces()
        if atEnd { return nil }
        let tree = try orExpression()
        skipSpaces()
        if let c = current { throw error("unexpected \"\(c)\"") }
        return tree
    }

    private func error(_ message: String) -> SearchQueryError {
        SearchQueryError(
            message: "invalid ADVANCED search query at character \(position + 1): \(message)")
    }

    private mutating func skipSpaces() {
        while let c = current, c.isWhitespace { position += 1 }
    }

    private mutating func orExpression() throws(SearchQueryError) -> SearchQuery {
        var parts = [try andExpression()]
        while true {
            skipSpaces()
            guard current == "|" else { break }
            position += 1
            parts.append(try andExpression())
        }
        return SearchQuery.or(parts).simplified
    }

    private mutating func andExpression() throws(SearchQueryError) -> SearchQuery {
        var parts = [try followExpression()]
        while true {
            skipSpaces()
            guard current == "&" else { break }
            position += 1
            parts.append(try followExpression())
        }
        return SearchQuery.and(parts).simplified
    }

    private mutating func followExpression() throws(SearchQueryError) -> SearchQuery {
        var tree = try unary()
        while true {
            skipSpaces()
            guard current == "<" else { break }
            position += 1
            var digits = ""
            while let c = current, c != ">" {
                guard c == "-" && digits.isEmpty || c.isASCII && c.isNumber else {
                    throw error("expected <-> or <N>")
                }
                digits.append(c)
                position += 1
            }
            guard current == ">" else { throw error("expected \">\"") }
            position += 1
            let distance = digits == "-" ? 1 : Int(digits)
            guard let distance, distance >= 0, distance <= 16384 else { throw error("expected <-> or <N>") }
            tree = .followedBy(tree, try unary(), distance: distance)
        }
        return tree
    }

    private mutating func unary() throws(SearchQueryError) -> SearchQuery {
        skipSpaces()
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels") }
        guard let c = current else { throw error("expected a word") }
        switch c {
        case "!":
            position += 1
            return .not(try unary())
        case "(":
            position += 1
            let inner = try orExpression()
            skipSpaces()
            guard current == ")" else { throw error("expected \")\"") }
            position += 1
            return inner
        case "'":
            position += 1
            var text = ""
            while true {
                guard let c = current else { throw error("unterminated quoted word") }
                position += 1
                if c == "'" {
                    if current == "'" {
                        position += 1
                    } else {
                        break
                    }
                }
                text.append(c)
            }
            return try lexeme(text)
        case "&", "|", ")", "<", ":":
            throw error("expected a word before \"\(c)\"")
        default:
            var text = ""
            while let c = current, !c.isWhitespace, !"&|!()<:'".contains(c) {
                text.append(c)
                position += 1
            }
            return try lexeme(text)
        }
    }

    /// A lexeme and its `:*` / weight suffix.
    private mutating func lexeme(_ text: String) throws(SearchQueryError) -> SearchQuery {
        var prefix = false
        if current == ":" {
            position += 1
            while let c = current, c == "*" || "ABCDabcd".contains(c) {
                if c == "*" { prefix = true }
                position += 1
            }
        }
        let found = try count(Self.words(in: text))
        guard let tree = found.asPhrase else { throw error("\"\(text)\" holds no word") }
        if prefix {
            if case .term(let word, _) = tree { return .term(word, prefix: true) }
            throw error("\":*\" applies to one word")
        }
        return tree
    }
}

extension Array where Element == String {
    /// One word as a term, several as a phrase, none as `nil`.
    fileprivate var asPhrase: SearchQuery? {
        switch count {
        case 0: nil
        case 1: .term(self[0], prefix: false)
        default: .phrase(self)
        }
    }
}

extension SearchQuery {
    /// The tree with one-part `and`/`or` replaced by their part.
    var simplified: SearchQuery {
        switch self {
        case .and(let parts) where parts.count == 1: parts[0]
        case .or(let parts) where parts.count == 1: parts[0]
        default: self
        }
    }
}
