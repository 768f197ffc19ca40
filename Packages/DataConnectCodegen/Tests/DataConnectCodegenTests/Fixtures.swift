import DataConnectCodegen
import DataConnectSchema
import Foundation
import GraphQLLanguage
import Testing

/// The schema most snippet tests share.
let kitchenSchema = """
    enum Cuisine {
      ITALIAN
      JAPANESE
    }

    type Chef @table {
      name: String!
      born: Date
    }

    type Recipe @table {
      title: String!
      minutes: Int
      rating: Float
      vegan: Boolean!
      cuisine: Cuisine
      views: Int64
      published: Timestamp
      extra: Any
      chef: Chef
    }

    type Bookmark @table(key: ["recipe", "cook"]) {
      recipe: Recipe!
      cook: Chef!
      note: String
    }
    """

/// A backend written to a temporary folder, compiled, and generated.
struct GeneratedFixture {
    let files: [GeneratedFile]

    /// The text of the file whose path ends with `suffix`.
    func file(_ suffix: String) throws -> String {
        try #require(files.first { $0.path.hasSuffix(suffix) }).contents
    }

    /// `Operations.swift`.
    var operations: String { get throws { try file("Operations.swift") } }
}

/// Writes a backend with one connector, compiles it and runs ``SwiftGenerator``.
func generate(
    schema: String = kitchenSchema, operations: String, connectorId: String = "kitchen-app",
    swiftSdk: String = "outputDir: ../gen\n    package: KitchenSDK", config: String? = nil,
    extraFiles: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> GeneratedFixture {
    let (service, connector) = try compile(
        schema: schema, operations: operations, connectorId: connectorId, swiftSdk: swiftSdk, config: config,
        extraFiles: extraFiles, sourceLocation: sourceLocation)
    let sdk = try #require(connector.sources.manifest.swiftSDKs.first, sourceLocation: sourceLocation)
    let files = try SwiftGenerator.generate(service: service, connector: connector, options: .init(sdk: sdk))
    return GeneratedFixture(files: files)
}

/// Writes a backend with one connector and compiles it, expecting no errors.
func compile(
    schema: String = kitchenSchema, operations: String, connectorId: String = "kitchen-app",
    swiftSdk: String = "outputDir: ../gen\n    package: KitchenSDK", config: String? = nil,
    extraFiles: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> (CompiledService, CompiledConnector) {
    let (service, connector, diagnostics) = try compileAllowingErrors(
        schema: schema, operations: operations, connectorId: connectorId, swiftSdk: swiftSdk, config: config,
        extraFiles: extraFiles, sourceLocation: sourceLocation)
    #expect(diagnostics.filter { $0.severity == .error }.map(\.description) == [], sourceLocation: sourceLocation)
    return (service, connector)
}

/// Writes a backend with one connector and compiles it; operation errors are returned, not reported.
func compileAllowingErrors(
    schema: String = kitchenSchema, operations: String, connectorId: String = "kitchen-app",
    swiftSdk: String = "outputDir: ../gen\n    package: KitchenSDK", config: String? = nil,
    extraFiles: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> (CompiledService, CompiledConnector, [Diagnostic]) {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("codegen-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var files = [
        "dataconnect.yaml": """
        serviceId: kitchen
        location: us-east4
        schema:
          source: ./schema
        connectorDirs: ["./connector"]
        """,
        "schema/schema.gql": schema,
        "connector/connector.yaml": """
        connectorId: \(connectorId)
        generate:
          swiftSdk:
            \(swiftSdk)
        """,
        "connector/operations.gql": operations,
    ]
    if let config { files["dataconnect.yaml"] = config }
    files.merge(extraFiles) { $1 }
    for (path, text) in files {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let (service, diagnostics) = ServiceCompiler.compile(backendDirectory: directory)
    let compiled = try #require(service, sourceLocation: sourceLocation)
    let connector = try #require(compiled.connectors.first, sourceLocation: sourceLocation)
    return (compiled, connector, diagnostics)
}

/// The declaration whose first line begins (after indentation) with `prefix`.
///
/// A first line ending in `{` or `(` runs through the closing line at the same indentation; the result is
/// dedented. With `headerOnly`, just the first line.
func declaration(_ prefix: String, in text: String, headerOnly: Bool = false) -> String? {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(where: { $0.drop { $0 == " " }.hasPrefix(prefix) }) else { return nil }
    let indent = String(lines[start].prefix { $0 == " " })
    let opensBlock = lines[start].hasSuffix("{") || lines[start].hasSuffix("(")
    guard !headerOnly, opensBlock else { return String(lines[start].dropFirst(indent.count)) }
    var end = start + 1
    while end < lines.count - 1, !(lines[end].hasPrefix(indent + "}") || lines[end].hasPrefix(indent + ")")) {
        end += 1
    }
    return lines[start...end].map { $0.hasPrefix(indent) ? String($0.dropFirst(indent.count)) : $0 }
        .joined(separator: "\n")
}
