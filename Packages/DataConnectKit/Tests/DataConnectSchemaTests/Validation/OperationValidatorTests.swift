import DataConnectSchema
import GraphQLLanguage
import Testing

@Suite struct OperationValidatorTests {
    @Test func acceptsTheReferenceOperations() {
        expectValid(
            """
            query SearchRecipes($minYear: Int, $chefId: UUID, $dir: OrderDirection) @auth(level: PUBLIC) {
              recipes(where: {_and: [{year: {ge: $minYear}}, {chefId: {eq: $chefId}}]}, orderBy: [{year: $dir}], limit: 10) {
                id title chef { name }
                recent: bookmarks_on_recipe(orderBy: {savedOn: DESC}, limit: 5) { savedOn cook { handle } }
                cooks_via_Bookmark(where: {savedOn: {lt: "2024-01-01"}}) { handle }
                recipeNote_on_recipe { calories }
                _count
              }
            }
            mutation Rename($id: UUID!, $title: String!) @auth(level: USER) @transaction {
              query @redact { bookmark(key: {recipeId: $id, cookId_expr: "auth.uid"}) @check(expr: "this != null", message: "not yours") { savedOn } }
              recipe_update(id: $id, data: {title: $title})
            }
            mutation Save($id: UUID!) @auth(level: USER) {
              bookmark_upsert(data: {recipeId: $id, cookId_expr: "auth.uid", savedOn_date: {today: true}})
            }
            """)
    }

    @Test func reportsUnknownFieldsWithSuggestions() {
        expectError(
            "query q @auth(level: PUBLIC) { recipes { titel } }", line: 1, column: 42,
            message: #"cannot query field "titel" on type "Recipe" (did you mean "title"?)"#)
    }

    @Test func rejectsSelectionSetsOnMutationFields() {
        expectError(
            "mutation m @auth(level: PUBLIC) { chef_insert(data: {name: \"x\"}) { id } }", line: 1, column: 66,
            message:
                #"field "chef_insert" must not have a selection set since type "Chef_KeyOutput!" has no subfields (a mutation field returns the key of the row it wrote; remove the braces)"#
        )
    }

    @Test func requiresExactlyOneSelector() {
        expectError(
            #"query q($id: UUID!) @auth(level: PUBLIC) { recipe(id: $id, key: {id: $id}) { title } }"#, line: 1,
            column: 44, message: #"field "recipe" accepts only one of "id", "key", "first", but 2 were given"#)
        expectError(
            "query q @auth(level: PUBLIC) { recipe { title } }", line: 1, column: 32,
            message: #"field "recipe" requires one of "id", "key", "first""#)
    }

    @Test func checksLiteralTypes() {
        expectError(
            #"query q @auth(level: PUBLIC) { recipes(where: {year: {eq: "1990"}}) { id } }"#, line: 1, column: 59,
            message: #"expected value of type "Int", found "1990""#)
        expectError(
            #"query q @auth(level: PUBLIC) { recipe(id: "nope") { id } }"#, line: 1, column: 43,
            message: #"expected value of type "UUID", found "nope" (not a UUID)"#)
        expectError(
            "query q @auth(level: PUBLIC) { recipes(limit: 3000000000) { id } }", line: 1, column: 47,
            message:
                #"expected value of type "Int", found 3000000000 (Int must fit in 32 bits; use Int64 for larger values)"#
        )
    }

    @Test(arguments: ["2024-01-01", "2024-01-01T23:30:00-05:00", "2024-01-01T00:00:00.123456+01:00"])
    func acceptsDateLiteralsWithOrWithoutATimePart(_ date: String) {
        expectValid(#"query q @auth(level: PUBLIC) { bookmarks(where: {savedOn: {lt: "\#(date)"}}) { savedOn } }"#)
    }

    @Test(arguments: ["2024-02-30", "2024-05-01T25:00:00Z", "2024-05-01T10:00:00", "2024-05-01T", "yesterday"])
    func refusesDateLiteralsThatAreNeitherADateNorATimestamp(_ date: String) {
        expectError(
            #"query q @auth(level: PUBLIC) { bookmarks(where: {savedOn: {lt: "\#(date)"}}) { savedOn } }"#, line: 1,
            column: 64,
            message:
                #"expected value of type "Date", found "\#(date)" (a Date is written "YYYY-MM-DD", optionally with a Timestamp's time part, which is dropped)"#
        )
    }

    @Test func checksVariables() {
        expectError(
            "query q @auth(level: PUBLIC) { recipes(limit: $n) { id } }", line: 1, column: 47,
            message: #"variable "$n" is not defined by operation "q""#)
        expectError(
            "query q($n: Int) @auth(level: PUBLIC) { recipes { id } }", line: 1, column: 9,
            message: #"variable "$n" is never used in operation "q""#)
        expectError(
            "query q($n: String) @auth(level: PUBLIC) { recipes(limit: $n) { id } }", line: 1, column: 59,
            message: #"variable "$n" of type "String" used in position expecting type "Int""#)
        expectError(
            "query q($s: String) @auth(level: PUBLIC) { recipes(where: {tags: {includesAll: [$s]}}) { id } }", line: 1,
            column: 81, message: #"variable "$s" of type "String" used in position expecting type "String!""#)
    }

    @Test func acceptsNullableVariablesWhereThePositionHasADefault() {
        expectValid("query q($n: Int) @auth(level: PUBLIC) { recipes(limit: $n) { id } }")
    }

    @Test func forbidsExpressionVariableTypes() {
        expectError(
            "query q($e: String_Expr) @auth(level: PUBLIC) { cook(id_expr: $e) { id } }", line: 1, column: 13,
            message:
                #"variable "$e" cannot be of type "String_Expr": it may only be written as a literal in the operation"#)
    }

    @Test func forbidsVectorEmbedAsAVariableTypeButAcceptsTheIntervalEnums() {
        expectError(
            "query q($e: Vector_Embed) @auth(level: PUBLIC) { recipes { id } }", line: 1, column: 13,
            message:
                #"variable "$e" cannot be of type "Vector_Embed": it may only be written as a literal in the operation"#
        )
        let renamed = validateOperations("query q($u: Timestamp_TruncateUnit) @auth(level: PUBLIC) { recipes { id } }")
        #expect(renamed.diagnostics.contains { $0.message.hasPrefix(#"unknown type "Timestamp_TruncateUnit""#) })
        for type in ["Timestamp_Interval", "Date_Interval", "Vector_ListFilter"] {
            let result = validateOperations("query q($u: \(type)) @auth(level: PUBLIC) { recipes { id } }")
            let messages = result.diagnostics.map(\.message)
            #expect(messages == [#"variable "$u" is never used in operation "q""#], "\(type): \(messages)")
        }
    }

    @Test func checksFragmentsAcrossFiles() {
        let result = OperationValidator.validate(
            [
                Source(name: "a.gql", text: "query q @auth(level: PUBLIC) { recipes { ...RecipeParts } }"),
                Source(name: "b.gql", text: "fragment RecipeParts on Recipe { id title }"),
            ], api: kitchenAPI)
        #expect(result.diagnostics.isEmpty)
        #expect(result.fragments["RecipeParts"] != nil)
    }

    @Test func reportsFragmentCycles() {
        let result = validateOperations(
            """
            query q @auth(level: PUBLIC) { recipes { ...A } }
            fragment A on Recipe { ...B }
            fragment B on Recipe { ...A }
            """)
        #expect(result.diagnostics.contains { $0.message.hasPrefix("cannot spread fragment \"A\" within itself") })
        #expect(result.invalidOperations == ["q"])
    }

    @Test func reportsConflictingResponseKeys() {
        expectError(
            "query q @auth(level: PUBLIC) { recipes { x: title x: year } }", line: 1, column: 51,
            message: #"fields "x" conflict because "title" and "year" are different fields; use different aliases"#)
    }

    @Test func warnsWhenAuthIsMissing() {
        let result = validateOperations("query q { recipes { id } }")
        #expect(result.diagnostics.map(\.severity) == [.warning])
        #expect(result.invalidOperations.isEmpty)
    }

    @Test func restrictsTransactionToMutations() {
        expectError(
            "query q @auth(level: PUBLIC) @transaction { recipes { id } }", line: 1, column: 30,
            message: #"directive "@transaction" may not be used on QUERY (allowed on MUTATION)"#)
    }

    @Test func requiresWhereOrAllOnManyMutations() {
        expectError(
            "mutation m @auth(level: PUBLIC) { chef_deleteMany }", line: 1, column: 35,
            message:
                #""chef_deleteMany" affects rows matching `where`; give `where`, or `all: true` to affect every row"#)
        expectValid("mutation m @auth(level: PUBLIC) { chef_deleteMany(all: true) }")
    }

    @Test func keepsValidOperationsWhenOthersFail() {
        let result = validateOperations(
            "query good @auth(level: PUBLIC) { chefs { id } }\nquery bad @auth(level: PUBLIC) { chefs { nope } }")
        #expect(result.invalidOperations == ["bad"])
        #expect(result.operations.count == 2)
    }
}

@Suite struct AdminDocumentTests {
    @Test func acceptsAnonymousSeedMutations() {
        // given
        let seed = """
            mutation @transaction {
              chef_insertMany(data: [{id: "0b6f3c2e-9d8a-4f51-a2c7-e4b1d0f9a8c3", name: "Gusteau"}])
              recipe_insert(data: {title: "Ratatouille", chefId: "0b6f3c2e9d8a4f51a2c7e4b1d0f9a8c3", tags: ["french"]})
            }
            """
        // when
        let result = OperationValidator.validate([Source(name: "seed.gql", text: seed)], api: kitchenAPI, mode: .admin)
        // then
        #expect(result.diagnostics.isEmpty)
    }

    @Test func rejectsAnonymousOperationsInConnectors() {
        expectError(
            "query { chefs { id } }", line: 1, column: 1,
            message: "connector operations must be named: an anonymous query cannot be called")
    }
}
