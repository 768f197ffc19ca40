import GraphQLLanguage
import Testing

@testable import DataConnectSchema

@Suite struct ServiceConfigTests {
    private let file = "Backend/x/dataconnect.yaml"

    private func parse(_ text: String) -> (config: ServiceConfig?, messages: [String]) {
        let (config, diagnostics) = ServiceConfig.parse(text, file: file)
        return (config, diagnostics.map(\.description))
    }

    @Test func readsEveryKey() throws {
        // given
        let text = """
            specVersion: "v1beta"
            serviceId: movies
            location: us-central1
            schema:
              source: ./schema
              datasource:
                postgresql:
                  database: "movies"
                  schema: films
                  cloudSql:
                    instanceId: "movies-fdc"
                    schemaValidation: COMPATIBLE
            connectorDirs: ["./connector", "./admin"]
            """
        // when
        let (config, messages) = parse(text)
        // then
        #expect(messages == [])
        let expected = ServiceConfig(
            specVersion: .v1beta, serviceId: "movies", location: "us-central1",
            schema: .init(
                source: "./schema",
                datasource: .postgresql(
                    .init(
                        database: "movies", schema: "films",
                        cloudSQL: .init(instanceId: "movies-fdc", schemaValidation: .compatible)))),
            connectorDirs: ["./connector", "./admin"])
        #expect(config == expected)
    }

    @Test func appliesDefaults() throws {
        // given only the required keys
        let text = "serviceId: movies\nlocation: us-central1\n"
        // when
        let config = try #require(parse(text).config)
        // then
        #expect(config.specVersion == .v1)
        #expect(config.schema.source == "./schema")
        #expect(config.schema.id == nil)
        #expect(config.schema.isMain)
        #expect(config.schema.postgresql == ServiceConfig.PostgreSQL(database: "postgres", schema: "public"))
        #expect(config.secondarySchemas == [])
        #expect(config.connectorDirs == [])
    }

    @Test func nullValuesCountAsAbsent() throws {
        // given optional keys written with no value
        let text = "specVersion:\nserviceId: movies\nlocation: here\nschema:\nconnectorDirs: ~\n"
        // when
        let (config, messages) = parse(text)
        // then
        #expect(messages == [])
        #expect(config?.specVersion == .v1)
        #expect(config?.schema.source == "./schema")
    }

    @Test func acceptsEverySpecVersion() {
        for version in ["v1", "v1beta", "v1alpha"] {
            // given / when
            let config = parse("specVersion: \(version)\nserviceId: s\nlocation: l\n").config
            // then
            #expect(config?.specVersion.rawValue == version)
        }
    }

    @Test func reportsMissingServiceIdWithLine() {
        // given a file whose mapping starts on line 3, after two comments
        let text = "# movies service\n# generated\nlocation: us-central1\n"
        // when
        let (config, messages) = parse(text)
        // then
        #expect(config == nil)
        #expect(messages == ["Backend/x/dataconnect.yaml:3:1: error: missing required key \"serviceId\""])
    }

    @Test func reportsEveryMissingRequiredKeyOfAnEmptyFile() {
        // given / when
        let (config, messages) = parse("")
        // then
        #expect(config == nil)
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:1:1: error: missing required key \"serviceId\"",
                "Backend/x/dataconnect.yaml:1:1: error: missing required key \"location\"",
            ])
    }

    @Test func reportsUnsupportedSpecVersionAtTheValue() {
        // given
        let text = "serviceId: s\nlocation: l\nspecVersion: \"v2\"\n"
        // when
        let (config, messages) = parse(text)
        // then
        #expect(config == nil)
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:3:14: error: \"specVersion\" must be one of v1, v1beta, v1alpha, got \"v2\""
            ])
    }

    @Test func reportsWrongKindWithKeyAndFoundKind() {
        // given
        let text = "serviceId:\n  name: movies\nlocation: l\n"
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == ["Backend/x/dataconnect.yaml:2:3: error: expected a string for \"serviceId\", found a mapping"])
    }

    @Test func reportsNullAndEmptyRequiredValues() {
        // given
        let text = "serviceId: ~\nlocation: \"\"\n"
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:1:12: error: expected a string for \"serviceId\", found null",
                "Backend/x/dataconnect.yaml:2:11: error: \"location\" must not be empty",
            ])
    }

    @Test func warnsAboutUnknownKeysButStillLoads() {
        // given
        let text = "serviceId: s\nfoo: 1\nlocation: l\nschema:\n  sauce: ./x\n"
        // when
        let (config, messages) = parse(text)
        // then
        #expect(config != nil)
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:2:1: warning: unknown key \"foo\" in dataconnect.yaml",
                "Backend/x/dataconnect.yaml:5:3: warning: unknown key \"sauce\" in \"schema\"",
            ])
    }

    @Test func reportsNestedTypeErrorsWithDottedPath() {
        // given
        let text = """
            serviceId: s
            location: l
            schema:
              source: [a]
              datasource:
                postgresql:
                  database: {}
                  cloudSql:
                    schemaValidation: LOOSE
            connectorDirs: ./connector
            """
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:10:16: error: expected a list of strings for \"connectorDirs\", found a string",
                "Backend/x/dataconnect.yaml:4:11: error: expected a string for \"schema.source\", found a list",
                "Backend/x/dataconnect.yaml:7:17: error: expected a string for \"schema.datasource.postgresql.database\", found a mapping",
                "Backend/x/dataconnect.yaml:9:27: error: \"schema.datasource.postgresql.cloudSql.schemaValidation\" must be one of STRICT, COMPATIBLE, got \"LOOSE\"",
            ])
    }

    @Test func reportsNonStringListElementsWithIndex() {
        // given
        let text = "serviceId: s\nlocation: l\nconnectorDirs:\n  - ./a\n  - {dir: b}\n"
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:5:5: error: expected a string for \"connectorDirs[1]\", found a mapping"
            ])
    }

    @Test func rejectsANonMappingDocument() {
        // given / when
        let messages = parse("- serviceId\n- location\n").messages
        // then
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:1:1: error: expected a mapping at the top level of dataconnect.yaml, found a list"
            ])
    }

    @Test func reportsYAMLSyntaxErrorsAsDiagnostics() {
        // given
        let text = "serviceId: s\nlocation: [l\n"
        // when
        let (config, diagnostics) = ServiceConfig.parse(text, file: file)
        // then
        #expect(config == nil)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.file == file)
        #expect(diagnostics.first?.message.hasPrefix("yaml: ") == true)
    }

    @Test func readsMultiSchemaForm() throws {
        // given
        let text = """
            serviceId: s
            location: l
            schemas:
              - id: main
                source: ./schema
                datasource:
                  postgresql:
                    database: app
              - id: weather
                source: ./weather
                datasource:
                  httpGraphql:
                    uri: "https://weather.example.com/graphql"
                    timeout: 10s
            """
        // when
        let (config, messages) = parse(text)
        // then
        #expect(messages == [])
        let loaded = try #require(config)
        #expect(loaded.schema == .init(id: "main", source: "./schema", datasource: .postgresql(.init(database: "app"))))
        #expect(loaded.secondarySchemas.count == 1)
        let weather = try #require(loaded.secondarySchemas.first)
        #expect(weather.id == "weather")
        #expect(weather.isMain == false)
        #expect(weather.source == "./weather")
        guard case .httpGraphQL(let http) = weather.datasource else {
            Issue.record("expected an httpGraphql datasource")
            return
        }
        #expect(http.uri == "https://weather.example.com/graphql")
        #expect(http.timeout?.seconds == 10)
    }

    @Test func refusesSecondarySchemasThatAreNotHTTPGraphQL() {
        // given a secondary schema without a datasource (PostgreSQL by default) and one with a bad uri
        let text = """
            serviceId: s
            location: l
            schemas:
              - id: main
                source: ./schema
              - id: extra
                source: ./extra
              - id: remote
                source: ./remote
                datasource: {httpGraphql: {uri: "ftp://x"}}
            """
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:6:5: error: schema \"extra\" must use an httpGraphql datasource (only the main schema is stored in PostgreSQL)",
                "Backend/x/dataconnect.yaml:10:37: error: \"schemas[2].datasource.httpGraphql.uri\" must be an http:// or https:// URL, found \"ftp://x\"",
            ])
    }

    @Test func multiSchemaMainMayHaveNoId() throws {
        // given
        let text = "serviceId: s\nlocation: l\nschemas:\n  - source: ./db\n"
        // when
        let config = try #require(parse(text).config)
        // then
        #expect(config.schema.id == nil)
        #expect(config.schema.source == "./db")
    }

    @Test func reportsMultiSchemaMistakes() {
        // given: both forms, no main schema, a duplicate id, a secondary schema without source
        let text = """
            serviceId: s
            location: l
            schema:
              source: ./a
            schemas:
              - id: other
                datasource: {httpGraphql: {uri: "http://x"}}
              - id: other
                source: ./b
            """
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:3:1: error: use either \"schema\" or \"schemas\", not both",
                "Backend/x/dataconnect.yaml:6:5: error: missing required key \"source\" in \"schemas[0]\"",
                "Backend/x/dataconnect.yaml:8:5: error: duplicate schema id \"other\" in \"schemas\"",
                "Backend/x/dataconnect.yaml:6:3: error: \"schemas\" has no main schema (an entry with id \"main\" or no id)",
            ])
    }

    @Test func reportsAmbiguousDatasource() {
        // given
        let text = """
            serviceId: s
            location: l
            schema:
              datasource:
                postgresql: {}
                httpGraphql: {uri: "http://x", timeout: soon}
            """
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "Backend/x/dataconnect.yaml:5:5: error: \"schema.datasource\" must have exactly one of \"postgresql\" and \"httpGraphql\"",
                "Backend/x/dataconnect.yaml:6:45: error: invalid duration \"soon\" for \"schema.datasource.httpGraphql.timeout\": expected a number with a unit, e.g. \"30s\" or \"1h30m\"",
            ])
    }

    // MARK: emulator:

    @Test(arguments: [
        ("vertex", EmbeddingsSetting.vertex), ("hashing", .hashing),
        (
            "http://127.0.0.1:11434/v1/embeddings",
            .http(url: "http://127.0.0.1:11434/v1/embeddings", models: [:], apiKeyVariable: nil)
        ),
    ])
    func readsTheEmbeddingsShortForms(value: String, expected: EmbeddingsSetting) throws {
        // given
        let text = "serviceId: s\nlocation: l\nemulator:\n  embeddings: \"\(value)\"\n"
        // when
        let (config, messages) = parse(text)
        // then
        #expect(messages == [])
        #expect(config?.emulator.embeddings == expected)
    }

    @Test func readsTheEmbeddingsMappingForm() throws {
        // given a URL with a model mapping and the variable holding its key
        let text = """
            serviceId: s
            location: l
            emulator:
              embeddings:
                url: https://models.example.test/v1/embeddings
                models:
                  textembedding-gecko@003: nomic-embed-text
                  text-embedding-004: all-minilm
                apiKeyEnv: EMBEDDINGS_KEY
            """
        // when
        let (config, messages) = parse(text)
        // then
        #expect(messages == [])
        #expect(
            config?.emulator.embeddings
                == .http(
                    url: "https://models.example.test/v1/embeddings",
                    models: ["textembedding-gecko@003": "nomic-embed-text", "text-embedding-004": "all-minilm"],
                    apiKeyVariable: "EMBEDDINGS_KEY"))
    }

    @Test func withoutTheSectionNoProviderIsSet() throws {
        let config = try #require(parse("serviceId: s\nlocation: l\n").config)
        #expect(config.emulator == ServiceConfig.EmulatorSettings())
        #expect(config.emulator.embeddings == nil)
    }

    @Test func reportsEmbeddingsMistakesWithTheirPlaces() {
        // given an unknown provider
        let shortForm = "serviceId: s\nlocation: l\nemulator:\n  embeddings: openai\n  port: 9\n"
        // and a mapping with a bad URL, a bad variable name, a model without a server name and an unknown key
        let mapping = """
            serviceId: s
            location: l
            emulator:
              embeddings:
                url: ftp://models
                models: {a: }
                apiKeyEnv: 1KEY
                token: secret
            """
        // when
        let shortMessages = parse(shortForm).messages
        let (config, mappingMessages) = parse(mapping)
        // then
        #expect(
            shortMessages == [
                "Backend/x/dataconnect.yaml:5:3: warning: unknown key \"port\" in \"emulator\"",
                "Backend/x/dataconnect.yaml:4:15: error: \"emulator.embeddings\" must be vertex, hashing, an http:// or https:// URL, or a mapping with \"url\", got \"openai\"",
            ])
        #expect(config == nil)
        #expect(
            mappingMessages == [
                "Backend/x/dataconnect.yaml:8:5: warning: unknown key \"token\" in \"emulator.embeddings\"",
                "Backend/x/dataconnect.yaml:5:10: error: \"emulator.embeddings.url\" must be an http:// or https:// URL, found \"ftp://models\"",
                "Backend/x/dataconnect.yaml:6:17: error: expected a string for \"emulator.embeddings.models.a\", found null",
                "Backend/x/dataconnect.yaml:7:16: error: \"emulator.embeddings.apiKeyEnv\" must name an environment variable (letters, digits and _), found \"1KEY\"",
            ])
    }

    @Test func aMappingWithoutAURLIsAnError() {
        let text = "serviceId: s\nlocation: l\nemulator:\n  embeddings:\n    models: {a: b}\n"
        #expect(
            parse(text).messages == [
                "Backend/x/dataconnect.yaml:5:5: error: missing required key \"url\" in \"emulator.embeddings\""
            ])
    }
}
