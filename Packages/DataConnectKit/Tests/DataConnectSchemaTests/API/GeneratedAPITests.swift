import DataConnectSchema
import GraphQLLanguage
import Testing

@Suite struct GeneratedAPITests {
    let system = kitchenAPI.typeSystem

    func argumentNames(_ field: String, on type: String) -> [String] {
        system.field(field, on: type)?.arguments.map(\.name.value) ?? []
    }

    func inputFieldNames(_ type: String) -> [String] {
        system.inputFields(of: type).map(\.name.value)
    }

    @Test func generatesLookupsWithTheRightSelectors() {
        #expect(argumentNames("recipe", on: "Query") == ["id", "key", "first"])
        #expect(argumentNames("cook", on: "Query") == ["id", "id_expr", "key", "first"])
        #expect(argumentNames("bookmark", on: "Query") == ["key", "first"])
        #expect(system.field("recipe", on: "Query")?.type.description == "Recipe")
    }

    @Test func generatesListsWithDefaultLimit() throws {
        let field = try #require(system.field("recipes", on: "Query"))
        #expect(field.type.description == "[Recipe!]!")
        #expect(field.arguments.map(\.name.value) == ["where", "orderBy", "offset", "limit", "distinct", "having"])
        #expect(field.arguments.first { $0.name.value == "limit" }?.defaultValue == .int("100", .synthesized))
    }

    @Test func generatesEveryMutationField() {
        let names = Set(system.fields(of: "Mutation").map(\.name.value))
        for suffix in ["insert", "insertMany", "upsert", "upsertMany", "update", "updateMany", "delete", "deleteMany"] {
            #expect(names.contains("recipeNote_\(suffix)"))
        }
        #expect(system.field("chef_insert", on: "Mutation")?.type.description == "Chef_KeyOutput!")
        #expect(system.field("chef_update", on: "Mutation")?.type.description == "Chef_KeyOutput")
        #expect(system.field("chef_deleteMany", on: "Mutation")?.type.description == "Int!")
        #expect(names.contains("query"))
    }

    @Test func generatesKeyInputsWithExprVariants() {
        #expect(inputFieldNames("Bookmark_Key") == ["recipeId", "recipeId_expr", "cookId", "cookId_expr"])
    }

    @Test func generatesDataInputsWithVariants() {
        let fields = Set(inputFieldNames("Bookmark_Data"))
        #expect(fields.isSuperset(of: ["savedOn", "savedOn_expr", "savedOn_update", "savedOn_date", "recipe", "cook"]))
        let recipe = Set(inputFieldNames("Recipe_Data"))
        #expect(recipe.isSuperset(of: ["tags", "tags_update", "year_update", "chefId", "chefId_expr", "chef"]))
        #expect(!recipe.contains("tags_expr"))
    }

    @Test func generatesFiltersForColumnsAndRelations() {
        #expect(
            inputFieldNames("Recipe_Filter") == [
                "_and", "_or", "_not", "id", "title", "year", "tags", "chefId", "chef", "bookmarks_on_recipe",
                "cooks_via_Bookmark", "recipeNote_on_recipe",
            ])
        #expect(
            system.inputFields(of: "Recipe_Filter").first { $0.name.value == "tags" }?.type.description
                == "String_ListFilter")
        #expect(
            system.inputFields(of: "Recipe_Filter").first { $0.name.value == "cooks_via_Bookmark" }?.type.description
                == "Cook_ListFilter")
    }

    @Test func typesViaFieldsOnTheJoinTable() {
        let field = system.field("cooks_via_Bookmark", on: "Recipe")
        #expect(field?.arguments.first?.type.description == "Bookmark_Filter")
        #expect(field?.type.description == "[Cook!]!")
    }

    @Test func generatesAggregates() {
        #expect(system.field("year_sum", on: "Recipe")?.type.description == "Int")
        #expect(system.field("year_avg", on: "Recipe")?.type.description == "Float")
        #expect(system.field("savedOn_max", on: "Bookmark")?.type.description == "Date")
        #expect(system.field("title_min", on: "Recipe") == nil)
        #expect(system.field("_count", on: "Recipe")?.type.description == "Int!")
    }

    @Test func recordsFieldRoles() {
        #expect(kitchenAPI.role(of: "recipes", on: "Query") == .list(table: "Recipe"))
        #expect(kitchenAPI.role(of: "bookmark_upsert", on: "Mutation") == .upsert(table: "Bookmark"))
        #expect(
            kitchenAPI.role(of: "year_avg", on: "Recipe") == .aggregate(table: "Recipe", column: "year", function: .avg)
        )
        guard case .relation(_, let relation)? = kitchenAPI.role(of: "recipes_via_Bookmark", on: "Cook") else {
            Issue.record("no relation role")
            return
        }
        #expect(relation.kind == .manyToMany(join: "Bookmark", near: "cook", far: "recipe"))
    }

    @Test func printsSDLThatReparses() throws {
        let sdl = kitchenAPI.sdl()
        let document = try GraphQLParser.parseDocument(Source(name: "api.gql", text: sdl))
        #expect(document.definitions.count == kitchenAPI.definitions.count)
        #expect(sdl.contains("type Query {"))
    }
}
