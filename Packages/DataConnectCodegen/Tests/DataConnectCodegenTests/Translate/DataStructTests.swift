import DataConnectCodegen
import Testing

/// `Data` properties, nested struct names and mutation root field types (client-protocol.md §2.5).
@Suite struct DataStructTests {
    /// The `public var` lines of the struct declared by `header`, dedented.
    func properties(_ header: String, in text: String) throws -> [String] {
        let body = try #require(declaration(header, in: text))
        return body.split(separator: "\n").filter { $0.hasPrefix("    public var") && !$0.hasSuffix("{") }
            .map { String($0.dropFirst(4)) }
    }

    @Test func nestedStructWithoutAliasIsTheTypeName() throws {
        let operations = try generate(operations: "query listRecipes { recipes { title chef { name } } }").operations
        #expect(try properties("public struct Data:", in: operations) == ["public var recipes: [Recipe]"])
        #expect(
            try properties("public struct Recipe:", in: operations) == [
                "public var title: String", "public var chef: Chef?",
            ])
        #expect(operations.contains("            public struct Chef: Decodable, Sendable {\n"))
    }

    @Test func redactedFieldsAreNotInTheData() throws {
        // given: a check query the server runs but never returns
        let operations = try generate(
            operations: """
                mutation rename($id: UUID!, $title: String!) @transaction {
                  query @redact { recipe(id: $id) @check(expr: "this != null", message: "no recipe") { id } }
                  recipe_update(id: $id, data: {title: $title})
                }
                query withSecret { recipes { title id @redact } }
                """
        ).operations
        // then
        #expect(try properties("public struct Data:", in: operations).first == "public var recipe_update: RecipeKey?")
        #expect(try properties("public struct Data:", in: operations).count == 1)
        #expect(!operations.contains("public struct Query"))
        #expect(try properties("public struct Recipe:", in: operations) == ["public var title: String"])
    }

    @Test func fragmentsSpreadTwiceAreMergedOnce() throws {
        // given fragments that each spread the next one twice: 2^30 copies of `title` if expanded naively
        var document = "query doubled { recipes { ...F0 } }\n"
        for index in 0..<30 { document += "fragment F\(index) on Recipe { ...F\(index + 1) ...F\(index + 1) }\n" }
        document += "fragment F30 on Recipe { title chef { name } }\n"

        // when
        let operations = try generate(operations: document).operations

        // then the struct has each field once
        #expect(
            try properties("public struct Recipe:", in: operations) == [
                "public var title: String", "public var chef: Chef?",
            ])
    }

    @Test func aliasedStructIsTypeNamePlusPascalAlias() throws {
        let operations = try generate(
            operations: """
                query home { featured: recipes(limit: 3) { title } recent_picks: recipes { title } }
                """
        ).operations
        #expect(
            try properties("public struct Data:", in: operations) == [
                "public var featured: [RecipeFeatured]", "public var recent_picks: [RecipeRecentPicks]",
            ])
        #expect(operations.contains("        public struct RecipeFeatured: Decodable, Sendable {\n"))
        #expect(operations.contains("        public struct RecipeRecentPicks: Decodable, Sendable {\n"))
    }

    @Test func scalarTableForFields() throws {
        let operations = try generate(
            operations: """
                query everything {
                  recipes { title minutes rating vegan cuisine views published extra id __typename }
                  chefs { born }
                }
                """
        ).operations
        #expect(
            try properties("public struct Recipe:", in: operations) == [
                "public var title: String", "public var minutes: Int?", "public var rating: Double?",
                "public var vegan: Bool", "public var cuisine: Cuisine?", "public var views: Int64?",
                "public var published: Timestamp?", "public var extra: AnyValue?", "public var id: UUID",
                "public var __typename: String",
            ])
        #expect(try properties("public struct Chef:", in: operations) == ["public var born: LocalDate?"])
    }

    @Test func nestedStructDecodesThroughCodecHelper() throws {
        let operations = try generate(operations: "query listChefs { chefs { name born } }").operations
        #expect(
            declaration("public struct Chef:", in: operations) == """
                public struct Chef: Decodable, Sendable {
                    public var name: String
                    public var born: LocalDate?

                    public init(name: String, born: LocalDate?) {
                        self.name = name
                        self.born = born
                    }

                    enum CodingKeys: String, CodingKey {
                        case name
                        case born
                    }

                    public init(from decoder: any Decoder) throws {
                        var container = try decoder.container(keyedBy: CodingKeys.self)
                        let codecHelper = CodecHelper<CodingKeys>()
                        self.name = try codecHelper.decode(String.self, forKey: .name, container: &container)
                        self.born = try codecHelper.decode(LocalDate?.self, forKey: .born, container: &container)
                    }
                }
                """)
    }

    @Test func fragmentsAreInlined() throws {
        let operations = try generate(
            operations: """
                fragment ChefParts on Chef { name }
                query listChefs { chefs { ...ChefParts born } }
                """
        ).operations
        #expect(
            try properties("public struct Chef:", in: operations) == [
                "public var name: String", "public var born: LocalDate?",
            ])
    }

    @Test func mutationRootFieldTypes() throws {
        let operations = try generate(
            operations: """
                mutation writeAll($id: UUID!) {
                  chef_insert(data: {name: "A"})
                  chef_upsert(data: {id: $id, name: "B"})
                  chef_update(id: $id, data: {name: "C"})
                  chef_delete(id: $id)
                  chef_insertMany(data: [{name: "D"}])
                  chef_upsertMany(data: [{name: "E"}])
                  chef_updateMany(all: true, data: {name: "F"})
                  chef_deleteMany(all: true)
                }
                """
        ).operations
        #expect(
            try properties("public struct Data:", in: operations) == [
                "public var chef_insert: ChefKey", "public var chef_upsert: ChefKey",
                "public var chef_update: ChefKey?", "public var chef_delete: ChefKey?",
                "public var chef_insertMany: [ChefKey]", "public var chef_upsertMany: [ChefKey]",
                "public var chef_updateMany: Int", "public var chef_deleteMany: Int",
            ])
    }
}
