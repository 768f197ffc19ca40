import DataConnectCodegen
import Testing

/// Enums with `_UNKNOWN` and `<Type>Key` structs (client-protocol.md §2.6, §2.7).
@Suite struct EnumAndKeyTests {
    @Test func userEnumHasUnknownCase() throws {
        let operations = try generate(operations: "query listChefs { chefs { name } }").operations
        #expect(
            declaration("public enum Cuisine", in: operations) == """
                public enum Cuisine: RawRepresentable, Codable, Sendable, Hashable {
                    case ITALIAN
                    case JAPANESE
                    case _UNKNOWN(String)

                    public init(rawValue: String) {
                        switch rawValue {
                        case "ITALIAN": self = .ITALIAN
                        case "JAPANESE": self = .JAPANESE
                        default: self = ._UNKNOWN(rawValue)
                        }
                    }

                    public var rawValue: String {
                        switch self {
                        case .ITALIAN: "ITALIAN"
                        case .JAPANESE: "JAPANESE"
                        case ._UNKNOWN(let value): value
                        }
                    }

                    public init(from decoder: any Decoder) throws {
                        let container = try decoder.singleValueContainer()
                        self.init(rawValue: try container.decode(String.self))
                    }

                    public func encode(to encoder: any Encoder) throws {
                        var container = encoder.singleValueContainer()
                        try container.encode(rawValue)
                    }
                }
                """)
    }

    @Test func enumSectionsAreMarked() throws {
        let operations = try generate(operations: "query listChefs { chefs { name } }").operations
        let marks = operations.split(separator: "\n").filter { $0.hasPrefix("// MARK") || $0.hasPrefix("// End") }
        #expect(marks == ["// MARK: Common Enums", "// MARK: Connector Enums", "// End enum definitions"])
        #expect(
            declaration("public enum OrderDirection", in: operations) == """
                public enum OrderDirection: String, Codable, Sendable {
                    case ASC
                    case DESC
                }
                """)
    }

    @Test func aViewHasNoKeyStructAndItsRowsDecodeLikeATables() throws {
        // given
        let schema =
            kitchenSchema + #"type ChefStat @view(sql: "SELECT count(*) AS dishes FROM recipe") { dishes: Int }"#

        // when
        let fixture = try generate(schema: schema, operations: "query stats { chefStats { dishes } }")
        let keys = try fixture.file("Sources/KitchenAppKeys.swift")

        // then
        #expect(!keys.contains("ChefStatKey"))
        #expect(keys.contains("public struct ChefKey"))
        #expect(try fixture.operations.contains("public var dishes: Int?"))
    }

    @Test func aCustomResolverEnumInAResultIsGenerated() throws {
        // given: a resolver schema whose field returns an object with an enum
        let config = """
            serviceId: kitchen
            location: us-east4
            schemas:
              - id: main
                source: ./schema
              - id: forecasts
                source: ./forecasts
                datasource:
                  httpGraphql:
                    uri: http://127.0.0.1:9/graphql
            connectorDirs: ["./connector"]
            """
        let forecasts = """
            enum Sky { CLEAR CLOUDY }
            type Forecast { city: String!, sky: Sky }
            type Query { forecast(city: String!): Forecast }
            """

        // when
        let operations = try generate(
            operations: "query weather($city: String!) { forecast(city: $city) { city sky } }", config: config,
            extraFiles: ["forecasts/schema.gql": forecasts]
        ).operations

        // then
        #expect(declaration("public enum Sky", in: operations, headerOnly: true) != nil, "\(operations)")
        #expect(operations.contains("public var sky: Sky?"))
    }

    @Test func compositeKeyStructKeepsForeignKeyNames() throws {
        let keys = try generate(operations: "query listChefs { chefs { name } }").file("Sources/KitchenAppKeys.swift")
        #expect(
            declaration("public struct BookmarkKey", in: keys) == """
                public struct BookmarkKey {
                    public private(set) var recipeId: UUID
                    public private(set) var cookId: UUID

                    public init(recipeId: UUID, cookId: UUID) {
                        self.recipeId = recipeId
                        self.cookId = cookId
                    }

                    enum CodingKeys: String, CodingKey {
                        case recipeId
                        case cookId
                    }
                }
                """)
        #expect(
            declaration("extension BookmarkKey: Codable", in: keys) == """
                extension BookmarkKey: Codable {
                    public init(from decoder: any Decoder) throws {
                        var container = try decoder.container(keyedBy: CodingKeys.self)
                        let codecHelper = CodecHelper<CodingKeys>()
                        self.recipeId = try codecHelper.decode(UUID.self, forKey: .recipeId, container: &container)
                        self.cookId = try codecHelper.decode(UUID.self, forKey: .cookId, container: &container)
                    }

                    public func encode(to encoder: any Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        let codecHelper = CodecHelper<CodingKeys>()
                        try codecHelper.encode(recipeId, forKey: .recipeId, container: &container)
                        try codecHelper.encode(cookId, forKey: .cookId, container: &container)
                    }
                }
                """)
        for conformance in ["Equatable", "Hashable", "Sendable"] {
            #expect(keys.contains("extension BookmarkKey: \(conformance) {}\n"))
        }
    }

    @Test func oneKeyStructPerTable() throws {
        let keys = try generate(operations: "query listChefs { chefs { name } }").file("Sources/KitchenAppKeys.swift")
        let structs = keys.split(separator: "\n").filter { $0.hasPrefix("public struct") }
        #expect(structs == ["public struct ChefKey {", "public struct RecipeKey {", "public struct BookmarkKey {"])
        #expect(keys.contains("import FirebaseCore\nimport FirebaseDataConnect\n"))
    }
}
