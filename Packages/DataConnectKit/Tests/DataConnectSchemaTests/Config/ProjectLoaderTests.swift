import Foundation
import GraphQLLanguage
import Testing

@testable import DataConnectSchema

/// A throwaway folder tree under the system temporary directory, removed by `remove()`.
private struct TemporaryTree {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.path + "/dataconnect-config-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func write(_ relativePath: String, _ text: String) throws {
        let path = root + "/" + relativePath
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func writeBytes(_ relativePath: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + relativePath))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}

@Suite struct ProjectLoaderTests {
    private let serviceYAML = """
        specVersion: "v1"
        serviceId: "movies"
        location: "us-central1"
        schema:
          source: "./schema"
        connectorDirs: ["./connector"]
        """

    private let connectorYAML = """
        connectorId: movies
        generate:
          swiftSdk:
            outputDir: ../out
            package: Generated
        """

    @Test func loadsConfigSchemaAndConnectorsSortedByPath() throws {
        // given
        let tree = try TemporaryTree()
        defer { tree.remove() }
        try tree.write("dataconnect.yaml", serviceYAML)
        try tree.write("schema/schema.gql", "type Movie @table { title: String! }\n")
        try tree.write("schema/more/actors.gql", "type Actor @table { name: String! }\n")
        try tree.write("schema/a.gql", "enum Kind { A }\n")
        try tree.write("schema/notes.txt", "not graphql")
        try tree.write("schema/.dataconnect/ignored.gql", "type Ignored @table { x: Int }\n")
        try tree.write("connector/connector.yaml", connectorYAML)
        try tree.write("connector/queries.gql", "query listMovies @auth(level: PUBLIC) { movies { id } }\n")
        try tree.write(
            "connector/mutations.gql", "mutation m @auth(level: PUBLIC) { movie_insert(data: {title: \"x\"}) }\n")
        // when
        let (project, diagnostics) = ProjectLoader.load(backendDirectory: tree.root)
        // then
        #expect(diagnostics == [])
        let loaded = try #require(project)
        #expect(loaded.directory == tree.root)
        #expect(loaded.configFile == tree.root + "/dataconnect.yaml")
        #expect(loaded.config.serviceId == "movies")
        #expect(
            loaded.schemaSources.map(\.name) == [
                tree.root + "/schema/a.gql", tree.root + "/schema/more/actors.gql", tree.root + "/schema/schema.gql",
            ])
        #expect(loaded.schemaSources.last?.text == "type Movie @table { title: String! }\n")
        #expect(loaded.connectors.count == 1)
        let connector = try #require(loaded.connectors.first)
        #expect(connector.manifest.connectorId == "movies")
        #expect(connector.directory == tree.root + "/connector")
        #expect(
            connector.files.map(\.name) == [
                tree.root + "/connector/mutations.gql", tree.root + "/connector/queries.gql",
            ])
    }

    @Test func reportsAMissingDirectory() {
        // given
        let path = FileManager.default.temporaryDirectory.path + "/no-such-backend-" + UUID().uuidString
        // when
        let (project, diagnostics) = ProjectLoader.load(backendDirectory: path)
        // then
        #expect(project == nil)
        #expect(diagnostics.map(\.description) == ["\(path): error: directory not found"])
    }

    @Test func reportsAMissingDataconnectYAMLByPath() throws {
        // given
        let tree = try TemporaryTree()
        defer { tree.remove() }
        // when
        let (project, diagnostics) = ProjectLoader.load(backendDirectory: tree.root)
        // then
        #expect(project == nil)
        #expect(diagnostics.map(\.description) == ["\(tree.root)/dataconnect.yaml: error: file not found"])
    }

    @Test func passesConfigErrorsThroughWithPlaces() throws {
        // given
        let tree = try TemporaryTree()
        defer { tree.remove() }
        try tree.write("dataconnect.yaml", "location: l\n")
        // when
        let (project, diagnostics) = ProjectLoader.load(backendDirectory: tree.root)
        // then
        #expect(project == nil)
        #expect(
            diagnostics.map(\.description) == [
                "\(tree.root)/dataconnect.yaml:1:1: error: missing required key \"serviceId\""
            ])
    }

    @Test func reportsMissingFoldersAndManifestsButKeepsTheProject() throws {
        // given a schema folder that does not exist, a connector without connector.yaml and a missing connector
        let tree = try TemporaryTree()
        defer { tree.remove() }
        try tree.write(
            "dataconnect.yaml",
            "serviceId: s\nlocation: l\nschema: {source: ./db}\nconnectorDirs: [./a, ./b, ./c]\n")
        try tree.write("a/queries.gql", "query q @auth(level: PUBLIC) { __typename }\n")
        try tree.write("c/connector.yaml", "connectorId: c\n")
        // when
        let (project, diagnostics) = ProjectLoader.load(backendDirectory: tree.root)
        // then
        #expect(project?.connectors.map(\.manifest.connectorId) == ["c"])
        #expect(project?.connectors.first?.files == [])
        #expect(
            diagnostics.map(\.description) == [
                "\(tree.root)/db: error: schema folder not found (schema.source in \(tree.root)/dataconnect.yaml)",
                "\(tree.root)/a/connector.yaml: error: file not found",
                "\(tree.root)/b: error: connector folder not found (connectorDirs in \(tree.root)/dataconnect.yaml)",
            ])
    }

    @Test func reportsDuplicateConnectorIdsAndEmptySchemaFolders() throws {
        // given
        let tree = try TemporaryTree()
        defer { tree.remove() }
        try tree.write("dataconnect.yaml", "serviceId: s\nlocation: l\nconnectorDirs: [one, two]\n")
        try tree.write("schema/README.md", "no schema yet")
        try tree.write("one/connector.yaml", "connectorId: same\n")
        try tree.write("two/connector.yaml", "connectorId: same\n")
        // when
        let (project, diagnostics) = ProjectLoader.load(backendDirectory: tree.root)
        // then
        #expect(project?.connectors.count == 1)
        #expect(
            diagnostics.map(\.description) == [
                "\(tree.root)/schema: warning: no .gql files in the schema folder",
                "\(tree.root)/two/connector.yaml: error: duplicate connectorId \"same\" (already used by another connector)",
            ])
    }

    @Test func reportsFilesThatAreNotUTF8() throws {
        // given
        let tree = try TemporaryTree()
        defer { tree.remove() }
        try tree.write("dataconnect.yaml", "serviceId: s\nlocation: l\n")
        try tree.write("schema/good.gql", "type A @table { x: Int }\n")
        try tree.writeBytes("schema/bad.gql", [0x74, 0xFF, 0xFE, 0x00])
        // when
        let (project, diagnostics) = ProjectLoader.load(backendDirectory: tree.root)
        // then
        #expect(project?.schemaSources.map(\.name) == [tree.root + "/schema/good.gql"])
        #expect(diagnostics.map(\.description) == ["\(tree.root)/schema/bad.gql: error: the file is not valid UTF-8"])
    }

    @Test func loadsFirebaseJSONFromDisk() throws {
        // given
        let tree = try TemporaryTree()
        defer { tree.remove() }
        try tree.write(
            "firebase.json",
            "{\n  \"dataconnect\": {\"source\": \"backend\"},\n  \"emulators\": {\"dataconnect\": {\"port\": \"x\"}}\n}\n"
        )
        try tree.write("ok.json", "{\"emulators\": {\"dataconnect\": {\"port\": 9500}}}")
        // when
        let bad = ProjectLoader.loadFirebaseJSON(path: tree.root + "/firebase.json")
        let good = ProjectLoader.loadFirebaseJSON(path: tree.root + "/ok.json")
        let missing = ProjectLoader.loadFirebaseJSON(path: tree.root + "/nope.json")
        // then
        #expect(bad.config == nil)
        #expect(
            bad.diagnostics.map(\.description) == [
                "\(tree.root)/firebase.json:3:41: error: expected an integer for \"emulators.dataconnect.port\", found \"x\""
            ])
        #expect(good.config?.emulator.port == 9500)
        #expect(good.diagnostics == [])
        #expect(missing.config == nil)
        #expect(missing.diagnostics.map(\.description) == ["\(tree.root)/nope.json: error: file not found"])
    }

    @Test(arguments: [
        ("Backend/movies", "./schema", "Backend/movies/schema"),
        ("Backend/movies", "schema/", "Backend/movies/schema"),
        ("Backend/movies/", "./connector/queries.gql", "Backend/movies/connector/queries.gql"),
        ("Backend/movies/connector", "../../../Apps", "Apps"),
        ("Backend/movies", "../../../x", "../x"),
        (".", "dataconnect.yaml", "dataconnect.yaml"),
        ("/srv/app", "./schema", "/srv/app/schema"),
        ("/srv/app", "/etc/schema", "/etc/schema"),
        ("/srv", "../../..", "/"),
        ("a", "..", "."),
    ])
    func joinsDisplayPaths(base: String, relative: String, expected: String) {
        // given / when / then
        #expect(ConfigPath.join(base, relative) == expected)
    }

    @Test func loadsTheMoviesBackend() throws {
        // given the repository's showcase backend, found from this file's path
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<6 { url.deleteLastPathComponent() }
        let backend = url.path + "/Backend/movies"
        try #require(FileManager.default.fileExists(atPath: backend + "/dataconnect.yaml"))
        // when
        let (project, diagnostics) = ProjectLoader.load(backendDirectory: backend)
        // then
        #expect(diagnostics == [])
        let loaded = try #require(project)
        #expect(loaded.config.serviceId == "movies")
        #expect(loaded.config.location == "us-central1")
        #expect(loaded.config.schema.postgresql?.database == "movies")
        #expect(loaded.schemaSources.map(\.name) == [backend + "/schema/schema.gql"])
        let connector = try #require(loaded.connectors.first)
        #expect(connector.manifest.connectorId == "movies")
        let sdk = try #require(connector.manifest.swiftSDKs.first)
        #expect(sdk.package == "FirebaseDataConnectGenerated")
        #expect(sdk.observablePublisher == .observableMacro)
        #expect(sdk.clientCache == .init(maxAge: try ConfigDuration.parse("30s").get(), storage: .memory))
        #expect(sdk.coreSdkPackageLocation == "../../../Packages/DataConnect")
        #expect(ConfigPath.join(connector.directory, sdk.outputDir) == url.path + "/Apps")
        #expect(connector.files.map { String($0.name.dropFirst(backend.count)) }.contains("/connector/queries.gql"))
    }
}
