import DataConnectCEL
import Testing

/// The fully parenthesized form of `source`.
private func parenthesized(_ source: String) throws(CELError) -> String {
    try CELExpression(parsing: source).description
}

private func syntaxError(_ source: String) -> String? {
    do {
        _ = try CELExpression(parsing: source)
        return nil
    } catch {
        return error.message
    }
}

@Suite struct CELParserTests {
    // MARK: Precedence and associativity

    @Test(arguments: [
        ("a + b * c", "(a + (b * c))"),
        ("a * b + c", "((a * b) + c)"),
        ("a - b - c", "((a - b) - c)"),
        ("a / b % c * d", "(((a / b) % c) * d)"),
        ("a + b == c", "((a + b) == c)"),
        ("a < b == c", "((a < b) == c)"),
        ("a in b == c", "((a in b) == c)"),
        ("a == b && c != d", "((a == b) && (c != d))"),
        ("a || b && c", "(a || (b && c))"),
        ("a && b || c && d", "((a && b) || (c && d))"),
        ("a || b ? c : d", "((a || b) ? c : d)"),
        ("a ? b : c ? d : e", "(a ? b : (c ? d : e))"),
        ("a ? (b ? c : d) : e", "(a ? (b ? c : d) : e)"),
        ("!a && b", "(!a && b)"),
        ("!!a", "!!a"),
        ("-a * b", "(-a * b)"),
        ("--a", "--a"),
        ("-a.b", "-a.b"),
        ("!a.contains(c)", "!a.contains(c)"),
        ("(a + b) * c", "((a + b) * c)"),
        ("a.b.c[0]['k'].d", "a.b.c[0][\"k\"].d"),
        ("x.size() > 0", "(size(x) > 0)"),
        ("size(x) + 1", "(size(x) + 1)"),
        ("-5 + 3", "(-5 + 3)"),
        ("a - -5", "(a - -5)"),
        (".vars.a", "vars.a"),
        ("[1, 2,]", "[1, 2]"),
        ("{'a': 1, 'b': [true, null],}", "{\"a\": 1, \"b\": [true, null]}"),
        ("1.5 + 2u + 3", "((1.5 + 2u) + 3)"),
        ("has(a.b) && a.b.startsWith('x')", "(has(a.b) && a.b.startsWith(\"x\"))"),
        ("l.exists(x, x > 1)", "l.exists(x, (x > 1))"),
        ("l.map(x, x < 3, x * 2)", "l.map(x, (x < 3), (x * 2))"),
    ])
    func parsesWithCELPrecedence(source: String, expected: String) throws {
        #expect(try parenthesized(source) == expected)
    }

    @Test func printedFormParsesBackToTheSameForm() throws {
        // given
        let sources = [
            "a + b * -c", "'q\"uote\\n' + r'\\d'", "-9223372036854775808", "1e999 > 1.0", "x in {'a': 1}",
            "l.filter(v, v % 2 == 0).size()", "!(this in [null, []])",
        ]

        for source in sources {
            // when
            let printed = try parenthesized(source)
            let reprinted = try parenthesized(printed)

            // then
            #expect(printed == reprinted, "\(source)")
        }
    }

    @Test func negativeIntegerLiteralsReachInt64Min() throws {
        #expect(try celEvaluate("-9223372036854775808") == -9_223_372_036_854_775_808)
        #expect(try celEvaluate("-0x10") == -16)
    }

    // MARK: Errors

    @Test(arguments: [
        ("", "syntax error at 1:1: unexpected end of expression"),
        ("a +", "syntax error at 1:4: unexpected end of expression"),
        ("(a", "syntax error at 1:3: expected \")\", found end of expression"),
        ("a b", "syntax error at 1:3: unexpected identifier \"b\" after the end of the expression"),
        ("a ? b", "syntax error at 1:6: expected \":\" in a conditional, found end of expression"),
        ("[1, 2", "syntax error at 1:6: expected \",\" or \"]\" in a list, found end of expression"),
        ("{'a' 1}", "syntax error at 1:6: expected \":\" after a map key, found number 1"),
        ("a.", "syntax error at 1:3: expected a field name after \".\", found end of expression"),
        ("a.1", "syntax error at 1:2: unexpected number .1 after the end of the expression"),
        ("a ? b ? c : d : e", "syntax error at 1:7: expected \":\" in a conditional, found \"?\""),
        ("f(x)", "syntax error at 1:1: unknown function \"f\""),
        ("x.f()", "syntax error at 1:3: unknown method \"f\""),
        ("size(a, b)", "syntax error at 1:1: size() takes 1 argument, not 2"),
        ("a.startsWith()", "syntax error at 1:3: startsWith() takes 1 argument, not 0"),
        ("startsWith(a, b)", "syntax error at 1:1: startsWith() is a method: write value.startsWith(...)"),
        ("a.int()", "syntax error at 1:3: int() is not a method: write int(value)"),
        ("has(a)", "syntax error at 1:1: has() takes one field selection, like has(vars.name)"),
        ("l.exists(1, true)", "syntax error at 1:3: the first argument of exists() must be a variable name"),
        ("l.all(x)", "syntax error at 1:3: all() takes 2 arguments, not 1"),
        ("exists(l, x, true)", "syntax error at 1:1: exists() is a method: write list.exists(x, predicate)"),
        ("Movie{id: 1}", "syntax error at 1:6: message construction (Movie{...}) is not supported"),
        ("let", "syntax error at 1:1: \"let\" is a reserved word"),
        ("9223372036854775808", "syntax error at 1:1: integer literal out of range"),
        ("-9223372036854775809", "syntax error at 1:2: integer literal out of range"),
        ("18446744073709551616u", "syntax error at 1:1: unsigned integer literal out of range"),
        ("a\n  && )", "syntax error at 2:6: unexpected \")\""),
    ])
    func reportsSyntaxErrors(source: String, message: String) {
        #expect(syntaxError(source) == message)
    }

    @Test func limitsNestingDepth() {
        // given
        let deepParentheses = String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500)
        let longChain = Array(repeating: "1", count: 5_000).joined(separator: " + ")
        let manyNots = String(repeating: "!", count: 5_000) + "true"
        let deepLists = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let longSelect = "a" + String(repeating: ".b", count: 5_000)

        // when / then
        for source in [deepParentheses, longChain, manyNots, deepLists, longSelect] {
            #expect(syntaxError(source)?.contains("nested too deeply") == true, "\(source.prefix(20))")
        }
        #expect(syntaxError(String(repeating: "(", count: 50) + "1" + String(repeating: ")", count: 50)) == nil)
    }

    @Test func evaluatesTheDeepestAcceptedExpressions() throws {
        // given: one expression of each shape at the deepest nesting the parser accepts
        let depth = CELExpression.maxDepth
        let shapes = [
            String(repeating: "(", count: depth - 1) + "true" + String(repeating: ")", count: depth - 1),
            Array(repeating: "true", count: depth).joined(separator: " && "),
            String(repeating: "!", count: depth - 2) + "true",
            String(repeating: "[", count: depth - 2) + String(repeating: "]", count: depth - 2) + " != null",
            "vars" + String(repeating: ".a", count: depth - 2) + " == null",
            Array(repeating: "[1].all(x, ", count: depth / 2 - 1).joined() + "true"
                + String(repeating: ")", count: depth / 2 - 1),
        ]

        for source in shapes {
            // when
            let expression = try CELExpression(parsing: source)
            let result = try? expression.evaluate(in: CELBindings())

            // then: it evaluates (or fails cleanly) without exhausting the stack
            _ = result
            #expect(expression.description.isEmpty == false)
        }
    }

    @Test func limitsSourceLength() {
        #expect(syntaxError("'" + String(repeating: "x", count: 100_001) + "'")?.contains("longer than") == true)
    }

    // MARK: Analysis

    @Test(
        arguments: [
            ("auth.uid == vars.userId", ["auth", "vars"], true),
            ("request.auth.uid != null", ["request"], true),
            ("auth['uid'] == 'x'", ["auth"], true),
            ("has(auth.uid)", ["auth"], true),
            ("auth.token.admin == true", ["auth"], false),
            ("vars.uid == 'x'", ["vars"], false),
            ("this != null", ["this"], false),
            ("response.movie_insert.id != null", ["response"], false),
            ("vars.ids.exists(auth, auth.uid == 'x')", ["vars"], false),
            ("vars.ids.all(id, id != auth.uid)", ["vars", "auth"], true),
            ("1 + 2", [], false),
        ] as [(String, Set<String>, Bool)])
    func reportsReferencedRootsAndAuthUID(source: String, roots: Set<String>, readsUID: Bool) throws {
        // given / when
        let expression = try CELExpression(parsing: source)

        // then
        #expect(expression.referencedRoots == roots)
        #expect(expression.referencesAuthUID == readsUID)
    }

    @Test func expressionsCompareBySource() throws {
        #expect(try CELExpression(parsing: "a") == CELExpression(parsing: "a"))
        #expect(try CELExpression(parsing: "a") != CELExpression(parsing: "a "))
    }
}
