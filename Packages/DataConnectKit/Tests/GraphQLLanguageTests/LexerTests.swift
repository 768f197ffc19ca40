import GraphQLLanguage
import Testing

/// All tokens of `text` (without the end-of-file token), with their values.
private func lex(
    _ text: String
) throws(Diagnostic) -> [(kind: TokenKind, value: String, location: GraphQLLanguage.SourceLocation)] {
    var lexer = Lexer(source: Source(name: "lexer.graphql", text: text))
    var tokens: [(kind: TokenKind, value: String, location: GraphQLLanguage.SourceLocation)] = []
    while true {
        let token = try lexer.next()
        if token.kind == .endOfFile { return tokens }
        tokens.append((token.kind, lexer.value(of: token), token.location))
    }
}

/// The value of the single string token in `text`.
private func stringValue(_ text: String) throws(Diagnostic) -> String {
    let tokens = try lex(text)
    return tokens.first?.value ?? "<no token>"
}

/// The diagnostic `text` fails to lex with, printed as `file:line:col: error: message`.
private func lexError(_ text: String) -> String? {
    do {
        _ = try lex(text)
        return nil
    } catch {
        return error.description
    }
}

@Suite struct LexerTests {
    // MARK: Positions

    @Test func recordsLineAndColumn() throws {
        // given
        let text = "{\n  hero\r\n\tname \"é😀\" id\r  friends\n}"

        // when
        let tokens = try lex(text)

        // then
        #expect(tokens.map(\.location.description) == ["1:1", "2:3", "3:2", "3:7", "3:12", "4:3", "5:1"])
        #expect(tokens.map(\.value) == ["{", "hero", "name", "é😀", "id", "friends", "}"])
    }

    @Test func countsLinesInsideBlockStrings() throws {
        // given
        let text = "\"\"\"\none\r\ntwo\rthree\n\"\"\" after"

        // when
        let tokens = try lex(text)

        // then
        #expect(tokens.map(\.location.description) == ["1:1", "5:5"])
    }

    @Test func skipsByteOrderMarkCommasAndComments() throws {
        // given
        let text = "\u{FEFF}a,b # comment\n,,c\u{FEFF}d"

        // when
        let tokens = try lex(text)

        // then
        #expect(tokens.map(\.value) == ["a", "b", "c", "d"])
        #expect(tokens.map(\.location.description) == ["1:1", "1:3", "2:3", "2:5"])
    }

    @Test func lexesEveryPunctuator() throws {
        // given
        let text = "! $ & ( ) ... : = @ [ ] { | }"

        // when
        let kinds = try lex(text).map(\.kind)

        // then
        #expect(
            kinds == [
                .bang, .dollar, .ampersand, .parenL, .parenR, .spread, .colon, .equals, .at, .bracketL, .bracketR,
                .braceL, .pipe, .braceR,
            ]
        )
    }

    @Test func lexesNames() throws {
        // given
        let text = "_ __typename a1_B2 camelCase"

        // when
        let tokens = try lex(text)

        // then
        #expect(tokens.map(\.kind) == [.name, .name, .name, .name])
        #expect(tokens.map(\.value) == ["_", "__typename", "a1_B2", "camelCase"])
    }

    // MARK: Numbers

    @Test func lexesValidNumbers() throws {
        // given
        let cases: [(String, TokenKind)] = [
            ("0", .int), ("-0", .int), ("7", .int), ("123", .int), ("-123", .int),
            ("0.0", .float), ("-0.0", .float), ("1.5", .float), ("1e10", .float), ("1E10", .float),
            ("1e-10", .float), ("1.5e+3", .float), ("-1.25E-3", .float), ("0e0", .float),
        ]

        for (text, kind) in cases {
            // when
            let tokens = try lex(text)

            // then
            #expect(tokens.count == 1 && tokens[0].kind == kind && tokens[0].value == text, "\(text)")
        }
    }

    @Test func numbersAreSeparatedFromPunctuators() throws {
        // given
        let text = "[1,-2]{3}"

        // when
        let tokens = try lex(text)

        // then
        #expect(tokens.map(\.value) == ["[", "1", "-2", "]", "{", "3", "}"])
    }

    @Test func rejectsMalformedNumbers() {
        // given
        let cases: [(String, String)] = [
            ("00", "1:2: error: syntax error: invalid number, unexpected digit after 0: \"0\""),
            ("-01", "1:3: error: syntax error: invalid number, unexpected digit after 0: \"1\""),
            ("1.", "1:3: error: syntax error: invalid number, expected digit but got <EOF>"),
            ("1.a", "1:3: error: syntax error: invalid number, expected digit but got \"a\""),
            ("1.e5", "1:3: error: syntax error: invalid number, expected digit but got \"e\""),
            ("1e", "1:3: error: syntax error: invalid number, expected digit but got <EOF>"),
            ("1e+", "1:4: error: syntax error: invalid number, expected digit but got <EOF>"),
            ("-", "1:2: error: syntax error: invalid number, expected digit but got <EOF>"),
            ("-a", "1:2: error: syntax error: invalid number, expected digit but got \"a\""),
            ("123abc", "1:4: error: syntax error: invalid number, expected digit but got \"a\""),
            ("0x1F", "1:2: error: syntax error: invalid number, expected digit but got \"x\""),
            ("1.2.3", "1:4: error: syntax error: invalid number, expected digit but got \".\""),
            ("1_000", "1:2: error: syntax error: invalid number, expected digit but got \"_\""),
            ("\n  .5", "2:3: error: syntax error: unexpected character \".\""),
        ]

        for (text, expected) in cases {
            // when
            let message = lexError(text)

            // then
            #expect(message == "lexer.graphql:" + expected, "\(text)")
        }
    }

    // MARK: Strings

    @Test func decodesEveryEscape() throws {
        // given
        let text = #""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC""#

        // when
        let value = try stringValue(text)

        // then
        #expect(value == "\" \\ / \u{08} \u{0C} \n \r \t A é €")
    }

    @Test func decodesSurrogatePairsAndVariableWidthEscapes() throws {
        // given
        let pair = #""\uD83D\uDE00 \ud83d\ude00""#
        let braced = #""\u{1F600} \u{41} \u{0000000e9} \u{10FFFF}""#

        // when
        let pairValue = try stringValue(pair)
        let bracedValue = try stringValue(braced)

        // then
        #expect(pairValue == "😀 😀")
        #expect(bracedValue == "😀 A é \u{10FFFF}")
    }

    @Test func keepsUnescapedTextAndUnicode() throws {
        // given
        let text = "\"plain ascii\" \"día 😀\" \"\""

        // when
        let values = try lex(text).map(\.value)

        // then
        #expect(values == ["plain ascii", "día 😀", ""])
    }

    @Test func rejectsInvalidEscapes() {
        // given
        let cases: [(String, String)] = [
            (#""\x""#, #"1:2: error: syntax error: invalid character escape sequence "\x""#),
            (#""ab\é""#, #"1:4: error: syntax error: invalid character escape sequence "\é""#),
            (#""\u12G4""#, #"1:2: error: syntax error: invalid Unicode escape sequence "\u12G4""#),
            (#""\u12""#, #"1:2: error: syntax error: invalid Unicode escape sequence "\u12""#),
            (#""\uD800""#, #"1:2: error: syntax error: invalid Unicode escape sequence "\uD800""#),
            (#""\uD800\u0041""#, #"1:2: error: syntax error: invalid Unicode escape sequence "\uD800""#),
            (#""\uDC00\uD800""#, #"1:2: error: syntax error: invalid Unicode escape sequence "\uDC00""#),
            (#""\u{110000}""#, #"1:2: error: syntax error: invalid Unicode escape sequence "\u{110000}""#),
            (#""\u{D800}""#, #"1:2: error: syntax error: invalid Unicode escape sequence "\u{D800}""#),
            (#""\u{}""#, #"1:2: error: syntax error: invalid Unicode escape sequence "\u{}""#),
            (#""\u{41""#, #"1:2: error: syntax error: invalid Unicode escape sequence "\u{41""#),
            ("\"\\\u{7}\"", #"1:2: error: syntax error: invalid character escape sequence "\" followed by U+0007"#),
        ]

        for (text, expected) in cases {
            // when
            let message = lexError(text)

            // then
            #expect(message == "lexer.graphql:" + expected, "\(text)")
        }
    }

    @Test func rejectsUnterminatedStrings() {
        // given
        let cases: [(String, String)] = [
            ("\"abc", "1:5: error: syntax error: unterminated string"),
            ("\"abc\ndef\"", "1:5: error: syntax error: unterminated string"),
            ("a\r\n  \"é\r\"", "2:5: error: syntax error: unterminated string"),
            ("\"abc\\", "1:6: error: syntax error: unterminated string"),
            ("\"\"\"abc\n\"\"", "2:3: error: syntax error: unterminated string"),
            ("\"\"\"abc\\\"\"\"", "1:11: error: syntax error: unterminated string"),
        ]

        for (text, expected) in cases {
            // when
            let message = lexError(text)

            // then
            #expect(message == "lexer.graphql:" + expected, "\(text.debugDescription)")
        }
    }

    // MARK: Block strings

    @Test func dedentsBlockStringsAsTheSpecificationDescribes() throws {
        // given
        let text = "\"\"\"\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \"\"\""

        // when
        let value = try stringValue(text)

        // then
        #expect(value == "Hello,\n  World!\n\nYours,\n  GraphQL.")
    }

    @Test func blockStringDedentCases() throws {
        // given
        let cases: [(String, String)] = [
            ("\"\"\"\"\"\"", ""),
            ("\"\"\"  single line  \"\"\"", "  single line  "),
            ("\"\"\"first\n  second\n    third\"\"\"", "first\nsecond\n  third"),
            ("\"\"\"\n\n   \n  text\n\n \n\"\"\"", "text"),
            ("\"\"\"   \n\t\n\"\"\"", ""),
            ("\"\"\"\n\ta\n\t\tb\n\"\"\"", "a\n\tb"),
            ("\"\"\"\r\n  a\r\n\r\n  b\r  c\r\n\"\"\"", "a\n\nb\nc"),
            ("\"\"\"\n  a\n \n    b\n\"\"\"", "a\n\n  b"),
            ("\"\"\"  \n  a\n  \"\"\"", "a"),
            ("\"\"\"No \\\"\"\" here \\n \\u0041\"\"\"", "No \"\"\" here \\n \\u0041"),
            ("\"\"\"\n  \\\"\"\"\n  quoted \"\" \"\n\"\"\"", "\"\"\"\nquoted \"\" \""),
            ("\"\"\"é\n   ü😀\n  x\"\"\"", "é\n ü😀\nx"),
        ]

        for (text, expected) in cases {
            // when
            let tokens = try lex(text)

            // then
            #expect(tokens.count == 1 && tokens.first?.kind == .blockString, "\(text.debugDescription)")
            #expect(tokens.first?.value == expected, "\(text.debugDescription)")
        }
    }

    // MARK: Comments

    @Test func attachesOnlyTheContiguousCommentBlockAbove() throws {
        // given
        let text = """
            # detached

            #   first
            #second
            #
            a # trailing
            b
            # for c
            , c
            """
        var lexer = Lexer(source: Source(name: "c.graphql", text: text))

        // when
        let a = try lexer.next()
        let b = try lexer.next()
        let c = try lexer.next()

        // then
        #expect(lexer.leadingComments(of: a) == ["  first", "second", ""])
        #expect(lexer.leadingComments(of: b).isEmpty)
        #expect(lexer.leadingComments(of: c) == ["for c"])
    }

    @Test func commentsEndAtAnyLineTerminator() throws {
        // given
        let text = "# one\r# two\r\n# three\nname"
        var lexer = Lexer(source: Source(name: "c.graphql", text: text))

        // when
        let token = try lexer.next()

        // then
        #expect(token.location.description == "4:1")
        #expect(lexer.leadingComments(of: token) == ["one", "two", "three"])
    }

    // MARK: Unexpected characters

    @Test func rejectsUnexpectedCharacters() {
        // given
        let cases: [(String, String)] = [
            ("{ %", "1:3: error: syntax error: unexpected character \"%\""),
            ("\n\n   ?", "3:4: error: syntax error: unexpected character \"?\""),
            ("a..b", "1:2: error: syntax error: unexpected character \".\""),
            ("é", "1:1: error: syntax error: unexpected character U+00E9"),
            ("ab \u{7}", "1:4: error: syntax error: unexpected character U+0007"),
            ("\u{0}", "1:1: error: syntax error: unexpected character U+0000"),
            ("😀 x", "1:1: error: syntax error: unexpected character U+1F600"),
            (
                "'text'",
                "1:1: error: syntax error: unexpected single quote character ('), "
                    + "did you mean to use a double quote (\")?"
            ),
        ]

        for (text, expected) in cases {
            // when
            let message = lexError(text)

            // then
            #expect(message == "lexer.graphql:" + expected, "\(text.debugDescription)")
        }
    }

    @Test func endOfFileRepeats() throws {
        // given
        var lexer = Lexer(source: Source(name: "e.graphql", text: "a\n"))

        // when
        _ = try lexer.next()
        let first = try lexer.next()
        let second = try lexer.next()

        // then
        #expect(first.kind == .endOfFile && second.kind == .endOfFile)
        #expect(first.location.description == "2:1")
    }

    @Test func tokenTextKeepsTheSourceSpelling() throws {
        // given
        var lexer = Lexer(source: Source(name: "t.graphql", text: #"  "a\nb" 1.5e3"#))

        // when
        let string = try lexer.next()
        let number = try lexer.next()

        // then
        #expect(lexer.text(of: string) == #""a\nb""#)
        #expect(lexer.value(of: string) == "a\nb")
        #expect(string.range == 2..<8)
        #expect(lexer.text(of: number) == "1.5e3")
    }
}
