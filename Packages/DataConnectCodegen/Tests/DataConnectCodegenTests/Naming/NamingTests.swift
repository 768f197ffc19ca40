import DataConnectCodegen
import Testing

/// Connector, operation and property names (client-protocol.md §2.2).
@Suite struct NamingTests {
    @Test func connectorIdBecomesPascalCaseClassAndLowerCamelInstance() throws {
        // given / when
        let fixture = try generate(operations: "query listChefs { chefs { name } }")
        let client = try fixture.file("Sources/KitchenAppClient.swift")
        // then
        #expect(
            declaration("public class", in: client, headerOnly: true)
                == "public class KitchenAppConnector: @unchecked Sendable {")
        #expect(
            declaration("static let", in: client, headerOnly: true)
                == "static let kitchenAppConnector: KitchenAppConnector = {")
        #expect(
            fixture.files.map(\.path) == [
                "Package.swift", "README.md", "Sources/KitchenAppClient.swift", "Sources/KitchenAppKeys.swift",
                "Sources/KitchenAppOperations.swift",
            ])
    }

    @Test func connectorUseEmulatorTakesTheEmulatorDefaults() throws {
        let client = try generate(operations: "query listChefs { chefs { name } }").file(
            "Sources/KitchenAppClient.swift")
        #expect(
            client.contains(
                """
                    public func useEmulator(
                        host: String = DataConnect.EmulatorDefaults.host, port: Int = DataConnect.EmulatorDefaults.port
                    ) {
                        dataConnect.useEmulator(host: host, port: port)
                    }
                """))
    }

    @Test func defaultConnectorIsDefault() throws {
        let fixture = try generate(operations: "query listChefs { chefs { name } }", connectorId: "default")
        let client = try fixture.file("Sources/DefaultClient.swift")
        #expect(client.contains("static let defaultConnector: DefaultConnector = {"))
    }

    @Test func operationClassAndPropertyNames() throws {
        // given / when
        let fixture = try generate(
            operations: """
                query searchRecipes { recipes { title } }
                mutation DeleteChefs { chef_deleteMany(all: true) }
                """)
        let client = try fixture.file("Sources/KitchenAppClient.swift")
        let operations = try fixture.operations
        // then
        #expect(operations.contains("public class SearchRecipesQuery: @unchecked Sendable {"))
        #expect(operations.contains("public class DeleteChefsMutation: @unchecked Sendable {"))
        #expect(client.contains("public let searchRecipesQuery: SearchRecipesQuery"))
        #expect(client.contains("public let deleteChefsMutation: DeleteChefsMutation"))
        #expect(operations.contains("public static let OperationName = \"DeleteChefs\""))
    }

    @Test func suffixIsAppendedBlindly() throws {
        // given / when
        let fixture = try generate(
            operations: """
                mutation AddBookmarkMutation($recipe: UUID!, $cook: UUID!) {
                  bookmark_insert(data: {recipeId: $recipe, cookId: $cook})
                }
                query recipesQuery { recipes { title } }
                """)
        let client = try fixture.file("Sources/KitchenAppClient.swift")
        // then
        #expect(client.contains("public let addBookmarkMutationMutation: AddBookmarkMutationMutation"))
        #expect(client.contains("public let recipesQueryQuery: RecipesQueryQuery"))
    }

    @Test func connectorConfigComesFromDataConnectYAML() throws {
        let client = try generate(operations: "query listChefs { chefs { name } }").file("Client.swift")
        #expect(
            declaration("public static let connectorConfig", in: client) == """
                public static let connectorConfig = ConnectorConfig(
                    serviceId: "kitchen",
                    location: "us-east4",
                    connector: "kitchen-app"
                )
                """)
    }
}
