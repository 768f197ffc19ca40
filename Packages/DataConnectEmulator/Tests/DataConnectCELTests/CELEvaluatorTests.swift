import DataConnectCEL
import DataConnectWire
import Testing

@Suite struct CELEvaluatorTests {
    // MARK: Literals and operators

    @Test(
        arguments: [
            ("null", .null), ("true", true), ("false", false), ("42", 42), ("-7", -7), ("0x10", 16), ("7u", 7),
            ("1.5", 1.5), ("\"a\" + 'b'", "ab"), ("r'\\n'", "\\n"), ("[1, 'a', null]", [1, "a", nil]),
            ("{'a': 1, 'b': [true]}", ["a": 1, "b": [true]]),
        ] as [(String, JSONValue)])
    func evaluatesLiterals(source: String, expected: JSONValue) throws {
        #expect(try celEvaluate(source) == expected)
    }

    @Test(
        arguments: [
            ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("7 / 2", 3), ("-7 / 2", -3), ("7 % 3", 1), ("-7 % 3", -1),
            ("10 - 4 - 3", 3), ("7.0 / 2.0", 3.5), ("1 + 0.5", 1.5), ("2 * 2.5", 5), ("7u / 2u", 3), ("5u + 1", 6),
            ("-(3)", -3), ("--3", 3), ("-1.5", -1.5), ("vars.limit * 2", 20), ("vars.rating + 0.5", 5),
        ] as [(String, JSONValue)])
    func doesArithmetic(source: String, expected: JSONValue) throws {
        #expect(try celEvaluate(source) == expected)
    }

    @Test func concatenatesStringsAndLists() throws {
        #expect(try celEvaluate("'ab' + 'cd'") == "abcd")
        #expect(try celEvaluate("[1] + [2, 3]") == [1, 2, 3])
        #expect(try celEvaluate("vars.tags + ['c']") == ["a", "b", "c"])
    }

    @Test(
        arguments: [
            ("1 < 2", true), ("2 <= 2", true), ("3 > 2", true), ("2 >= 3", false), ("1 < 1.5", true),
            ("2 == 2.0", true),
            ("1u == 1", true), ("-1 < 1u", true), ("9007199254740993 > 9007199254740992.0", true),
            ("'apple' < 'banana'", true), ("'b' > 'abc'", true), ("'' < 'a'", true), ("false < true", true),
            ("null == null", true), ("null != null", false), ("null == 0", false), ("'1' == 1", false),
            ("[1, 2] == [1, 2]", true), ("[1, 2] == [2, 1]", false), ("[] == []", true),
            ("{'a': 1} == {'a': 1.0}", true),
            ("{'a': 1} == {'b': 1}", false), ("1 != 'a'", true), ("vars.nothing == null", true),
            ("vars.movie == {'id': 'm1', 'title': 'Alien', 'year': 1979}", true),
        ] as [(String, Bool)])
    func compares(source: String, expected: Bool) throws {
        #expect(try celEvaluate(source) == .bool(expected))
    }

    @Test(
        arguments: [
            ("'b' in ['a', 'b']", true), ("'c' in ['a', 'b']", false), ("2 in [1, 2.0]", true),
            ("null in [null]", true),
            ("'a' in {'a': 1}", true), ("'z' in {'a': 1}", false), ("1 in {'a': 1}", false), ("'a' in vars.tags", true),
            ("'title' in vars.movie", true), ("vars.status in ['DRAFT', 'PUBLISHED']", true), ("[] in [[]]", true),
        ] as [(String, Bool)])
    func testsMembership(source: String, expected: Bool) throws {
        #expect(try celEvaluate(source) == .bool(expected))
    }

    @Test func evaluatesOnlyTheChosenBranchOfAConditional() throws {
        #expect(try celEvaluate("true ? 1 : 1 / 0") == 1)
        #expect(try celEvaluate("vars.limit > 5 ? 'big' : 'small'") == "big")
        #expect(celErrorMessage("1 ? 2 : 3") == "the condition of ? : must be a bool, got int")
    }

    // MARK: Logic

    @Test(
        arguments: [
            ("true && true", true), ("true && false", false), ("false || false", false), ("false || true", true),
            ("!true", false), ("!!true", true),
            ("false && 1 / 0 == 1", false), ("1 / 0 == 1 && false", false),
            ("true || vars.missing", true), ("vars.missing || true", true),
            ("false && 'not a bool'", false), ("'not a bool' || true", true),
        ] as [(String, Bool)])
    func absorbsErrorsInLogicCommutatively(source: String, expected: Bool) throws {
        #expect(try celEvaluate(source) == .bool(expected))
    }

    @Test func reportsErrorsLogicCannotAbsorb() {
        #expect(celErrorMessage("true && 1 / 0 == 1") == "division by zero")
        #expect(celErrorMessage("vars.missing || false") == "no such key: missing")
        #expect(celErrorMessage("1 / 0 == 1 && vars.missing") == "division by zero")
        #expect(celErrorMessage("true && 1") == "no such overload: int && (operands must be bools)")
        #expect(celErrorMessage("!1") == "no such overload: !int")
    }

    // MARK: Members, has and size

    @Test func readsMembersAndIndexes() throws {
        #expect(try celEvaluate("vars.movie.title") == "Alien")
        #expect(try celEvaluate("vars['movie']['year']") == 1979)
        #expect(try celEvaluate("vars.tags[1]") == "b")
        #expect(try celEvaluate("vars.tags[1u]") == "b")
        #expect(try celEvaluate("[[1, 2], [3]][0][1]") == 2)
        #expect(try celEvaluate("{'k': 'v'}.k") == "v")
    }

    @Test(
        arguments: [
            ("has(vars.status)", true), ("has(vars.missing)", false), ("has(vars.nothing)", true),
            ("has(vars.movie.title)", true), ("has(vars.movie.rating)", false), ("has(auth.token.admin)", true),
            ("has(request.auth.uid)", true), ("has({'a': 1}.a)", true),
        ] as [(String, Bool)])
    func testsPresenceWithHas(source: String, expected: Bool) throws {
        #expect(try celEvaluate(source) == .bool(expected))
    }

    @Test func hasIsFalseOnAnUnauthenticatedAuth() throws {
        #expect(try celEvaluate("has(auth.uid)", CELBindings()) == false)
        #expect(celErrorMessage("has(vars.limit.x)") == "has() needs a map, got int")
        #expect(celErrorMessage("has(vars.missing.x)") == "no such key: missing")
    }

    @Test(
        arguments: [
            ("size('héllo')", 5), ("'😀'.size()", 1), ("size([1, 2, 3])", 3), ("size({'a': 1})", 1), ("size(vars)", 8),
            ("vars.tags.size()", 2), ("size(vars.empty)", 0), ("size('')", 0),
        ] as [(String, JSONValue)])
    func measuresSize(source: String, expected: JSONValue) throws {
        #expect(try celEvaluate(source) == expected)
    }

    // MARK: Functions

    @Test(
        arguments: [
            ("'hello'.startsWith('he')", true), ("'hello'.startsWith('lo')", false), ("'hello'.endsWith('lo')", true),
            ("'hello'.endsWith('')", true), ("'hello'.contains('ell')", true), ("'hello'.contains('xyz')", false),
            ("''.contains('')", true), ("auth.token.email.endsWith('@example.com')", true),
            ("'abc123'.matches('[0-9]+$')", true), ("matches('abc', '^b')", false), ("'a.c'.matches(r'a\\.c')", true),
        ] as [(String, Bool)])
    func testsStrings(source: String, expected: Bool) throws {
        #expect(try celEvaluate(source) == .bool(expected))
    }

    @Test(
        arguments: [
            ("int('42')", 42), ("int(3.9)", 3), ("int(-3.9)", -3), ("int(7u)", 7), ("uint(7)", 7), ("uint('8')", 8),
            ("double(2)", 2), ("double('1.5')", 1.5), ("string(42)", "42"), ("string(1.5)", "1.5"),
            ("string(2.0)", "2"),
            ("string(true)", "true"), ("string(7u)", "7"), ("bool('true')", true), ("bool('f')", false),
            ("dyn([1])", [1]), ("'Hello'.lowerAscii()", "hello"), ("'Straße'.upperAscii()", "STRAßE"),
            ("int(timestamp('1970-01-01T00:01:00Z'))", 60),
        ] as [(String, JSONValue)])
    func converts(source: String, expected: JSONValue) throws {
        #expect(try celEvaluate(source) == expected)
    }

    @Test func generatesUUIDs() throws {
        // given / when
        let v4 = try celEvaluate("uuidV4()")
        let v7 = try celEvaluate("uuidV7()")

        // then
        for value in [v4, v7] {
            let text = value.stringValue ?? ""
            #expect(text.count == 32)
            #expect(text.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        #expect(try celEvaluate("uuidV4() != uuidV4()") == true)
        #expect(try celEvaluate("size(uuidV7())") == 32)
    }

    // MARK: Comprehensions

    @Test(
        arguments: [
            ("[1, 2, 3].all(x, x > 0)", true), ("[1, 2, 3].exists(x, x > 2)", true),
            ("[1, 2, 3].exists(x, x > 5)", false),
            ("[1, 2, 3].exists_one(x, x > 2)", true), ("[3, 4].exists_one(x, x > 2)", false),
            ("[].all(x, x > 0)", true), ("[].exists(x, true)", false),
            ("{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])", true),
            ("[0, 1].exists(x, 1 / x == 1)", true), ("[0, 1].all(x, 1 / x == 2)", false),
            ("vars.tags.exists(t, t == 'a')", true),
        ] as [(String, Bool)])
    func runsPredicateMacros(source: String, expected: Bool) throws {
        #expect(try celEvaluate(source) == .bool(expected))
    }

    @Test func runsMapAndFilter() throws {
        #expect(try celEvaluate("[1, 2, 3].map(x, x * 2)") == [2, 4, 6])
        #expect(try celEvaluate("[1, 2, 3, 4].filter(x, x % 2 == 0)") == [2, 4])
        #expect(try celEvaluate("[1, 2, 3].map(x, x > 1, x * 10)") == [20, 30])
        #expect(try celEvaluate("[[1], [2, 3]].map(l, l.map(x, x + 1))") == [[2], [3, 4]])
        #expect(try celEvaluate("[1, 2].map(x, [10, 20].map(y, x + y))") == [[11, 21], [12, 22]])
    }

    @Test func comprehensionVariablesShadowBindings() throws {
        #expect(try celEvaluate("['x'].all(vars, vars == 'x')") == true)
        #expect(try celEvaluate("[null].all(auth, auth == null)", CELBindings()) == true)
        #expect(celErrorMessage("[1].all(x, x > 0) && x > 0") == "undeclared reference to \"x\"")
    }

    // MARK: Timestamps and durations

    @Test func comparesAndShiftsTimestamps() throws {
        #expect(try celEvaluate("request.time") == "2024-05-01T12:00:00.123456Z")
        #expect(try celEvaluate("request.time > timestamp('2024-01-01T00:00:00Z')") == true)
        #expect(try celEvaluate("request.time < '2024-06-01T00:00:00+02:00'") == true)
        #expect(try celEvaluate("timestamp('2024-05-01T14:00:00+02:00') == timestamp('2024-05-01T12:00:00Z')") == true)
        #expect(try celEvaluate("timestamp('2024-02-28T23:00:00Z') + duration('2h')") == "2024-02-29T01:00:00Z")
        #expect(try celEvaluate("timestamp('2024-01-01T00:00:00Z') - duration('1.5s')") == "2023-12-31T23:59:58.500Z")
        #expect(try celEvaluate("timestamp('2024-01-02T00:00:00Z') - timestamp('2024-01-01T00:00:00Z')") == "86400s")
        #expect(try celEvaluate("duration('1h30m') > duration('90m')") == false)
        #expect(try celEvaluate("duration('1h30m') == duration('5400s')") == true)
        #expect(try celEvaluate("string(duration('-250ms'))") == "-0.25s")
        #expect(try celEvaluate("timestamp(0)") == "1970-01-01T00:00:00Z")
        #expect(try celEvaluate("timestamp('1969-12-31T23:59:59.999999999Z')") == "1969-12-31T23:59:59.999999999Z")
    }

    @Test func reportsTimeErrors() {
        #expect(
            celErrorMessage("timestamp('yesterday')")
                == "timestamp() cannot parse \"yesterday\" as an RFC 3339 timestamp")
        #expect(celErrorMessage("timestamp('2023-02-29T00:00:00Z')")?.contains("cannot parse") == true)
        #expect(
            celErrorMessage("duration('soon')") == "duration() cannot parse \"soon\" (write e.g. \"1h30m\" or \"2.5s\")"
        )
        #expect(celErrorMessage("timestamp('9999-12-31T23:00:00Z') + duration('2h')") == "timestamp out of range")
        #expect(celErrorMessage("request.time < 5") == "no such overload: timestamp < int")
    }

    @Test func keepsAnUnparsableRequestTimeAsAString() throws {
        #expect(try celEvaluate("request.time", CELBindings(requestTime: "now")) == "now")
    }

    // MARK: Errors

    @Test(arguments: [
        ("vars.missing", "no such key: missing"),
        ("vars.movie.rating", "no such key: rating"),
        ("vars['missing']", "no such key: missing"),
        ("vars.nothing.x", "cannot select field \"x\" from null"),
        ("vars.limit.x", "cannot select field \"x\" from int"),
        ("vars.tags[2]", "index out of range: 2 (size 2)"),
        ("vars.tags[-1]", "index out of range: -1 (size 2)"),
        ("vars.tags['a']", "no such overload: list[string]"),
        ("{'a': 1}[1]", "no such key: 1 (map keys are strings)"),
        ("'abc'[0]", "no such overload: string[int]"),
        ("foo", "undeclared reference to \"foo\""),
        ("this", "\"this\" is only available in @check expressions"),
        ("mutation.name", "\"mutation\" is only available in @refresh conditions"),
        ("1 / 0", "division by zero"),
        ("1.0 / 0.0", "division by zero"),
        ("5 % 0", "modulus by zero"),
        ("5u / 0u", "division by zero"),
        ("1.5 % 1.0", "no such overload: double % double"),
        ("9223372036854775807 + 1", "integer overflow in +"),
        ("-9223372036854775808 - 1", "integer overflow in -"),
        ("-9223372036854775808 / -1", "integer overflow in /"),
        ("-9223372036854775808 % -1", "integer overflow in %"),
        ("4611686018427387904 * 2", "integer overflow in *"),
        ("-(-9223372036854775808)", "integer overflow in -"),
        ("0u - 1u", "integer overflow in -"),
        ("-1u", "no such overload: -uint"),
        ("'a' + 1", "no such overload: string + int"),
        ("[1] + 'a'", "no such overload: list + string"),
        ("'a' < 1", "no such overload: string < int"),
        ("null < 1", "no such overload: null < int"),
        ("[1] < [2]", "no such overload: list < list"),
        ("1 in 'abc'", "no such overload: int in string"),
        ("size(1)", "no such overload: size(int)"),
        ("int('x')", "int() cannot convert \"x\""),
        ("int(1e300)", "int() argument out of range: 1e+300"),
        ("uint(-1)", "uint() argument out of range: -1"),
        ("string([1])", "no such overload: string(list)"),
        ("'a'.startsWith(1)", "no such overload: startsWith(string, int)"),
        ("'a'.matches('(')", "matches(): invalid regular expression \"(\""),
        ("{'a': 1, 'a': 2}", "duplicate map key: a"),
        ("{1: 2}", "map keys must be strings, got int"),
        ("1.all(x, true)", "all() needs a list or a map, got int"),
        ("[1].all(x, 1)", "all() predicate must be a bool, got int"),
        ("[1].filter(x, 'y')", "filter() predicate must be a bool, got string"),
    ])
    func reportsEvaluationErrors(source: String, message: String) {
        #expect(celErrorMessage(source) == message)
    }

    @Test func conditionsMustBeBools() throws {
        // given
        let expression = try CELExpression(parsing: "vars.limit")

        // when / then
        #expect(throws: CELError.evaluation(message: "the condition must evaluate to a bool, got int")) {
            try expression.evaluateCondition(in: celTestBindings)
        }
        #expect(try CELExpression(parsing: "vars.limit == 10").evaluateCondition(in: celTestBindings))
    }

    @Test func stopsRunawayEvaluations() {
        // given: 10^6 iterations of a nested comprehension
        let range = "[0,1,2,3,4,5,6,7,8,9]"
        var source = "a + b"
        for variable in ["f", "e", "d", "c", "b", "a"] { source = "\(range).map(\(variable), \(source))" }
        source += ".size()"

        // when / then
        #expect(celErrorMessage(source) == "the expression exceeded its evaluation cost limit")
    }

    // MARK: Unauthenticated access

    @Test(arguments: [
        "auth.uid", "auth.uid == vars.userId", "request.auth.uid == 'x'", "auth.token.admin == true", "auth['uid']",
        "vars.userId == auth.uid",
    ])
    func readingAuthWithoutAUserIsUnauthenticated(source: String) {
        // given
        let anonymous = CELBindings(vars: ["userId": "u"])

        // when
        let error = celError(source, anonymous)

        // then
        #expect(error == .unauthenticated)
        #expect(error?.message == "auth.uid is not available: the request is unauthenticated")
    }

    @Test func comparingAuthItselfWithNullIsFine() throws {
        #expect(try celEvaluate("auth == null", CELBindings()) == true)
        #expect(try celEvaluate("request.auth != null", CELBindings()) == false)
        #expect(try celEvaluate("auth != null && auth.uid == 'x'", CELBindings()) == false)
    }

    @Test func returnsJSONValues() throws {
        #expect(try celEvaluate("vars.movie") == ["id": "m1", "title": "Alien", "year": 1979])
        #expect(
            try celEvaluate("{'n': 18446744073709551615u}") == [
                "n": .number(JSONNumber(literal: "18446744073709551615")!)
            ])
        #expect(try celEvaluate("auth.token.firebase.sign_in_provider") == "password")
    }
}
