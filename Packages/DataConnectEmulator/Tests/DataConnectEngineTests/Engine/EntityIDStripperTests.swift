import DataConnectWire
import GraphQLLanguage
import Testing

@testable import DataConnectEngine

/// Taking entity ids out of the rendered text gives the result and the ids that taking them out of the parsed
/// value gives, for texts as SQLite writes them and as PostgreSQL does (with spaces).
@Suite struct EntityIDStripperTests {
    static let texts: [String] = [
        #"{"id":"a","":"Movie/a"}"#,
        #"[{"title":"X","":"Movie/1"},{"title":"Y","":"Movie/2"}]"#,
        #"[{"title":"X","":"Movie/1"},{"title":"Y"}]"#,
        #"[]"#,
        #"null"#,
        #"[1, 2.5e3, true, null, "s"]"#,
        #"{"movie" : {"title" : "A \"quoted\" \\ title", "director" : {"name" : "N", "" : "Person/p%2F1"}, "#
            + #""cast" : [{"name" : "a", "" : "Actor/\"1\""}, {"name" : "b", "" : "Actor/2"}], "#
            + #""" : "Movie/m1"}}"#,
        #"[{"reviews":[{"rating":5,"":"Review/a/b"}],"":"Movie/1"},{"reviews":[],"":"Movie/2"}]"#,
        #"{"tags":["a","b"],"meta":{"k":[1,{"x":null}]},"":null}"#,
        #"[[{"":"T/1"}],{"":"T/2"}]"#,
        #"{"\u00e9t\u00e9":"\u2603","":"T/\u00e9"}"#,
        #"{"":"T/1","a":1,"b":{"" : "U/2" , "c" : [ {"":"V/3"} ] }}"#,
        #"[{"":"T/1"},{"x":"a\\","":"T/2","y":"\"}"}]"#,
        #"{"a":"\\\"","b":"\\\\","c":"x\\\\\"y","":"T/\\"}"#,
        #"{"dc_eid":1,"_dc_ei":2,"":"T/1"}"#,
        // Strings longer than the eight bytes read at a time, with escapes on and across their boundaries.
        #"{"long":"abcdefg\"hijklmnop\\","x":"1234567\\","y":"12345678\"9","":"T/abcdefghijklmnopq"}"#,
        #"[{"t":"\u00e9\u00e9\u00e9 café 😀 résumés \\\\\\\"","":"T/é1234567890"}]"#,
        // Quotes found past the first word: escaped by an odd run of backslashes, closing after an even one.
        #"{"s":"0123456789abcdef\\\\\"x\\\\","t":"0123456789\"abcdef\"","":"T/1"}"#,
        // A string closing exactly at the end of the first word, and one too near the end for a whole word.
        #"{"s":"1234567","":"T/12345678"}"#,
        #""ab""#,
        #"[true,false,null,-1.5E-3,{"":"T/x"}]"#,
    ]

    @Test(arguments: texts)
    func givesWhatExtractingFromTheParsedValueGives(_ text: String) throws {
        // given
        let path: [PathSegment] = [.field("root")]
        var expectedIDs: [DataConnectProperties] = []
        let expected = Execution.extractEntityIDs(
            try JSONValue(parsing: Array(text.utf8)), path: path, into: &expectedIDs)

        // when
        let stripped = try #require(EntityIDStripper.strip(Array(text.utf8), path: path))

        // then
        #expect(try JSONValue(parsing: stripped.bytes) == expected)
        #expect(try stripped.ids.decoded() == expectedIDs)
        #expect(stripped.ids.count == expectedIDs.count)
        #expect(!String(decoding: stripped.bytes, as: UTF8.self).contains(""))
    }

    /// Texts of a movie list whose objects' ids are read off key values: the movie's and the user's selected `id`,
    /// the review's hidden bare key (a UUID's text or a number).
    static let derivedTexts: [String] = [
        #"[{"id":"m1","title":"A","reviews":[{"rating":5,"":"r1","user":{"id":"u1","name":"x"}},"#
            + #"{"":7,"rating":4,"user":null}]},{"title":"B","id":"m2","reviews":[]}]"#,
        #"[{"id" : "m1" , "reviews" : [ {"rating" : 1, "" : "r\"1", "user" : {"name" : "n", "id" : 3}} ] }]"#,
        // A movie without its key value, a user whose key is null, a review with a null hidden key.
        #"[{"title":"A","reviews":[{"":null,"user":{"id":null}}]},{"id":"m2","reviews":[{"":"r2"}]}]"#,
        // Members named like the key under other objects are not read as their ids.
        #"[{"id":"m1","meta":{"id":"x"},"reviews":[{"":"r1","user":{"id":"u1"},"id":"nope"}]}]"#,
    ]

    /// The field nodes of the derived texts: `movies { id title meta { id } reviews { rating user { id name } } }`.
    static func moviesNode() -> FieldNode {
        func node(_ id: Int, _ key: String, _ children: [FieldNode] = []) -> FieldNode {
            FieldNode(
                id: id, responseKey: key, name: key, role: nil, parentType: "T", arguments: [],
                argumentDefinitions: [], children: children, conditions: [], isRedacted: false, checks: [],
                location: NodeLocation(file: "test", start: SourceLocation(line: 1, column: 1)))
        }
        let user = node(6, "user", [node(7, "id"), node(8, "name")])
        let reviews = node(4, "reviews", [node(5, "rating"), user])
        return node(0, "movies", [node(1, "id"), node(2, "title"), node(9, "meta", [node(10, "id")]), reviews])
    }

    static let derived: [Int: DerivedEntityID] = [
        0: DerivedEntityID(typeName: "Movie", member: "id"),
        4: DerivedEntityID(typeName: "Review", member: nil),
        6: DerivedEntityID(typeName: "User", member: "id"),
    ]

    @Test(arguments: derivedTexts)
    func readsIDsOffKeyValuesAsExtractingFromTheParsedValueDoes(_ text: String) throws {
        // given
        let root = Self.moviesNode()
        let path: [PathSegment] = [.field("movies")]
        var expectedIDs: [DataConnectProperties] = []
        let expected = Execution.extractEntityIDs(
            try JSONValue(parsing: Array(text.utf8)), path: path, into: &expectedIDs, node: root,
            derived: Self.derived)

        // when
        let stripped = try #require(
            EntityIDStripper.strip(Array(text.utf8), path: path, root: root, derived: Self.derived))

        // then
        #expect(try JSONValue(parsing: stripped.bytes) == expected)
        #expect(try stripped.ids.decoded() == expectedIDs)
        #expect(stripped.ids.count == expectedIDs.count)
        #expect(!expectedIDs.isEmpty)
    }

    @Test func theHiddenMemberTokenIsTheBuildersKey() {
        #expect(EntityIDStripper.hiddenKeyToken.description == "\"" + QueryBuilder.entityIDKey + "\"")
    }

    @Test(arguments: [
        #"{"a":1"#, #"{"a" 1}"#, #"[1,]x"#, #"{"a":"unterminated}"#, "", "{\"a\":1\u{01}}", #"{"a":"x\"}"#,
        #"{"a":"0123456789\"}"#, #"{"a":}"#, #"["#,
    ])
    func unreadableTextIsLeftToTheParser(_ text: String) {
        #expect(EntityIDStripper.strip(Array(text.utf8), path: []) == nil)
    }
}
