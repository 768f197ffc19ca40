import DataConnectCEL
import Testing

/// What the tree alone tells before an expression runs: the names it reads that do not exist where it runs, and
/// the type it gives.
@Suite struct CELCheckingTests {
    @Test func reportsEachUnknownNameWhereItIsRead() throws {
        // given
        let expression = try CELExpression(parsing: "this.id == auth.uid &&\n  response.ok")

        // when
        let problems = expression.unknownNames(allowed: ["auth", "vars", "request"])

        // then
        #expect(
            problems == [
                CELProblem(
                    message: "unknown name \"this\": only auth, request, vars can be read here", line: 1, column: 1),
                CELProblem(
                    message: "unknown name \"response\": only auth, request, vars can be read here", line: 2,
                    column: 3),
            ])
    }

    @Test(arguments: [
        "[1, 2].exists(this, this > 1)", "'this' == vars.kind", "vars.this", "has(auth.this)",
        "vars.list.map(x, x + 1) == [2]",
    ])
    func ignoresWhatIsNotAFreeName(source: String) throws {
        #expect(try CELExpression(parsing: source).unknownNames(allowed: ["auth", "vars"]).isEmpty)
    }

    @Test(arguments: [
        ("request.time", CELStaticType.timestamp), ("uuidV4()", .string), ("1 + 2", .int), ("1 + 2.5", .double),
        ("'a' + 'b'", .string), ("size(vars.tags) > 1", .bool), ("auth.uid == vars.id", .bool),
        ("[1].all(x, x > 0)", .bool), ("vars.tags.map(t, t)", .list), ("{'a': 1}", .map), ("null", .null),
        ("request.time + duration('1h')", .timestamp), ("vars.ok ? 'a' : 'b'", .string),
        ("int(vars.n)", .int), ("'ab'.upperAscii()", .string), ("!vars.ok", .bool),
    ])
    func infersTheTypeTheTreeGives(source: String, type: CELStaticType) throws {
        #expect(try CELExpression(parsing: source).staticType == type)
    }

    @Test(arguments: ["auth.uid", "vars.x", "vars.ok ? 1 : 'b'", "dyn(1)", "vars.a + vars.b", "response['x']"])
    func leavesToTheBindingsWhatDependsOnThem(source: String) throws {
        #expect(try CELExpression(parsing: source).staticType == nil)
    }
}
