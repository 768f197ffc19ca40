import DataConnectSchema
import GraphQLLanguage
import Testing

@Suite struct SchemaCompilerTests {
    @Test func addsTheImplicitUUIDKey() throws {
        // given / when
        let model = try compileSchema(kitchenSchema)
        // then
        let chef = try #require(model.table("Chef"))
        #expect(chef.primaryKey == ["id"])
        #expect(chef.columns.first?.origin == .implicitKey)
        #expect(chef.columns.first?.defaultValue == .expression("uuidV4()"))
        #expect(chef.columns.map(\.name) == ["id", "name"])
    }

    @Test func keepsADeclaredIdAsTheKeyWithoutDefault() throws {
        let model = try compileSchema(kitchenSchema)
        let cook = try #require(model.table("Cook"))
        #expect(cook.primaryKey == ["id"])
        #expect(cook.column("id")?.type == .scalar(.string))
        #expect(cook.column("id")?.defaultValue == .expression("auth.uid"))
        #expect(cook.column("handle")?.maxLength == 40)
    }

    @Test func addsForeignKeyFieldsForReferences() throws {
        let model = try compileSchema(kitchenSchema)
        let recipe = try #require(model.table("Recipe"))
        let chefId = try #require(recipe.column("chefId"))
        #expect(chefId.sqlName == "chef_id")
        #expect(chefId.type == .scalar(.uuid))
        #expect(chefId.isNonNull)
        let reference = try #require(recipe.reference("chef"))
        #expect(reference.constraintName == "recipe_chef_id_fkey")
        #expect(reference.onDelete == .cascade)
        #expect(reference.targetFields == ["id"])
    }

    @Test func resolvesCompositeKeysMadeOfReferences() throws {
        let model = try compileSchema(kitchenSchema)
        let bookmark = try #require(model.table("Bookmark"))
        #expect(bookmark.primaryKey == ["recipeId", "cookId"])
        #expect(bookmark.column("cookId")?.type == .scalar(.string))
        #expect(bookmark.column("id") == nil)
        #expect(bookmark.joinReferences != nil)
    }

    @Test func optionalReferencesSetNull() throws {
        let model = try compileSchema("type A @table { x: Int }\ntype B @table { a: A }")
        let reference = try #require(model.table("B")?.reference("a"))
        #expect(reference.onDelete == .setNull)
        #expect(model.table("B")?.column("aId")?.isNonNull == false)
    }

    @Test func namesRelationsInBothDirections() throws {
        let model = try compileSchema(kitchenSchema)
        let names = { (table: String) in Set((model.relations[table] ?? []).map(\.name)) }
        #expect(names("Chef") == ["recipes_on_chef"])
        #expect(names("Recipe") == ["chef", "bookmarks_on_recipe", "cooks_via_Bookmark", "recipeNote_on_recipe"])
        #expect(names("Cook") == ["bookmarks_on_cook", "recipes_via_Bookmark"])
        let oneToOne = try #require(model.relations["Recipe"]?.first { $0.name == "recipeNote_on_recipe" })
        #expect(!oneToOne.isList)
    }

    @Test func honoursTableOverrides() throws {
        let model = try compileSchema(
            #"type Pin @table(name: "MyPins", singular: "pin_item", plural: "pin_items", key: "slug") { slug: String! }"#
        )
        let pin = try #require(model.table("Pin"))
        #expect(pin.sqlName == "MyPins")
        #expect(pin.singular == "pin_item")
        #expect(pin.plural == "pin_items")
        #expect(pin.primaryKey == ["slug"])
    }

    @Test func namesUniqueConstraintsAndIndexes() throws {
        let model = try compileSchema(
            """
            type Movie @table @unique(fields: ["title", "year"]) @index(fields: ["year", "title"], order: [DESC, ASC]) {
              title: String!
              year: Int!
              slug: String! @unique
              genre: String @index
            }
            """)
        let movie = try #require(model.table("Movie"))
        #expect(movie.uniqueConstraints.map(\.name) == ["movie_slug_uidx", "movie_title_year_uidx"])
        #expect(movie.indexes.map(\.name) == ["movie_genre_idx", "movie_year_title_da_idx"])
        #expect(movie.indexes.last?.descending == [true, false])
    }

    @Test func keepsEnumsInDeclarationOrder() throws {
        let model = try compileSchema(
            "enum AspectRatio { ACADEMY WIDESCREEN ANAMORPHIC }\ntype Movie @table { ratio: AspectRatio @default(value: WIDESCREEN) }"
        )
        #expect(model.enumType("AspectRatio")?.values == ["ACADEMY", "WIDESCREEN", "ANAMORPHIC"])
        #expect(model.table("Movie")?.column("ratio")?.type == .enumeration("AspectRatio"))
    }

    @Test func reportsUnknownTypesWithASuggestion() {
        let errors = schemaErrors("type Movie @table {\n  title: Strin\n}")
        #expect(errors == [#"schema.gql:2:10: error: unknown type "Strin" (did you mean "String"?)"#])
    }

    @Test func rejectsListsOfTables() {
        let errors = schemaErrors("type A @table { x: Int }\ntype B @table { as: [A] }")
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasPrefix("schema.gql:2:21: error: field \"B.as\" cannot be a list of table \"A\"") == true)
    }

    @Test func rejectsWrongDefaultValues() {
        let errors = schemaErrors("type A @table { n: Int @default(value: \"x\") }")
        #expect(errors.first?.contains("invalid @default(value:) for \"A.n\"") == true)
    }

    @Test func rejectsKeyCycles() {
        let errors = schemaErrors(
            """
            type A @table(key: "b") { b: B! }
            type B @table(key: "a") { a: A! }
            """)
        #expect(errors.contains { $0.contains("refers to itself") })
    }
}
