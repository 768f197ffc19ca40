import DataConnectTestSupport
import Foundation
import Testing

/// What the repository's `make` targets install, read from their dry runs (`make -n`): the demo only what it
/// needs, the tests the rest, and the Python test clients pinned in a virtual environment.
@Suite struct MakefileTests {
    /// Packages only the tests and benchmarks need.
    static let testOnlyPackages = ["chromium", "chromium-driver", "nodejs", "python3-selenium", "tmux", "wrk"]

    /// The commands `make -n TARGET` would run, from the repository root, as if the files in `changed` were new
    /// (`-W`), so that what is already up to date here is shown too.
    static func dryRun(_ target: String, changed: [String] = []) async throws -> String {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["make", "-n", "--no-print-directory"] + changed.flatMap { ["-W", $0] } + [target],
            workingDirectory: RepositoryPaths.root)
        try #require(result.exitStatus == 0, "make -n \(target): \(result.standardError)")
        return result.standardOutput
    }

    /// The Debian package names a dry run passes to the apt-install step.
    static func aptPackages(_ dryRun: String) -> Set<String> {
        var packages: Set<String> = []
        for line in dryRun.split(separator: "\n") where line.contains("apt-install PACKAGES=\"") {
            let list = line.split(separator: "\"").dropFirst().first ?? ""
            packages.formUnion(list.split(separator: " ").map(String.init))
        }
        return packages
    }

    @Test func theDemoInstallsNoTestTool() async throws {
        // when
        let packages = Self.aptPackages(try await Self.dryRun("demo"))

        // then
        #expect(packages.contains("libmicrohttpd-dev"))
        #expect(packages.isDisjoint(with: Self.testOnlyPackages), "\(packages.intersection(Self.testOnlyPackages))")
    }

    @Test func theTestsInstallTheBrowserAndThePythonClientsInAVirtualEnvironment() async throws {
        // when
        let bootstrap = try await Self.dryRun("bootstrap-test")
        let venv = try await Self.dryRun("venv", changed: ["Tests/python-requirements.txt"])
        let test = try await Self.dryRun("test")

        // then: the browser from Debian, selenium from the pinned requirements into .build/venv, before the tests
        let packages = Self.aptPackages(bootstrap)
        #expect(packages.isSuperset(of: ["chromium", "chromium-driver", "nodejs", "python3-venv"]))
        #expect(!packages.contains("python3-selenium"))
        #expect(bootstrap.contains("make --no-print-directory venv"))
        #expect(venv.contains("/usr/bin/python3 -m venv .build/venv"))
        #expect(venv.contains(".build/venv/bin/pip install") && venv.contains("-r Tests/python-requirements.txt"))
        #expect(test.hasPrefix("make --no-print-directory apt-install"), "\(test.prefix(200))")
    }

    @Test func thePythonTestClientsArePinned() throws {
        // given
        let text = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("Tests/python-requirements.txt"), encoding: .utf8)

        // then: every requirement names one version
        let requirements = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(requirements.contains { $0.hasPrefix("selenium==") })
        for requirement in requirements {
            #expect(requirement.split(separator: "=", omittingEmptySubsequences: true).count == 2, "\(requirement)")
            #expect(requirement.contains("=="), "\(requirement)")
        }
    }
}
