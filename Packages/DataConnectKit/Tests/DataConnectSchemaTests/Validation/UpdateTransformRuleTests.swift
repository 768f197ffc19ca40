import DataConnectSchema
import Testing

/// `_update` transforms read a stored value: only updates carry them.
@Suite struct UpdateTransformRuleTests {
    @Test func refusesATransformInAnInsert() {
        expectError(
            """
            mutation AddRecipe @auth(level: PUBLIC) {
              recipe_insert(data: { title: "Soup", chefId: "c1", year_update: [{ inc: 1 }] })
            }
            """, line: 2, column: 54,
            message:
                #""year_update" transforms a stored value and applies only to updates; "recipe_insert" writes a new row (set "year" instead)"#
        )
    }

    @Test func refusesATransformInOneRowOfAnUpsertMany() {
        expectError(
            """
            mutation AddRecipes @auth(level: PUBLIC) {
              recipe_upsertMany(data: [{ title: "A", chefId: "c1" }, { title: "B", chefId: "c1", tags_update: [{ append: ["x"] }] }])
            }
            """, line: 2, column: 86,
            message:
                #""tags_update" transforms a stored value and applies only to updates; "recipe_upsertMany" writes a new row (set "tags" instead)"#
        )
    }

    @Test func acceptsTransformsInUpdates() {
        expectValid(
            """
            mutation Bump($id: UUID!) @auth(level: PUBLIC) {
              recipe_update(id: $id, data: { year_update: [{ inc: 1 }], tags_update: [{ append: ["x"] }] })
              recipe_updateMany(all: true, data: { year_update: [{ dec: 1 }] })
            }
            """)
    }
}
