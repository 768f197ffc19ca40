import DataConnectSchema
import Foundation
import GraphQLLanguage
import Testing

/// The similarity and search root fields, `_metadata`, and the `@searchable` rules.
@Suite struct SearchFieldsTests {
    static let schema = """
        type Movie @table {
          title: String! @searchable
          description: String @searchable(language: "english")
          year: Int
          embedding: Vector @col(size: 4)
        }
        type Plain @table { name: String }
        """

    @Test func generatesSimilarityAndSearchFields() throws {
        // given
        let api = GeneratedAPI(model: try compileSchema(Self.schema))
        // when
        // The SDL without descriptions, one line per field.
        let sdl = api.sdl().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("\"") }.joined(separator: " ").replacingOccurrences(of: "( ", with: "(")
            .replacingOccurrences(of: " )", with: ")")
        // then
        #expect(
            sdl.contains(
                "movies_embedding_similarity(compare: Vector @fdc_oneOf(required: true) compare_embed: Vector_Embed @fdc_oneOf(required: true) method: VectorSimilarityMethod = INNER_PRODUCT within: Float where: Movie_Filter limit: Int = 100 offset: Int): [Movie!]!"
            ), "\(sdl)")
        #expect(
            sdl.contains(
                "movies_search(query: String queryFormat: Search_QueryFormat = QUERY relevanceThreshold: Float where: Movie_Filter orderBy: [Movie_Order!] offset: Int limit: Int = 100): [Movie!]!"
            ), "\(sdl)")
        #expect(!sdl.contains("plains_search"))
        #expect(
            api.role(of: "movies_embedding_similarity", on: "Query") == .similarity(table: "Movie", column: "embedding")
        )
        #expect(api.role(of: "movies_search", on: "Query") == .search(table: "Movie"))
        #expect(api.role(of: "_metadata", on: "Movie") == .metadata(table: "Movie"))
        let model = try compileSchema(Self.schema)
        #expect(model.table("Movie")?.search == TableSearch(fields: ["title", "description"], language: "english"))
    }

    @Test func searchableFieldsShareOneLanguage() {
        let errors = schemaErrors(
            """
            type Movie @table {
              title: String! @searchable
              description: String @searchable(language: "french")
            }
            """)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("schema.gql:3:45:") == true, "\(errors)")
        #expect(errors.first?.contains("must share one language") == true, "\(errors)")
    }

    @Test func searchableAppliesToStringFieldsInKnownLanguages() {
        #expect(schemaErrors("type A @table { n: Int @searchable }").first?.contains("only to String fields") == true)
        #expect(
            schemaErrors(#"type A @table { n: String @searchable(language: "klingon") }"#).first?.contains(
                "unknown @searchable(language:)") == true)
    }

    @Test func vectorIndexesWarnAboutPgvector() {
        let (_, diagnostics) = SchemaCompiler.compile([
            Source(name: "schema.gql", text: "type A @table { v: Vector @col(size: 3) @index }")
        ])
        #expect(diagnostics.contains { $0.severity == .warning && $0.message.contains("pgvector") }, "\(diagnostics)")
    }
}
