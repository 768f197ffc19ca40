import DataConnectSchema
import Testing

@Suite struct NamingTests {
    @Test(arguments: [
        ("RecipeNote", "recipe_note"), ("chefId", "chef_id"), ("savedOn", "saved_on"), ("HTTPServer", "http_server"),
        ("movie", "movie"), ("userID", "user_id"), ("MovieActor", "movie_actor"),
    ])
    func snakeCasesNames(input: String, expected: String) {
        #expect(Naming.snakeCase(input) == expected)
    }

    @Test(arguments: [("RecipeNote", "recipeNote"), ("Chef", "chef"), ("URLEntry", "urlEntry"), ("UUID", "uuid")])
    func lowerCamelCasesTypeNames(input: String, expected: String) {
        #expect(Naming.lowerCamel(input) == expected)
    }

    @Test(arguments: [
        ("chef", "chefs"), ("recipeNote", "recipeNotes"), ("category", "categories"), ("day", "days"),
        ("box", "boxes"), ("match", "matches"), ("bus", "buses"), ("metadata", "metadatas"),
    ])
    func pluralizesWithSimpleRules(input: String, expected: String) {
        #expect(Naming.plural(input) == expected)
    }
}
