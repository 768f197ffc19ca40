import GraphQLLanguage
import Testing

@testable import DataConnectSchema

@Suite struct ConnectorManifestTests {
    private let file = "Backend/x/connector/connector.yaml"

    private func parse(_ text: String) -> (manifest: ConnectorManifest?, messages: [String]) {
        let (manifest, diagnostics) = ConnectorManifest.parse(text, file: file)
        return (manifest, diagnostics.map(\.description))
    }

    @Test func readsSwiftSdkObjectWithEveryKey() throws {
        // given
        let text = """
            connectorId: movies
            authMode: PUBLIC
            generate:
              swiftSdk:
                outputDir: "../../../Apps"
                package: "FirebaseDataConnectGenerated"
                observablePublisher: "observableObject"
                clientCache:
                  maxAge: 1h30m
                  storage: memory
                  maxSize: 100MB
                coreSdkPackageLocation: "../../../Packages/DataConnect"
            """
        // when
        let (manifest, messages) = parse(text)
        // then
        #expect(messages == [])
        let loaded = try #require(manifest)
        #expect(loaded.connectorId == "movies")
        #expect(loaded.authMode == "PUBLIC")
        #expect(loaded.otherGenerators == [])
        let sdk = try #require(loaded.swiftSDKs.first)
        #expect(loaded.swiftSDKs.count == 1)
        #expect(sdk.outputDir == "../../../Apps")
        #expect(sdk.package == "FirebaseDataConnectGenerated")
        #expect(sdk.observablePublisher == .observableObject)
        #expect(sdk.coreSdkPackageLocation == "../../../Packages/DataConnect")
        #expect(sdk.location == SourceLocation(line: 5, column: 5))
        let cache = try #require(sdk.clientCache)
        #expect(cache.maxAge.text == "1h30m")
        #expect(cache.maxAge.seconds == 5400)
        #expect(cache.maxAge.duration == .seconds(5400))
        #expect(cache.storage == .memory)
        #expect(cache.maxSize == ConfigByteSize(text: "100MB", bytes: 104_857_600))
        #expect(loaded.emitsEntityIds)
    }

    @Test func readsSwiftSdkList() throws {
        // given
        let text = """
            connectorId: movies
            generate:
              swiftSdk:
                - outputDir: ../ios
                  package: MoviesKit
                - outputDir: ../mac
                  package: MoviesMacKit
                  observablePublisher: observableMacro
            """
        // when
        let (manifest, messages) = parse(text)
        // then
        #expect(messages == [])
        #expect(manifest?.swiftSDKs.map(\.package) == ["MoviesKit", "MoviesMacKit"])
        #expect(manifest?.swiftSDKs.map(\.outputDir) == ["../ios", "../mac"])
        #expect(
            manifest?.swiftSDKs.map(\.location) == [
                SourceLocation(line: 4, column: 7), SourceLocation(line: 6, column: 7),
            ])
    }

    @Test func appliesSwiftSdkDefaults() throws {
        // given
        let text = "connectorId: c\ngenerate:\n  swiftSdk:\n    outputDir: out\n    package: P\n"
        // when
        let sdk = try #require(parse(text).manifest?.swiftSDKs.first)
        // then
        #expect(sdk.observablePublisher == .observableMacro)
        #expect(sdk.clientCache == nil)
        #expect(sdk.coreSdkPackageLocation == nil)
    }

    @Test func emptyClientCacheMeansEnabledWithDefaults() throws {
        // given
        let text = "connectorId: c\ngenerate:\n  swiftSdk:\n    outputDir: o\n    package: P\n    clientCache: {}\n"
        // when
        let manifest = try #require(parse(text).manifest)
        // then
        #expect(manifest.swiftSDKs.first?.clientCache == ConnectorManifest.ClientCache())
        #expect(manifest.swiftSDKs.first?.clientCache?.maxAge == .zero)
        #expect(manifest.swiftSDKs.first?.clientCache?.storage == .persistent)
        #expect(manifest.swiftSDKs.first?.clientCache?.maxSize == nil)
        #expect(manifest.emitsEntityIds)
    }

    @Test func readsClientCacheMaxAgeZero() throws {
        // given an unquoted 0, which YAML reads as a number
        let text =
            "connectorId: c\ngenerate:\n  swiftSdk:\n    outputDir: o\n    package: P\n    clientCache: {maxAge: 0}\n"
        // when
        let cache = try #require(parse(text).manifest?.swiftSDKs.first?.clientCache)
        // then
        #expect(cache.maxAge.nanoseconds == 0)
        #expect(cache.maxAge.text == "0")
    }

    @Test func warnsThatOtherGeneratorsAreNotGenerated() {
        // given
        let text = """
            connectorId: c
            generate:
              javascriptSdk: {outputDir: ../web, package: "@movies/dataconnect"}
              kotlinSdk: {outputDir: ../android, package: com.example.movies}
              dartSdk: {outputDir: ../flutter, package: movies}
              rustSdk: {outputDir: ../rust}
            """
        // when
        let (manifest, messages) = parse(text)
        // then: one warning a key, naming it, and the manifest still loads
        #expect(manifest?.otherGenerators.map(\.name) == ["javascriptSdk", "kotlinSdk", "dartSdk", "rustSdk"])
        let prefix = "Backend/x/connector/connector.yaml"
        let fromTools = "dataconnect generates Swift only (swiftSdk); it comes from firebase-tools"
        #expect(
            messages == [
                "\(prefix):3:3: warning: \"generate.javascriptSdk\" (the JavaScript SDK) is not generated: \(fromTools) (`firebase dataconnect:sdk:generate`)",
                "\(prefix):4:3: warning: \"generate.kotlinSdk\" (the Kotlin (Android) SDK) is not generated: \(fromTools) (`firebase dataconnect:sdk:generate`)",
                "\(prefix):5:3: warning: \"generate.dartSdk\" (the Dart (Flutter) SDK) is not generated: \(fromTools) (`firebase dataconnect:sdk:generate`)",
                "\(prefix):6:3: warning: \"generate.rustSdk\" (an unknown generator) is not generated: dataconnect generates Swift only (swiftSdk); known generators: swiftSdk, javascriptSdk, kotlinSdk, dartSdk, adminNodeSdk, llmTools",
            ])
    }

    @Test func readsTheToolkitPin() throws {
        // given
        let text = """
            connectorId: c
            generate:
              swiftSdk:
                outputDir: o
                package: P
                coreSdkPackageURL: "file:///usr/local/share/dataconnect/DataConnect.git"
                coreSdkVersion: "0.3.0"
            """
        // when
        let (manifest, messages) = parse(text)
        // then
        #expect(messages == [])
        let sdk = try #require(manifest?.swiftSDKs.first)
        #expect(sdk.coreSdkPackageURL == "file:///usr/local/share/dataconnect/DataConnect.git")
        #expect(sdk.coreSdkVersion == "0.3.0")
        #expect(sdk.coreSdkPackageLocation == nil)
    }

    @Test func aPackageURLNeedsAVersion() {
        // given
        let text =
            "connectorId: c\ngenerate:\n  swiftSdk:\n    outputDir: o\n    package: P\n    coreSdkPackageURL: u\n"
        // when
        let (manifest, messages) = parse(text)
        // then
        #expect(manifest == nil)
        #expect(
            messages == [
                "Backend/x/connector/connector.yaml:4:5: error: \"coreSdkPackageURL\" and \"coreSdkVersion\" go together in \"generate.swiftSdk\": give both or neither"
            ])
    }

    @Test func keepsOtherGeneratorsRaw() throws {
        // given
        let text = """
            connectorId: c
            generate:
              javascriptSdk:
                outputDir: ../web
                package: "@movies/dataconnect"
              kotlinSdk:
                - outputDir: ../android
                  package: com.example.movies
              dartSdk: {outputDir: ../flutter, package: movies}
              adminNodeSdk: {outputDir: ../functions}
              llmTools: {outputFile: tools.json}
            """
        // when
        let (manifest, messages) = parse(text)
        // then: kept, each with a warning that it is not generated here
        #expect(messages.count == 5)
        #expect(messages.allSatisfy { $0.contains(": warning: ") && $0.contains("is not generated") })
        let generators = try #require(manifest?.otherGenerators)
        #expect(generators.map(\.name) == ["javascriptSdk", "kotlinSdk", "dartSdk", "adminNodeSdk", "llmTools"])
        #expect(generators.map(\.entries.count) == [1, 1, 1, 1, 1])
        #expect(generators[0].entries[0]["package"]?.scalar == "@movies/dataconnect")
        #expect(generators[1].entries[0]["package"]?.scalar == "com.example.movies")
        #expect(manifest?.swiftSDKs == [])
        #expect(manifest?.emitsEntityIds == false)
    }

    @Test func reportsMissingConnectorId() {
        // given
        let text = "# connector\ngenerate: {}\n"
        // when
        let (manifest, messages) = parse(text)
        // then
        #expect(manifest == nil)
        #expect(messages == ["Backend/x/connector/connector.yaml:2:1: error: missing required key \"connectorId\""])
    }

    @Test func reportsMissingSwiftSdkKeysInListEntries() {
        // given
        let text = "connectorId: c\ngenerate:\n  swiftSdk:\n    - package: A\n    - outputDir: b\n"
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "Backend/x/connector/connector.yaml:4:7: error: missing required key \"outputDir\" in \"generate.swiftSdk[0]\"",
                "Backend/x/connector/connector.yaml:5:7: error: missing required key \"package\" in \"generate.swiftSdk[1]\"",
            ])
    }

    @Test func reportsBadPublisherStorageDurationAndSize() {
        // given
        let text = """
            connectorId: c
            generate:
              swiftSdk:
                outputDir: o
                package: P
                observablePublisher: combine
                clientCache:
                  maxAge: 5 minutes
                  storage: disk
                  maxSize: 10 parsecs
            """
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "Backend/x/connector/connector.yaml:6:26: error: \"generate.swiftSdk.observablePublisher\" must be one of observableMacro, observableObject, got \"combine\"",
                "Backend/x/connector/connector.yaml:8:15: error: invalid duration \"5 minutes\" for \"generate.swiftSdk.clientCache.maxAge\": unknown unit \" minutes\" (use ms, s, m or h)",
                "Backend/x/connector/connector.yaml:9:16: error: \"generate.swiftSdk.clientCache.storage\" must be one of persistent, memory, got \"disk\"",
                "Backend/x/connector/connector.yaml:10:16: error: invalid size \"10 parsecs\" for \"generate.swiftSdk.clientCache.maxSize\": unknown unit \"parsecs\" (use B, KB, MB, GB or TB)",
            ])
    }

    @Test func warnsAboutUnknownKeysAtEveryLevel() {
        // given
        let text = """
            connectorId: c
            extra: 1
            generate:
              pythonSdk: {}
              swiftSdk:
                outputDir: o
                package: P
                style: fancy
                clientCache: {ttl: 5s}
            """
        // when
        let (manifest, messages) = parse(text)
        // then
        #expect(manifest != nil)
        #expect(
            messages == [
                "Backend/x/connector/connector.yaml:2:1: warning: unknown key \"extra\" in connector.yaml",
                "Backend/x/connector/connector.yaml:4:3: warning: \"generate.pythonSdk\" (an unknown generator) is not "
                    + "generated: dataconnect generates Swift only (swiftSdk); known generators: swiftSdk, javascriptSdk, "
                    + "kotlinSdk, dartSdk, adminNodeSdk, llmTools",
                "Backend/x/connector/connector.yaml:8:5: warning: unknown key \"style\" in \"generate.swiftSdk\"",
                "Backend/x/connector/connector.yaml:9:19: warning: unknown key \"ttl\" in \"generate.swiftSdk.clientCache\"",
            ])
    }

    @Test func reportsSwiftSdkOfTheWrongKind() {
        // given
        let text = "connectorId: c\ngenerate:\n  swiftSdk: ../ios\n"
        // when
        let messages = parse(text).messages
        // then
        #expect(
            messages == [
                "Backend/x/connector/connector.yaml:3:13: error: expected a mapping for \"generate.swiftSdk\", found a string"
            ])
    }
}
