import DataConnectSchema
import GraphQLLanguage
import Testing

/// The reference's running example: every kind of key, reference and relation.
let kitchenSchema = """
    type Chef @table { name: String! }
    type Recipe @table { title: String!, year: Int, tags: [String], chef: Chef! }
    type Cook @table { id: String! @default(expr: "auth.uid"), handle: String! @col(dataType: "varchar(40)") }
    type Bookmark @table(key: ["recipe", "cook"]) { recipe: Recipe!, cook: Cook!, savedOn: Date! @default(expr: "request.time") }
    type RecipeNote @table { recipe: Recipe! @unique, calories: Int }
    """

/// Compiles schema text that must be valid.
func compileSchema(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> SchemaModel {
    let (model, diagnostics) = SchemaCompiler.compile([Source(name: "schema.gql", text: text)])
    let errors = diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "unexpected: \(errors)", sourceLocation: sourceLocation)
    return try #require(model, sourceLocation: sourceLocation)
}

/// The diagnostics of schema text that must be invalid.
func schemaErrors(_ text: String) -> [String] {
    let (_, diagnostics) = SchemaCompiler.compile([Source(name: "schema.gql", text: text)])
    return diagnostics.filter { $0.severity == .error }.map(\.description)
}

/// The generated API of the kitchen schema, built once.
let kitchenAPI: GeneratedAPI = {
    let (model, _) = SchemaCompiler.compile([Source(name: "schema.gql", text: kitchenSchema)])
    return GeneratedAPI(model: model!)
}()

/// Validates connector text against the kitchen API.
func validateOperations(_ text: String, api: GeneratedAPI = kitchenAPI) -> ValidatedConnector {
    OperationValidator.validate([Source(name: "ops.gql", text: text)], api: api)
}

/// Asserts that operations are valid (warnings allowed).
func expectValid(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let result = validateOperations(text)
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(
        errors.isEmpty, "unexpected errors:\n\(errors.map(\.description).joined(separator: "\n"))",
        sourceLocation: sourceLocation)
}

/// Asserts that operations produce exactly this error (among possibly others).
func expectError(
    _ text: String, line: Int, column: Int, message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let result = validateOperations(text)
    let expected = "ops.gql:\(line):\(column): error: \(message)"
    let all = result.diagnostics.map(\.description)
    #expect(
        all.contains(expected), "expected \(expected)\n got:\n\(all.joined(separator: "\n"))",
        sourceLocation: sourceLocation)
}
