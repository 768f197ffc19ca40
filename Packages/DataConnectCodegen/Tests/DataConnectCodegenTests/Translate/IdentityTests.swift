import DataConnectCodegen
import Testing

/// The identity rule: a struct selecting its whole primary key gets key-based equality and a key accessor.
@Suite struct IdentityTests {
    @Test func selectedIdMakesTheStructIdentifiable() throws {
        let operations = try generate(operations: "query listChefs { chefs { id name } }").operations
        #expect(
            declaration("public struct Chef:", in: operations)?.hasPrefix(
                """
                public struct Chef: Decodable, Sendable, Hashable, Equatable, Identifiable {
                    public var id: UUID
                    public var name: String

                    /// The key of this row.
                    public var chefKey: ChefKey {
                        ChefKey(id: id)
                    }

                    public static func == (lhs: Chef, rhs: Chef) -> Bool {
                        lhs.id == rhs.id
                    }

                    public func hash(into hasher: inout Hasher) {
                        hasher.combine(id)
                    }
                """) == true)
    }

    @Test func aliasedStructNamesItsKeyAccessor() throws {
        let operations = try generate(operations: "query home { featured: recipes { id } }").operations
        #expect(operations.contains("public var recipeFeaturedKey: RecipeKey {"))
    }

    @Test func unselectedKeyMeansNoIdentity() throws {
        let operations = try generate(operations: "query listChefs { chefs { name } }").operations
        #expect(
            declaration("public struct Chef:", in: operations, headerOnly: true)
                == "public struct Chef: Decodable, Sendable {")
        #expect(!operations.contains("chefKey"))
    }

    @Test func fullCompositeKeyIsHashableButNotIdentifiable() throws {
        let operations = try generate(operations: "query marks { bookmarks { recipeId cookId note } }").operations
        #expect(
            declaration("public struct Bookmark:", in: operations, headerOnly: true)
                == "public struct Bookmark: Decodable, Sendable, Hashable, Equatable {")
        #expect(
            declaration("public var bookmarkKey", in: operations) == """
                public var bookmarkKey: BookmarkKey {
                    BookmarkKey(recipeId: recipeId, cookId: cookId)
                }
                """)
    }

    @Test func partialCompositeKeyGetsNothing() throws {
        let operations = try generate(operations: "query marks { bookmarks { recipeId note } }").operations
        #expect(
            declaration("public struct Bookmark:", in: operations, headerOnly: true)
                == "public struct Bookmark: Decodable, Sendable {")
    }

    @Test func idThatIsNotTheKeyGetsNothing() throws {
        let schema = """
            type Tag @table(key: "label") {
              label: String!
              id: String
            }
            """
        let operations = try generate(schema: schema, operations: "query tags { tags { id } }").operations
        #expect(
            declaration("public struct Tag:", in: operations, headerOnly: true)
                == "public struct Tag: Decodable, Sendable {")
    }
}
