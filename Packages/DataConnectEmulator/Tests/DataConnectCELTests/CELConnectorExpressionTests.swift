import DataConnectCEL
import DataConnectWire
import Testing

/// Expressions as real connectors write them, against the bindings each directive provides.
@Suite struct CELConnectorExpressionTests {
    private static let admin = SignedInUser(claims: ["sub": "admin-1", "admin": true, "email_verified": true])
    private static let user = SignedInUser(claims: ["sub": "user-1", "email_verified": false])

    @Test func adminClaimGuard() throws {
        // given
        let rule = try CELExpression(parsing: "auth.token.admin == true")

        // when / then
        #expect(try rule.evaluateCondition(in: CELBindings(auth: Self.admin.celValue)))
        #expect(throws: CELError.evaluation(message: "no such key: admin")) {
            try rule.evaluateCondition(in: CELBindings(auth: Self.user.celValue))
        }
        #expect(throws: CELError.unauthenticated) { try rule.evaluateCondition(in: CELBindings()) }
        #expect(!rule.referencesAuthUID)
    }

    @Test func optionalStatusVariable() throws {
        // given
        let rule = try CELExpression(parsing: "has(vars.status) && vars.status in ['DRAFT','PUBLISHED']")

        // when / then
        #expect(try rule.evaluateCondition(in: CELBindings(vars: ["status": "DRAFT"])))
        #expect(try !rule.evaluateCondition(in: CELBindings(vars: ["status": "ARCHIVED"])))
        #expect(try !rule.evaluateCondition(in: CELBindings(vars: [:])))
        #expect(rule.referencedRoots == ["vars"])
    }

    @Test func checkThatALookupFoundSomething() throws {
        // given
        let check = try CELExpression(parsing: "this != null")
        let bindings = CELBindings(auth: Self.user.celValue)

        // when / then
        #expect(try check.evaluateCondition(in: bindings.with(this: ["savedOn": "2024-01-01"])))
        #expect(try !check.evaluateCondition(in: bindings.with(this: .null)))
    }

    @Test(
        arguments: [
            (.null, false), ([], false), ([["id": "a"]], true), (["id": "a"], true), ("", true), (0, true),
        ] as [(JSONValue, Bool)])
    func defaultCheckRejectsNullAndEmptyLists(this: JSONValue, passes: Bool) throws {
        // given: @check's default expression
        let check = try CELExpression(parsing: "!(this in [null, []])")

        // when
        let result = try check.evaluateCondition(in: CELBindings(this: this))

        // then
        #expect(result == passes)
    }

    @Test func ownerGuard() throws {
        // given
        let rule = try CELExpression(parsing: "auth.uid == vars.userId")

        // when / then
        #expect(try rule.evaluateCondition(in: CELBindings(auth: Self.user.celValue, vars: ["userId": "user-1"])))
        #expect(try !rule.evaluateCondition(in: CELBindings(auth: Self.user.celValue, vars: ["userId": "other"])))
        #expect(throws: CELError.unauthenticated) {
            try rule.evaluateCondition(in: CELBindings(vars: ["userId": "user-1"]))
        }
        #expect(rule.referencesAuthUID)
        #expect(rule.referencedRoots == ["auth", "vars"])
    }

    @Test func verifiedEmailThroughRequest() throws {
        // given
        let rule = try CELExpression(parsing: "request.auth.token.email_verified")

        // when / then
        #expect(try rule.evaluateCondition(in: CELBindings(auth: Self.admin.celValue)))
        #expect(try !rule.evaluateCondition(in: CELBindings(auth: Self.user.celValue)))
        #expect(throws: CELError.unauthenticated) { try rule.evaluateCondition(in: CELBindings()) }
        #expect(rule.referencedRoots == ["request"])
    }

    @Test func earlierResultsOfAMutation() throws {
        // given
        let check = try CELExpression(parsing: "response.movie_insert.id != null")
        let serverValue = try CELExpression(parsing: "response.movie_insert.id")
        let inserted = CELBindings(response: ["movie_insert": ["id": "0a1b2c3d4e5f60718293a4b5c6d7e8f9"]])

        // when / then
        #expect(try check.evaluateCondition(in: inserted))
        #expect(try serverValue.evaluate(in: inserted) == "0a1b2c3d4e5f60718293a4b5c6d7e8f9")
        #expect(throws: CELError.evaluation(message: "cannot select field \"id\" from null")) {
            try check.evaluateCondition(in: CELBindings(response: ["movie_insert": nil]))
        }
    }

    @Test func serverValuesForKeysAndDefaults() throws {
        #expect(try CELExpression(parsing: "auth.uid").evaluate(in: CELBindings(auth: Self.user.celValue)) == "user-1")
        #expect(try CELExpression(parsing: "uuidV4()").evaluate(in: CELBindings()).stringValue?.count == 32)
        #expect(
            try CELExpression(parsing: "request.time").evaluate(in: CELBindings(requestTime: "2024-05-01T12:00:00Z"))
                == "2024-05-01T12:00:00Z")
    }

    @Test func refreshConditionOnAMutationEvent() throws {
        // given
        let condition = try CELExpression(
            parsing: "mutation.name == 'AddReview' && mutation.variables.movieId == request.variables.id")
        let bindings = CELBindings(
            vars: ["id": "m1"], mutation: ["name": "AddReview", "variables": ["movieId": "m1"]])

        // when / then
        #expect(try condition.evaluateCondition(in: bindings))
        #expect(condition.referencedRoots == ["mutation", "request"])
    }

    @Test func ownershipOfEveryListedElement() throws {
        // given: a @check under a list runs per element; an `all` over the list does the same in one expression
        let check = try CELExpression(parsing: "this.all(r, r.authorId == auth.uid)")
        let mine: JSONValue = [["authorId": "user-1"], ["authorId": "user-1"]]
        let mixed: JSONValue = [["authorId": "user-1"], ["authorId": "other"]]
        let bindings = CELBindings(auth: Self.user.celValue)

        // when / then
        #expect(try check.evaluateCondition(in: bindings.with(this: mine)))
        #expect(try !check.evaluateCondition(in: bindings.with(this: mixed)))
        #expect(check.referencesAuthUID)
    }
}
