import Testing

@testable import DataConnectCEL

private func kinds(_ source: String) throws(CELError) -> [CELToken.Kind] {
    var lexer = CELLexer(source: source)
    return try lexer.tokenize().map(\.kind)
}

private func texts(_ source: String) throws(CELError) -> [String] {
    var lexer = CELLexer(source: source)
    return try lexer.tokenize().dropLast().map(\.text)
}

private func lexError(_ source: String) -> String? {
    var lexer = CELLexer(source: source)
    do {
        _ = try lexer.tokenize()
        return nil
    } catch {
        return error.message
    }
}

@Suite struct CELLexerTests {
    @Test func splitsOperatorsAndIdentifiers() throws {
        // given
        let source = "a.b_2 >= 1u && !c || d != e in [f] ? g : -h % i"

        // when
        let result = try kinds(source)

        // then
        #expect(
            result == [
                .identifier, .dot, .identifier, .greaterEqual, .uint, .and, .bang, .identifier, .or, .identifier,
                .notEqual, .identifier, .in, .leftBracket, .identifier, .rightBracket, .question, .identifier, .colon,
                .minus, .identifier, .percent, .identifier, .end,
            ])
    }

    @Test func readsNumbers() throws {
        // given / when
        let result = try kinds("0 42 0x1F 7u 0xFFu 1.5 .5 1e3 2.5E-2")

        // then
        #expect(result == [.int, .int, .int, .uint, .uint, .double, .double, .double, .double, .end])
        #expect(try texts("0x1F 7u 1e3") == ["0x1F", "7", "1e3"])
    }

    @Test func decodesStringEscapes() throws {
        // given
        let source = #"'a\'b' "c\"d" "\n\t\\" "\x41\u00e9\U0001F600\101" 'say "hi"'"#

        // when
        let result = try texts(source)

        // then
        #expect(result == ["a'b", "c\"d", "\n\t\\", "Aé😀A", "say \"hi\""])
    }

    @Test func readsRawAndTripleQuotedStrings() throws {
        #expect(try texts(#"r"a\nb" R'\d+'"#) == [#"a\nb"#, #"\d+"#])
        #expect(try texts("'''it's\nmultiline''' \"\"\"say \"x\" ok\"\"\"") == ["it's\nmultiline", "say \"x\" ok"])
    }

    @Test func skipsComments() throws {
        #expect(try kinds("a // comment\n+ b") == [.identifier, .plus, .identifier, .end])
    }

    @Test func keepsByteOffsets() throws {
        // given
        var lexer = CELLexer(source: "ab + 'é' + x")

        // when
        let offsets = try lexer.tokenize().map(\.offset)

        // then
        #expect(offsets == [0, 3, 5, 10, 12, 13])
    }

    @Test(arguments: [
        ("a = b", "syntax error at 1:3: unexpected \"=\" (use \"==\" to compare)"),
        ("a & b", "syntax error at 1:3: unexpected \"&\" (use \"&&\")"),
        ("'open", "syntax error at 1:1: unterminated string"),
        ("'a\nb'", "syntax error at 1:1: unterminated string (a newline needs a triple-quoted string)"),
        (#"'\q'"#, #"syntax error at 1:2: invalid escape sequence "\q""#),
        (#"'\u12'"#, "syntax error at 1:2: invalid escape sequence: expected 4 hexadecimal digits"),
        (#"'\uD800'"#, "syntax error at 1:2: invalid escape sequence: U+D800 is not a scalar"),
        ("b'bytes'", "syntax error at 1:1: bytes literals are not supported"),
        ("1e", "syntax error at 1:1: invalid number: missing exponent digits"),
        ("12abc", "syntax error at 1:1: invalid number: unexpected \"a\" after \"12\""),
        ("0x", "syntax error at 1:1: invalid hexadecimal literal"),
        ("a\n  # b", "syntax error at 2:3: unexpected character \"#\""),
        ("x + é", "syntax error at 1:5: unexpected character \"é\""),
    ])
    func reportsErrorsWithPositions(source: String, message: String) {
        #expect(lexError(source) == message)
    }
}
