import GraphQLLanguage
import Testing

@testable import DataConnectSchema

@Suite struct FirebaseJSONConfigTests {
    private let file = "firebase.json"

    private func parse(_ text: String) -> (config: FirebaseJSONConfig?, messages: [String]) {
        let (config, diagnostics) = FirebaseJSONConfig.parse(text, file: file)
        return (config, diagnostics.map(\.description))
    }

    @Test func readsEveryKeyFromJSON() throws {
        // given
        let text = """
            {
              "hosting": {"public": "dist", "ignore": ["firebase.json"]},
              "dataconnect": {"source": "dataconnect"},
              "emulators": {
                "dataconnect": {
                  "host": "0.0.0.0",
                  "port": 9400,
                  "dataDir": "dataconnect/.dataconnect/pgliteData",
                  "postgresHost": "localhost",
                  "postgresPort": 5433
                },
                "auth": {"port": 9099},
                "ui": {"enabled": true}
              }
            }
            """
        // when
        let (config, messages) = parse(text)
        // then
        #expect(messages == [])
        let expected = FirebaseJSONConfig(
            dataconnectSources: ["dataconnect"],
            emulator: .init(
                host: "0.0.0.0", port: 9400, dataDir: "dataconnect/.dataconnect/pgliteData",
                postgresHost: "localhost", postgresPort: 5433),
            authEmulatorPort: 9099)
        #expect(config == expected)
    }

    @Test func appliesDefaults() throws {
        // given
        let text = "{\"dataconnect\": {\"source\": \"backend\"}}"
        // when
        let config = try #require(parse(text).config)
        // then
        #expect(config.dataconnectSources == ["backend"])
        #expect(config.emulator.port == 9399)
        #expect(config.emulator.host == "127.0.0.1")
        #expect(config.emulator.dataDir == nil)
        #expect(config.authEmulatorPort == nil)
    }

    @Test func readsTheArrayFormOfDataconnect() {
        // given
        let text = "{\"dataconnect\": [{\"source\": \"a\"}, {\"source\": \"b\", \"postdeploy\": \"echo\"}]}"
        // when
        let (config, messages) = parse(text)
        // then
        #expect(messages == [])
        #expect(config?.dataconnectSources == ["a", "b"])
    }

    @Test func emptyObjectHasNoSources() {
        // given / when
        let (config, messages) = parse("{}")
        // then
        #expect(messages == [])
        #expect(config == FirebaseJSONConfig())
    }

    @Test func reportsBadPortsWithLineAndColumn() {
        // given
        let text = """
            {
              "emulators": {
                "dataconnect": {"port": "ninety", "postgresPort": 70000, "hots": "x"},
                "auth": {"port": [9099]}
              }
            }
            """
        // when
        let (config, messages) = parse(text)
        // then
        #expect(config == nil)
        #expect(
            messages == [
                "firebase.json:3:62: warning: unknown key \"hots\" in \"emulators.dataconnect\"",
                "firebase.json:3:29: error: expected an integer for \"emulators.dataconnect.port\", found \"ninety\"",
                "firebase.json:3:55: error: \"emulators.dataconnect.postgresPort\" must be between 1 and 65535, got 70000",
                "firebase.json:4:22: error: expected an integer for \"emulators.auth.port\", found a list",
            ])
    }

    @Test func acceptsAQuotedPort() {
        // given / when
        let config = parse("{\"emulators\": {\"dataconnect\": {\"port\": \"9500\"}}}").config
        // then
        #expect(config?.emulator.port == 9500)
    }

    @Test func reportsMissingSourceInArrayEntries() {
        // given
        let text = "{\"dataconnect\": [{\"source\": \"a\"},\n {\"src\": \"b\"}]}"
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "firebase.json:2:3: warning: unknown key \"src\" in \"dataconnect[1]\"",
                "firebase.json:2:2: error: missing required key \"source\" in \"dataconnect[1]\"",
            ])
    }

    @Test func reportsMalformedJSON() {
        // given a trailing comma-free but unterminated object
        let (config, diagnostics) = FirebaseJSONConfig.parse("{\"dataconnect\": {\"source\": \"a\"}\n", file: file)
        // then
        #expect(config == nil)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.hasPrefix("yaml: ") == true)
        #expect(diagnostics.first?.location?.line == 2)
    }
}
