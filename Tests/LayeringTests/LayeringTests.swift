import DataConnectTestSupport
import Foundation
import Testing

/// The documented layering holds on the packages' real manifests, and the check catches a break.
@Suite struct LayeringTests {
    /// The manifests of the workspace, read once by `swift package dump-package`.
    static let manifests = Task { try await PackageGraph.load(root: RepositoryPaths.root.path, dump: dumpPackage) }

    static func dumpPackage(_ path: String) async throws -> Data {
        let swift = try #require(Self.swiftExecutable(), "no `swift` on PATH")
        // A scratch folder of its own: the package under test holds its `.build` while its tests run.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(getpid())").path
        let result = try await ChildProcess.run(
            swift, ["package", "--scratch-path", scratch, "dump-package", "--package-path", path])
        guard result.exitStatus == 0 else {
            throw PackageGraph.Failure(description: "dump-package \(path): \(result.standardError)")
        }
        return Data(result.standardOutput.utf8)
    }

    static func swiftExecutable() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swift") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func graph() async throws -> PackageGraph {
        try PackageGraph(manifests: try await manifests.value)
    }

    @Test func theWorkspaceKeepsItsLayering() async throws {
        let violations = try await Self.graph().violations(of: ProjectLayering.rules)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test func theEngineReachingADriverThroughAnotherModuleBreaksTheLayering() async throws {
        // given: the kit's time module re-exporting SQLiteKit (as `@_exported import` would need)
        var graph = try await Self.graph()
        let engine = TargetID(package: "DataConnectEmulator", target: "DataConnectEngine")
        let time = TargetID(package: "DataConnectKit", target: "DataConnectTime")
        let sqlite = TargetID(package: "DataConnectKit", target: "SQLiteKit")
        try #require(graph.path(from: engine, to: time) != nil)
        graph.addEdge(from: time, to: sqlite)

        // when
        let violations = graph.violations(of: ProjectLayering.rules)

        // then: the chain is named, and the driver's C library below it too
        let chains = violations.map { $0.path.map(\.description) }
        #expect(
            chains.contains([
                "DataConnectEmulator/DataConnectEngine", "DataConnectKit/DataConnectTime", "DataConnectKit/SQLiteKit",
            ]))
        #expect(violations.contains { $0.path.last == TargetID(package: "DataConnectKit", target: "CSQLite") })
    }

    @Test func aManifestListingADriverProductForTheEngineBreaksTheLayering() async throws {
        // given: the engine's manifest with `.product(name: "PostgreSQLKit", package: "DataConnectKit")` added
        var manifests = try await Self.manifests.value
        let key = try #require(manifests.first { $0.value.name == "DataConnectEmulator" }?.key)
        let index = try #require(manifests[key]?.targets.firstIndex { $0.name == "DataConnectEngine" })
        manifests[key]?.targets[index].dependencies.append(.product("PostgreSQLKit", package: "DataConnectKit"))

        // when
        let violations = try PackageGraph(manifests: manifests).violations(of: ProjectLayering.rules)

        // then
        #expect(violations.contains { $0.path.last == TargetID(package: "DataConnectKit", target: "CLibPQ") })
    }

    @Test func aRuleNamingATargetThatIsGoneFails() async throws {
        let rule = LayeringRule(
            subject: .target(TargetID(package: "DataConnectEmulator", target: "NoSuchTarget")),
            forbidden: .targets([]), reason: "renamed")
        #expect(try await Self.graph().violations(of: [rule]).count == 1)
    }

    /// docs/architecture.md's generated block is the graph of the manifests as they are.
    @Test func theArchitecturePageDrawsTheGraphOfTheManifests() async throws {
        let page = RepositoryPaths.root.appendingPathComponent("docs/architecture.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let begin =
            "<!-- generated from the manifests by Tests/LayeringTests; DATACONNECT_RECORD_GOLDEN=1 rewrites it -->\n"
        let end = "<!-- end of generated graph -->"
        let start = try #require(text.range(of: begin), "docs/architecture.md lacks the generated graph's markers")
        let stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        let expected = try await Self.graph().document() + "\n"
        let current = String(text[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["DATACONNECT_RECORD_GOLDEN"] == "1" {
            try (text[..<start.upperBound] + expected + text[stop.lowerBound...]).write(
                to: page, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            current == expected, "docs/architecture.md's graph is out of date; rerun with DATACONNECT_RECORD_GOLDEN=1")
    }
}
