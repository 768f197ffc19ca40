import DataConnectCodegen
import DataConnectSchema
import Foundation
import Testing

/// Golden files: the generated packages checked into the repository must be exactly what the generator
/// produces now. A mismatch prints a unified diff; `make generate` brings the golden files up to date after
/// an intended change, and `git diff` then shows it for review.
@Suite struct GoldenTests {
    /// The repository root, found by walking up from this file.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.path
    }()

    @Test(arguments: [
        ("Backend/movies", ["Apps/FirebaseDataConnectGenerated"]),
        ("Tests/Backends/library", ["Tests/Generated/LibraryLending", "Tests/Generated/LibraryKiosk"]),
        ("Tests/Backends/search", ["Tests/Generated/SearchCatalog"]),
        ("Tests/Backends/ledger", ["Tests/Generated/LedgerBooks"]),
    ])
    func checkedInPackagesMatchTheGenerator(backend: String, packages: [String]) throws {
        // given
        let (compiled, diagnostics) = ServiceCompiler.compile(backendDirectory: Self.root + "/" + backend)
        let service = try #require(compiled, "\(diagnostics)")

        // when
        let (plans, failures) = PackagePlanner.plan(service: service)

        // then
        #expect(failures.isEmpty, "\(failures)")
        #expect(plans.map(\.directory) == packages.map { Self.root + "/" + $0 })
        for plan in plans {
            #expect(plan.files.map(\.path).count == 5)
            for (path, diff) in plan.differences() {
                Issue.record("\(plan.directory)/\(path) differs from the generator (run `make generate`):\n\(diff)")
            }
        }
    }

    @Test func coreSDKLocationIsRewrittenRelativeToTheGeneratedPackage() throws {
        // given: connector.yaml says ../../../Packages/DataConnect, relative to Backend/movies/connector
        let (compiled, _) = ServiceCompiler.compile(backendDirectory: Self.root + "/Backend/movies")
        let service = try #require(compiled)

        // when
        let plan = try #require(PackagePlanner.plan(service: service).packages.first)

        // then: Apps/FirebaseDataConnectGenerated reaches it as ../../Packages/DataConnect
        let manifest = try #require(plan.files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(".package(path: \"../../Packages/DataConnect\")"))
        #expect(manifest.contains(".product(name: \"FirebaseDataConnect\", package: \"DataConnect\")"))
    }
}

/// The diff printed for golden mismatches and `dataconnect generate --check`.
@Suite struct TextDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(TextDiff.unified(old: "a\nb\n", new: "a\nb\n", oldName: "a", newName: "b") == "")
    }

    @Test func aChangedLineShowsWithThreeLinesOfContext() {
        // given
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n")
        let new = old.replacingOccurrences(of: "line 5", with: "line five")

        // when
        let diff = TextDiff.unified(old: old, new: new, oldName: "a/f", newName: "b/f")

        // then
        #expect(
            diff == """
                --- a/f
                +++ b/f
                @@ -2,7 +2,7 @@
                 line 2
                 line 3
                 line 4
                -line 5
                +line five
                 line 6
                 line 7
                 line 8

                """)
    }

    @Test func distantChangesMakeSeparateHunks() {
        // given
        var lines = (1...20).map { "\($0)" }
        let old = lines.joined(separator: "\n")
        lines[1] = "two"
        lines.insert("extra", at: 19)
        let new = lines.joined(separator: "\n")

        // when
        let diff = TextDiff.unified(old: old, new: new, oldName: "a", newName: "b", context: 1)

        // then
        #expect(
            diff == """
                --- a
                +++ b
                @@ -1,3 +1,3 @@
                 1
                -2
                +two
                 3
                @@ -19,2 +19,3 @@
                 19
                +extra
                 20

                """)
    }
}
