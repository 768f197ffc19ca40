import DataConnectSchema
import GraphQLLanguage
import Testing

/// Custom resolver schemas compiled and merged into the generated API.
@Suite struct CustomResolverAPITests {
    static let endpoint = ServiceConfig.HTTPGraphQL(uri: "http://127.0.0.1:5001/graphql")

    static let resolverSDL = """
        type Query {
          greeting(name: String!): String
          weather(city: String!): Weather
        }
        type Mutation {
          rate(recipeId: UUID!, stars: Int!): Int
        }
        type Weather {
          city: String!
          tempC: Float
          sky: Sky
        }
        enum Sky { CLEAR CLOUDY }
        """

    static func compileRemote(
        _ text: String, id: String = "resolvers", file: String = "resolvers/schema.gql"
    ) -> (RemoteSchema?, [String]) {
        let (schema, diagnostics) = RemoteSchemaCompiler.compile(
            id: id, endpoint: endpoint, sources: [Source(name: file, text: text)])
        return (schema, diagnostics.map(\.description))
    }

    static func mergedAPI() throws -> GeneratedAPI {
        let model = try compileSchema(kitchenSchema)
        let remote = try #require(compileRemote(resolverSDL).0)
        let (api, diagnostics) = GeneratedAPI.merging(model: model, remoteSchemas: [remote])
        #expect(diagnostics.isEmpty)
        return api
    }

    @Test func rootFieldsGetTheRemoteRoleAndTypesJoinTheAPI() throws {
        // when the resolver schema is merged
        let api = try Self.mergedAPI()

        // then its root fields have the remote role, next to the generated ones, and its types are known
        #expect(api.role(of: "greeting", on: "Query") == .remote(schema: "resolvers"))
        #expect(api.role(of: "rate", on: "Mutation") == .remote(schema: "resolvers"))
        #expect(api.role(of: "recipes", on: "Query") == .list(table: "Recipe"))
        #expect(api.typeSystem.field("tempC", on: "Weather") != nil)
        #expect(api.typeSystem.type(named: "Sky") != nil)
        #expect(api.remoteSchema(id: "resolvers")?.uri == "http://127.0.0.1:5001/graphql")
    }

    @Test func operationsValidateAgainstRemoteFields() throws {
        // given the merged API
        let api = try Self.mergedAPI()

        // when an operation mixes SQL and remote fields, and another selects an unknown remote field
        let valid = OperationValidator.validate(
            [
                Source(
                    name: "ops.gql",
                    text: """
                        query Mixed($city: String!) @auth(level: PUBLIC) {
                          recipes { title }
                          weather(city: $city) { city tempC sky }
                        }
                        """)
            ], api: api)
        let invalid = OperationValidator.validate(
            [Source(name: "ops.gql", text: "query Bad @auth(level: PUBLIC) {\n  weather(city: \"x\") { wind }\n}")],
            api: api)

        // then the first is valid and the second names the field and its place
        #expect(valid.diagnostics.filter { $0.severity == .error }.isEmpty, "\(valid.diagnostics)")
        let messages = invalid.diagnostics.map(\.description)
        #expect(
            messages.contains("ops.gql:2:24: error: cannot query field \"wind\" on type \"Weather\""), "\(messages)")
    }

    @Test func clashesWithTheGeneratedAPIAndOtherSchemasAreErrorsWithLocations() throws {
        // given a resolver schema reusing generated names, and a second one reusing the first's
        let model = try compileSchema(kitchenSchema)
        let first = try #require(Self.compileRemote(Self.resolverSDL).0)
        let clashing = try #require(
            Self.compileRemote(
                """
                type Query {
                  recipes: Int
                  greeting: String
                }
                type Recipe {
                  title: String
                }
                """, id: "other", file: "other/schema.gql"
            ).0)

        // when merged
        let (api, diagnostics) = GeneratedAPI.merging(model: model, remoteSchemas: [first, clashing])

        // then each clash is reported where it is written, and the clashing definitions are left out
        #expect(
            diagnostics.map(\.description) == [
                "other/schema.gql:5:6: error: type \"Recipe\" of schema \"other\" clashes with the main schema's generated API",
                "other/schema.gql:2:3: error: Query field \"recipes\" of schema \"other\" clashes with the generated API",
                "other/schema.gql:3:3: error: Query field \"greeting\" of schema \"other\" clashes with schema \"resolvers\"",
            ])
        #expect(api.role(of: "greeting", on: "Query") == .remote(schema: "resolvers"))
        #expect(api.role(of: "recipes", on: "Query") == .list(table: "Recipe"))
    }

    @Test func reportsWhatASecondarySchemaMayNotDeclare() {
        // given a scalar, an interface, a directive and an unknown type
        let (schema, messages) = Self.compileRemote(
            """
            scalar JSON
            interface Node { id: ID! }
            type Query {
              lookup(id: ID!): Thing
            }
            type Box @key(fields: "id") { id: ID! }
            """)

        // then every one is an error at its place
        #expect(schema == nil)
        #expect(
            messages == [
                "resolvers/schema.gql:1:1: error: custom scalars are not supported in a custom resolver schema; use Any for free-form values",
                "resolvers/schema.gql:2:1: error: interfaces and unions are not supported in a custom resolver schema",
                "resolvers/schema.gql:6:10: error: directives are not allowed in a custom resolver schema",
                "resolvers/schema.gql:4:3: error: unknown type \"Thing\"; a custom resolver schema may name its own types and the built-in scalars",
            ])
    }

    @Test func aSchemaWithoutRootFieldsIsAnError() {
        // when a secondary schema declares only an object type
        let (schema, messages) = Self.compileRemote("type Weather { city: String }")

        // then
        #expect(schema == nil)
        #expect(
            messages == [
                "resolvers/schema.gql: error: the custom resolver schema \"resolvers\" declares no Query or Mutation fields"
            ])
    }
}
