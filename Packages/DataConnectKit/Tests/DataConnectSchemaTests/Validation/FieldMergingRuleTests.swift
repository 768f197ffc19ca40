import DataConnectSchema
import GraphQLLanguage
import Testing

/// Fields sharing a response key merge at every depth, and merged selections stay within the limits.
@Suite struct FieldMergingRuleTests {
    @Test func acceptsRepeatedFields() {
        expectValid(
            "query q @auth(level: PUBLIC) { recipes(limit: 1) { id id title title chef { id } chef { name } } }")
    }

    @Test func reportsConflictsBetweenAnOperationAndAFragmentAtDepth() {
        // given
        let text = """
            query q @auth(level: PUBLIC) {
              recipes { chef { n: name } ...ChefID }
            }
            fragment ChefID on Recipe { chef { n: id } }
            """
        // when
        let result = validateOperations(text)
        // then
        expectError(
            text, line: 4, column: 36,
            message: #"fields "n" conflict because "name" and "id" are different fields; use different aliases"#)
        #expect(result.invalidOperations == ["q"])
    }

    @Test func reportsDifferingArgumentsOfMergedSubFields() {
        expectError(
            """
            query q @auth(level: PUBLIC) {
              chefs { recipes_on_chef(orderBy: {year: ASC}) { id } }
              chefs { recipes_on_chef(orderBy: {year: DESC}) { id } }
            }
            """, line: 3, column: 11,
            message: #"fields "recipes_on_chef" conflict because they have differing arguments; use different aliases"#)
    }

    @Test func reportsAConflictInsideAFragmentOnceForEveryOperationUsingIt() {
        // given
        let text = """
            query a @auth(level: PUBLIC) { recipes { ...Parts } }
            query b @auth(level: PUBLIC) { recipes { ...Parts } }
            fragment Parts on Recipe { x: title x: year }
            """
        // when
        let result = validateOperations(text)
        // then
        #expect(
            result.diagnostics.map(\.description) == [
                #"ops.gql:3:37: error: fields "x" conflict because "title" and "year" are different fields; use different aliases"#
            ])
        #expect(result.invalidOperations == ["a", "b"])
    }

    @Test func validatesADoublingFragmentChainAsItsMergedSelection() {
        // given: 30 fragments, each spreading the next one twice
        var text = "query q @auth(level: PUBLIC) { recipes { ...F0 } }\n"
        for index in 0..<30 { text += "fragment F\(index) on Recipe { ...F\(index + 1) ...F\(index + 1) }\n" }
        text += "fragment F30 on Recipe { title }\n"
        // when / then
        expectValid(text)
    }

    @Test func validatesALongLinearFragmentChain() {
        // given
        let length = 20_000
        var text = "query q @auth(level: PUBLIC) { recipes { ...F0 } }\n"
        for index in 0..<length { text += "fragment F\(index) on Recipe { title ...F\(index + 1) }\n" }
        text += "fragment F\(length) on Recipe { title }\n"
        // when / then
        expectValid(text)
    }

    @Test func rejectsAnOperationBeyondTheLimits() {
        // given
        let text = """
            query q @auth(level: PUBLIC) { a: recipes { id } b: recipes { id } c: recipes { id } }
            query r @auth(level: PUBLIC) { recipes { id } }
            """
        // when
        let result = OperationValidator.validate(
            [Source(name: "ops.gql", text: text)], api: kitchenAPI, limits: OperationLimits(maxAliases: 2))
        // then
        #expect(
            result.diagnostics.map(\.description) == [
                "ops.gql:1:68: error: the operation uses more than 2 aliases (limit maxAliases = 2)"
            ])
        #expect(result.invalidOperations == ["q"])
    }

    @Test func rejectsAnAliasBombWithTheDefaultLimits() {
        // given
        let aliases = (1...1_000).map { "a\($0): recipes { ...Bits }" }.joined(separator: " ")
        let text = """
            query q @auth(level: PUBLIC) { \(aliases) }
            fragment Bits on Recipe { id title year tags chef { id name } }
            """
        // when
        let result = validateOperations(text)
        // then
        #expect(
            result.diagnostics.map(\.message) == [
                "the operation selects more than 5000 fields (limit maxSelectedFields = 5000)"
            ])
    }
}
