import DataConnectSchema
import GraphQLLanguage
import Testing

/// Merges the first operation of a document (its fragments expanded).
func mergeOperation(
    _ text: String, limits: OperationLimits = .default, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> MergedSelection {
    let document = try GraphQLParser.parseDocument(Source(name: "ops.gql", text: text))
    let operation = try #require(document.operations.first, sourceLocation: sourceLocation)
    let fragments = Dictionary(document.fragments.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
    return MergedSelection(collecting: operation.selectionSet, fragments: fragments, limits: limits)
}

extension MergedSelection {
    /// The merged tree as text: `key` for a leaf, `key { ... }` for a field with sub-fields.
    var outline: String { roots.map(outline(of:)).joined(separator: " ") }

    func outline(of index: Int) -> String {
        let field = fields[index]
        guard !field.children.isEmpty else { return field.responseKey }
        return field.responseKey + " { " + field.children.map(outline(of:)).joined(separator: " ") + " }"
    }

    /// The merged field at a path of response keys.
    func field(_ path: String...) -> MergedField? {
        var candidates = roots
        var found: MergedField?
        for key in path {
            guard let index = candidates.first(where: { fields[$0].responseKey == key }) else { return nil }
            found = fields[index]
            candidates = fields[index].children
        }
        return found
    }
}

/// CollectFields and MergeSelectionSets (§6.3.2) over whole operations.
@Suite struct MergedSelectionTests {
    @Test func givesEachResponseKeyOneField() throws {
        // given / when
        let merged = try mergeOperation("{ recipes(limit: 1) { id id title title } }")
        // then
        #expect(merged.outline == "recipes { id title }")
        #expect(merged.diagnostics.isEmpty)
    }

    @Test func mergesTheSubSelectionsOfFieldsWithOneKey() throws {
        // given / when
        let merged = try mergeOperation(
            """
            {
              recipes { id }
              recipes { title chef { name } }
              ... on Query { recipes { chef { id name } } }
            }
            """)
        // then
        #expect(merged.outline == "recipes { id title chef { name id } }")
    }

    @Test func keepsFirstAppearanceOrderAcrossFragments() throws {
        // given / when
        let merged = try mergeOperation(
            """
            { recipes { title ...Parts year ...Parts } }
            fragment Parts on Recipe { tags title chef { name } }
            """)
        // then
        #expect(merged.outline == "recipes { title tags chef { name } year }")
    }

    @Test func expandsAFragmentSpreadTwiceOnlyOnce() throws {
        // given: each fragment spreads the next one twice, so the text doubles 30 times
        var text = "{ recipes { ...F0 } }\n"
        for index in 0..<30 { text += "fragment F\(index) on Recipe { ...F\(index + 1) ...F\(index + 1) }\n" }
        text += "fragment F30 on Recipe { title chef { name } }\n"
        // when
        let merged = try mergeOperation(text, limits: OperationLimits(maxCollectedSelections: 200))
        // then
        #expect(merged.fields.count == 4)
        #expect(merged.outline == "recipes { title chef { name } }")
        #expect(merged.isComplete)
    }

    @Test func collectsALongFragmentChainWithoutRecursion() throws {
        // given
        let length = 20_000
        var text = "{ recipes { ...F0 } }\n"
        for index in 0..<length { text += "fragment F\(index) on Recipe { title ...F\(index + 1) }\n" }
        text += "fragment F\(length) on Recipe { title }\n"
        // when
        let merged = try mergeOperation(text)
        // then
        #expect(merged.outline == "recipes { title }")
        #expect(merged.diagnostics.isEmpty)
    }

    @Test func comparesArgumentsInAnyOrder() throws {
        // given / when
        let merged = try mergeOperation(
            """
            {
              recipes(limit: 2, where: {title: {eq: "a"}, year: {gt: 1}}) { id }
              recipes(where: {year: {gt: 1}, title: {eq: "a"}}, limit: 2) { title }
            }
            """)
        // then
        #expect(merged.diagnostics.isEmpty)
        #expect(merged.outline == "recipes { id title }")
    }

    @Test func reportsDifferentFieldsUnderOneKeyAtAnyDepth() throws {
        // given / when
        let merged = try mergeOperation(
            """
            {
              recipes { chef { n: name } }
              recipes { ...ChefID }
            }
            fragment ChefID on Recipe { chef { n: id } }
            """)
        // then
        #expect(
            merged.diagnostics.map(\.description) == [
                #"ops.gql:5:36: error: fields "n" conflict because "name" and "id" are different fields; use different aliases"#
            ])
    }

    @Test func reportsDifferingArgumentsAtAnyDepth() throws {
        // given / when
        let merged = try mergeOperation(
            """
            {
              chefs { recipes_on_chef(limit: 1) { id } }
              chefs { recipes_on_chef(limit: 2) { id } }
            }
            """)
        // then
        #expect(
            merged.diagnostics.map(\.description) == [
                #"ops.gql:3:11: error: fields "recipes_on_chef" conflict because they have differing arguments; use different aliases"#
            ])
    }

    @Test func keepsSkipAndIncludePerSelection() throws {
        // given / when
        let merged = try mergeOperation(
            """
            query q($a: Boolean!, $b: Boolean!) {
              recipes @include(if: $a) { title }
              recipes { title ... @skip(if: $b) { title year } }
            }
            """)
        // then: the title of the first selection needs $a; the second selection has it unconditionally
        let a = InclusionCondition(include: true, value: .variable(Name("a")))
        let b = InclusionCondition(include: false, value: .variable(Name("b")))
        #expect(merged.field("recipes")?.conditionSets == [[a], []])
        #expect(merged.field("recipes", "title")?.conditionSets == [[a], [], [b]])
        #expect(merged.field("recipes", "year")?.conditionSets == [[b]])
    }

    @Test func gathersChecksAndRedactionsOfEverySelection() throws {
        // given / when
        let merged = try mergeOperation(
            """
            {
              recipes { title @check(expr: "this != ''") }
              recipes { ...Title @redact title @check(expr: "this != ''") }
            }
            fragment Title on Recipe @check(expr: "this != null") { title }
            """)
        // then
        let title = try #require(merged.field("recipes", "title"))
        #expect(title.isRedacted)
        #expect(
            title.checks.map { GraphQLPrinter.print($0.argument("expr")!.value) } == [
                #""this != ''""#, #""this != null""#,
            ])
    }
}
