import Testing

@testable import DataConnectEngine

/// The full-text query parser and its FTS5 and tsquery printing, with hostile input.
@Suite struct SearchQueryParserTests {
    func fts5(_ text: String, _ format: SearchQueryFormat = .query) throws -> String? {
        try SearchQueryParser.parse(text, format: format)?.fts5Expression()
    }

    @Test func webSearchSyntaxBecomesATree() throws {
        let tree = try SearchQueryParser.parse(#""red car" -truck or bike"#, format: .query)
        #expect(
            tree
                == .or([
                    .and([.phrase(["red", "car"]), .not(.term("truck", prefix: false))]), .term("bike", prefix: false),
                ]))
        #expect(try fts5(#""red car" -truck or bike"#) == #"((("red" + "car")) NOT ("truck")) OR ("bike")"#)
    }

    @Test func plainAndPhraseIgnoreSyntax() throws {
        #expect(try fts5(#"fights, "machines"!"#, .plain) == #"("fights") AND ("machines")"#)
        #expect(try fts5("fights the machines", .phrase) == #""fights" + "the" + "machines""#)
    }

    @Test func advancedSyntaxPrintsForBothDatabases() throws {
        let tree = try #require(try SearchQueryParser.parse("(cat:* | 'fat rat') & !(dog <-> day)", format: .advanced))
        #expect(tree.tsquery() == "(('cat':* | ('fat' <-> 'rat')) & !('dog' <-> 'day'))")
        #expect(try tree.fts5Expression() == #"((("cat"*) OR ("fat" + "rat"))) NOT ("dog" + "day")"#)
    }

    @Test(arguments: [
        #"title:cats"#, #"NEAR(a b)"#, #"a AND b"#, #"x" OR "y"#, #"* ^ +"#, #"""""""#, "\u{0}cats",
    ])
    func hostileQueryTextIsAlwaysQuoted(text: String) throws {
        // Every word ends up between double quotes; no FTS5 operator or column filter survives unquoted.
        guard let printed = try fts5(text) else { return }
        var outside = ""
        var inQuotes = false
        for c in printed {
            if c == "\"" { inQuotes.toggle() } else if !inQuotes { outside.append(c) }
        }
        #expect(!outside.contains(":"), "\(printed)")
        #expect(!outside.contains("NEAR"), "\(printed)")
        #expect(!outside.contains("^"), "\(printed)")
        let letters = outside.filter(\.isLetter).replacingOccurrences(of: "AND", with: "")
            .replacingOccurrences(of: "OR", with: "").replacingOccurrences(of: "NOT", with: "")
        #expect(letters.isEmpty, "\(printed)")
    }

    @Test(arguments: ["cats & (", "(cats", "cats)", "&", "a <x> b", "'open", "a :* b"])
    func malformedAdvancedQueriesAreRefused(text: String) {
        #expect(throws: SearchQueryError.self) { try SearchQueryParser.parse(text, format: .advanced) }
    }

    @Test func negationBindsTighterThanFollowedBy() throws {
        let tree = try #require(try SearchQueryParser.parse("!dog <-> day", format: .advanced))
        #expect(tree == .followedBy(.not(.term("dog", prefix: false)), .term("day", prefix: false), distance: 1))
        #expect(tree.tsquery() == "(!'dog' <-> 'day')")
        #expect(throws: SearchQueryError.self) { try tree.fts5Expression() }
    }

    @Test func negationAloneCannotBeAskedOfFTS5() throws {
        let tree = try #require(try SearchQueryParser.parse("-cats", format: .query))
        #expect(throws: SearchQueryError.self) { try tree.fts5Expression() }
        #expect(tree.tsquery() == "!'cats'")
    }

    @Test func veryLongOrDeepInputIsRefused() {
        #expect(throws: SearchQueryError.self) {
            try SearchQueryParser.parse(String(repeating: "a ", count: 5000), format: .plain)
        }
        #expect(throws: SearchQueryError.self) {
            try SearchQueryParser.parse(String(repeating: "w ", count: 300), format: .plain)
        }
        #expect(throws: SearchQueryError.self) {
            try SearchQueryParser.parse(String(repeating: "(", count: 40) + "a", format: .advanced)
        }
    }

    @Test func textWithoutWordsIsNoQuery() throws {
        #expect(try SearchQueryParser.parse("  -- \"\" !? ", format: .query) == nil)
        #expect(try SearchQueryParser.parse("", format: .advanced) == nil)
    }
}
