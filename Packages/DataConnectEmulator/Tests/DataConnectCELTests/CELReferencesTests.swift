import DataConnectCEL
import Testing

/// `CELExpression.references(_:)`: which bindings an expression reads, from its tree.
@Suite struct CELReferencesTests {
    @Test(arguments: [
        "response", "response.movie_insert", "response['movie_insert']", "response.movie_insert.id",
        "has(response.movie_insert)", "size(response) > 0", "response.movie_insert.id == vars.id",
        "vars.ok ? response.a : null", "[1, 2].exists(x, x == response.count)", "{'k': response}",
        "[response].all(r, r != null)", "response.items.exists(item, item.id == vars.id)",
        "-response.count < 0", "!has(response.a)", "vars.id in response.ids", "response.name.startsWith('a')",
        "(response)",
    ])
    func findsResponseInEveryForm(source: String) throws {
        // given
        let expression = try CELExpression(parsing: source)

        // when / then
        #expect(expression.references("response"))
        #expect(!expression.references("responses"))
        #expect(!expression.references("mutation"))
    }

    @Test(arguments: [
        "vars.response", "'response' == vars.kind", "auth.token.response", "this.response",
        "[1, 2].exists(response, response > 1)", "vars.list.map(response, response + 1) == [2]",
        "{'response': 1}['response'] == 1", "responses.x", "has(vars.response)",
    ])
    func ignoresTheNameWhereItIsNotTheBinding(source: String) throws {
        // given
        let expression = try CELExpression(parsing: source)

        // when / then
        #expect(!expression.references("response"))
    }

    @Test func seesBindingsReachedThroughRequest() throws {
        // given
        let viaAuth = try CELExpression(parsing: "request.auth.uid != null")
        let viaIndex = try CELExpression(parsing: "request['variables'].id == 'a'")
        let viaTime = try CELExpression(parsing: "request.time > timestamp('2024-01-01T00:00:00Z')")
        let whole = try CELExpression(parsing: "size(request) == 3")
        let shadowed = try CELExpression(parsing: "[{'auth': 1}].all(request, request.auth == 1)")

        // when / then
        #expect(viaAuth.references("auth") && viaAuth.references("request") && !viaAuth.references("vars"))
        #expect(viaIndex.references("vars") && !viaIndex.references("auth"))
        #expect(!viaTime.references("auth") && !viaTime.references("vars") && viaTime.references("request"))
        #expect(whole.references("auth") && whole.references("vars"))
        #expect(!shadowed.references("auth") && !shadowed.references("request"))
    }

    @Test func agreesWithTheReferencedRoots() throws {
        // given
        let expression = try CELExpression(parsing: "auth.uid == vars.id && has(this.x) && mutation != null")

        // when
        let found = ["auth", "vars", "this", "mutation", "response", "request"].filter { expression.references($0) }

        // then
        #expect(Set(found) == expression.referencedRoots)
    }
}
