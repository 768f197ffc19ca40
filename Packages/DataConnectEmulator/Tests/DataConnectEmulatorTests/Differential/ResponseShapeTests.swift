import DataConnectWire
import GraphQLLanguage
import Testing

/// The differential comparison's reading of list order: unordered lists and runs of tied rows compare as
/// multisets, everything else in order.
@Suite struct ResponseShapeTests {
    static let document = """
        query movies($direction: OrderDirection, $limit: Int = 3) {
          movies { title cast: actors { name } ...Extra }
          ordered: movies(orderBy: [{rating: DESC}, {title: $direction}], limit: $limit) { title rating }
          byDirector: movies(orderBy: {director: {name: ASC}}) { title director { id name } }
        }
        fragment Extra on Movie { tags reviews(orderBy: {date: DESC}) { date } }
        """

    static func shape(_ variables: JSONObject = [:]) throws -> ResponseShape {
        let document = try GraphQLParser.parseDocument(Source(name: "test.gql", text: Self.document))
        let operation = try #require(document.operations.first)
        let fragments = Dictionary(uniqueKeysWithValues: document.fragments.map { ($0.name.value, $0) })
        return ResponseShape(operation: operation, fragments: fragments, variables: variables)
    }

    @Test func readsTheOrderOfEachListFromTheOperation() throws {
        // when
        let shape = try Self.shape()
        let ordered = try Self.shape(["direction": "ASC"])

        // then: a variable that is absent orders nothing; a fragment's fields belong to the selection
        #expect(shape.fields["movies"]?.order == .unordered)
        #expect(shape.fields["movies"]?.children.fields["cast"]?.order == .unordered)
        #expect(shape.fields["movies"]?.children.fields["tags"]?.order == .leaf)
        #expect(shape.fields["movies"]?.children.fields["reviews"]?.order == .ordered([["date"]]))
        #expect(shape.fields["ordered"]?.order == .ordered([["rating"]]))
        #expect(ordered.fields["ordered"]?.order == .ordered([["rating"], ["title"]]))
        #expect(shape.fields["byDirector"]?.order == .ordered([["director", "name"]]))
    }

    @Test func unorderedListsCompareAsMultisetsAndLeafListsInOrder() throws {
        // given
        let shape = try Self.shape()
        let sqlite: JSONValue = [
            "movies": [
                ["title": "A", "cast": [["name": "x"], ["name": "y"]], "tags": ["p", "q"]],
                ["title": "B", "cast": [], "tags": []],
            ]
        ]
        let reordered: JSONValue = [
            "movies": [
                ["title": "B", "cast": [], "tags": []],
                ["title": "A", "cast": [["name": "y"], ["name": "x"]], "tags": ["p", "q"]],
            ]
        ]
        let otherTags: JSONValue = [
            "movies": [
                ["title": "A", "cast": [["name": "x"], ["name": "y"]], "tags": ["q", "p"]],
                ["title": "B", "cast": [], "tags": []],
            ]
        ]
        let missingRow: JSONValue = [
            "movies": [["title": "A", "cast": [["name": "x"], ["name": "y"]], "tags": ["p", "q"]]]
        ]

        // then
        #expect(shape.canonical(sqlite) == shape.canonical(reordered))
        #expect(shape.canonical(sqlite) != shape.canonical(otherTags))
        #expect(shape.canonical(sqlite) != shape.canonical(missingRow))
    }

    @Test func orderedListsCompareInOrderExceptBetweenTiedRows() throws {
        // given: ordered by rating only
        let shape = try Self.shape()
        let sqlite: JSONValue = [
            "ordered": [["title": "A", "rating": 5], ["title": "B", "rating": 5], ["title": "C", "rating": 4]]
        ]
        let tiesSwapped: JSONValue = [
            "ordered": [["title": "B", "rating": 5], ["title": "A", "rating": 5], ["title": "C", "rating": 4]]
        ]
        let outOfOrder: JSONValue = [
            "ordered": [["title": "C", "rating": 4], ["title": "A", "rating": 5], ["title": "B", "rating": 5]]
        ]

        // then
        #expect(shape.canonical(sqlite) == shape.canonical(tiesSwapped))
        #expect(shape.canonical(sqlite) != shape.canonical(outOfOrder))
        #expect(
            try Self.shape(["direction": "ASC"]).canonical(sqlite)
                != Self.shape(["direction": "ASC"]).canonical(tiesSwapped))
    }
}
