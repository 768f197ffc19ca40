import DataConnectTestSupport
import Foundation
import Testing

/// `dataconnect init` run as a process: the created project validates, its generated SDK is fresh, its app
/// builds against this repository's core SDK and runs against `dataconnect emulator` with the seed data.
@Suite(.serialized) struct InitCommandTests {
    /// One template's expectations: what the app must print for the seeded rows and the inserted one.
    struct TemplateCase: Sendable, CustomTestStringConvertible {
        var template: String
        var package: String
        var app: String
        var files: [String]
        var seededLines: [String]
        var insertedLine: String
        var insertedRow: String
        var testDescription: String { template }
    }

    static let blank = TemplateCase(
        template: "blank", package: "ProjSDK", app: "ProjApp",
        files: ["dataconnect/schema/schema.gql", "dataconnect/connector/queries.gql"],
        seededLines: ["3 note(s):", "  - Welcome: ", "  - Shopping: Milk, eggs, coffee.", "  - Ideas"],
        insertedLine: "4 note(s):", insertedRow: "  - Hello from ProjApp: Added by the app.")
    static let movies = TemplateCase(
        template: "movies", package: "ProjSDK", app: "ProjApp",
        files: ["dataconnect/schema/schema.gql", "dataconnect/connector/mutations.gql"],
        seededLines: ["3 Sci-Fi movie(s):", "  - Arrival (2016) ****", "  - Star Wars (1977) *****"],
        insertedLine: "4 Sci-Fi movie(s):", insertedRow: "  - Dune (2021) ****")

    static let commonFiles = [
        "README.md", "Makefile", "firebase.json", "scripts/with-emulator.sh", "dataconnect/dataconnect.yaml",
        "dataconnect/connector/connector.yaml", "dataconnect/seed_data.gql", "App/Package.swift",
        "App/Sources/ProjApp/main.swift", "App/Tests/ProjAppTests/ProjAppTests.swift",
        "Generated/ProjSDK/Package.swift",
        "Generated/ProjSDK/Sources/ProjClient.swift", "Generated/ProjSDK/Sources/ProjOperations.swift",
    ]

    /// The hang guard of one `swift build` of an app (the first one compiles the core SDK too) on a busy machine.
    static let buildHangGuard: Duration = .seconds(1_800)

    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: - Creating projects

    @Test(arguments: [blank, movies])
    func createsAProjectThatValidatesAndIsGenerated(_ templateCase: TemplateCase) async throws {
        // given
        let scratch = try TemporaryDirectory(prefix: "dataconnect-init")
        defer { scratch.remove() }
        let project = scratch.path + "/proj"

        // when
        let created = try await ChildProcess.dataconnect(["init", "--template", templateCase.template, project])
        let validated = try await ChildProcess.dataconnect(["validate", "--backend", project + "/dataconnect"])
        let checked = try await ChildProcess.dataconnect(["generate", "--backend", project + "/dataconnect", "--check"])

        // then
        #expect(created.exitStatus == 0, "\(created.standardError)")
        #expect(created.standardOutput.contains("Created \(project) from the \"\(templateCase.template)\" template"))
        #expect(created.standardOutput.contains("make run"))
        #expect(created.standardOutput.contains("make test"))
        for file in Self.commonFiles + templateCase.files {
            #expect(FileManager.default.fileExists(atPath: project + "/" + file), "\(file)")
        }
        #expect(validated.exitStatus == 0, "\(validated.standardError)")
        #expect(validated.standardError.contains("valid:"))
        #expect(checked.exitStatus == 0, "\(checked.standardError)")
        #expect(checked.standardError.contains("Generated/ProjSDK: up to date"))

        let sdk = RepositoryPaths.root.appendingPathComponent("Packages/DataConnect").path
        let manifest = try #require(Self.contents(project + "/dataconnect/connector/connector.yaml"))
        // A `dataconnect` run from the clone's build folder uses the clone's sources (an installed one pins a
        // version: Tests/Install/install_test.sh).
        #expect(manifest.contains("coreSdkPackageLocation: \"\(sdk)\""))
        #expect(manifest.contains("make install"))
        let app = try #require(Self.contents(project + "/App/Package.swift"))
        let testing = RepositoryPaths.root.appendingPathComponent("Packages/DataConnectTesting").path
        #expect(app.contains(".package(path: \"\(sdk)\")"))
        #expect(app.contains(".package(path: \"\(testing)\")"))
        #expect(app.contains(".testTarget("))
        let service = try #require(Self.contents(project + "/dataconnect/dataconnect.yaml"))
        #expect(service.contains("serviceId: \"proj\""))
        let firebase = try #require(Self.contents(project + "/firebase.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(firebase.utf8)) as? [String: Any])
        #expect(((json["emulators"] as? [String: Any])?["dataconnect"] as? [String: Any])?["port"] as? Int == 9399)
        #expect((json["dataconnect"] as? [String: Any])?["source"] as? String == "dataconnect")
        let makefile = try #require(Self.contents(project + "/Makefile"))
        #expect(makefile.contains(try BuiltExecutable.require("dataconnect").resolvingSymlinksInPath().path))
        for target in ["generate:", "build:", "emulator:", "run:", "test:", "postgres:", "postgres-stop:", "upgrade:"] {
            #expect(makefile.contains("\n" + target), "\(target)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: project + "/scripts/with-emulator.sh"))
        for file in [
            project + "/README.md", project + "/Makefile", project + "/App/Package.swift",
            project + "/App/Tests/ProjAppTests/ProjAppTests.swift", project + "/dataconnect/connector/connector.yaml",
        ] {
            #expect(!(Self.contents(file) ?? "").contains("{{"), "a placeholder is left in \(file)")
        }
    }

    @Test func nameSetsTheServiceAndConnectorIds() async throws {
        // given
        let scratch = try TemporaryDirectory(prefix: "dataconnect-init")
        defer { scratch.remove() }
        let project = scratch.path + "/whatever"

        // when
        let created = try await ChildProcess.dataconnect(["init", "--name", "My Notes!", project])

        // then: the blank template, named from --name, sanitized
        #expect(created.exitStatus == 0, "\(created.standardError)")
        let service = try #require(Self.contents(project + "/dataconnect/dataconnect.yaml"))
        #expect(service.contains("serviceId: \"my-notes\""))
        let connector = try #require(Self.contents(project + "/dataconnect/connector/connector.yaml"))
        #expect(connector.contains("connectorId: \"my-notes\""))
        #expect(FileManager.default.fileExists(atPath: project + "/Generated/MyNotesSDK/Sources/MyNotesClient.swift"))
        let app = try #require(Self.contents(project + "/App/Sources/MyNotesApp/main.swift"))
        #expect(app.contains("DataConnect.myNotesConnector"))
        #expect(created.standardOutput.contains("DataConnect.myNotesConnector"))
    }

    @Test func refusesANonEmptyDirectory() async throws {
        // given
        let scratch = try TemporaryDirectory(prefix: "dataconnect-init")
        defer { scratch.remove() }
        try "keep me".write(toFile: scratch.path + "/notes.txt", atomically: true, encoding: .utf8)

        // when
        let result = try await ChildProcess.dataconnect(["init", "--template", "movies", scratch.path])

        // then
        #expect(result.exitStatus == 1)
        #expect(result.standardError.contains("dataconnect init: error: \(scratch.path) is not empty"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["notes.txt"])
    }

    @Test func aMissingCoreSDKIsAnError() async throws {
        // given
        let scratch = try TemporaryDirectory(prefix: "dataconnect-init")
        defer { scratch.remove() }
        let executable = try BuiltExecutable.require("dataconnect")

        // when
        let result = try await ChildProcess.run(
            executable, ["init", scratch.path + "/proj"],
            environment: Self.inherited(adding: ["DATACONNECT_SDK_PATH": scratch.path + "/no-sdk"]))

        // then
        #expect(result.exitStatus == 1)
        #expect(result.standardError.contains("no-sdk is not the core SDK package (no Package.swift)"))
    }

    @Test(arguments: [
        (["init", "--template", "nope", "proj"], "dataconnect: unknown template \"nope\"; templates: blank, movies"),
        (["init"], "dataconnect: init needs a directory"),
        (["init", "a", "b"], "dataconnect: init takes one directory, got \"b\" too"),
        (["init", "--bogus", "a"], "dataconnect: unknown option \"--bogus\" for init"),
    ])
    func badArgumentsAreUsageErrors(_ arguments: [String], message: String) async throws {
        // when
        let result = try await ChildProcess.dataconnect(arguments)

        // then
        #expect(result.exitStatus == 2)
        #expect(result.errorLines.first == message)
        #expect(result.standardError.contains("usage: dataconnect"))
    }

    @Test func helpDescribesInit() async throws {
        // when
        let general = try await ChildProcess.dataconnect(["help"])
        let topic = try await ChildProcess.dataconnect(["help", "init"])

        // then
        #expect(general.standardOutput.contains("  init "))
        #expect(topic.exitStatus == 0)
        #expect(topic.standardOutput.contains("usage: dataconnect init [--template blank|movies] [--name NAME] DIR"))
    }

    /// The test runner's environment with `extra` on top.
    static func inherited(adding extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
    }

    // MARK: - Building and running the apps

    /// Both templates' apps, built one after the other with a shared scratch path (so the core SDK compiles
    /// once) and run against an emulator serving the project's backend and seed data; then each project's own
    /// full-stack tests (`App/Tests`, the generated SDK against the in-process emulator) pass.
    ///
    /// The time limits are hang guards for two debug builds on a busy machine; the build time is printed, not judged.
    @Test(.timeLimit(.minutes(60))) func theAppsBuildAndRunAgainstTheEmulator() async throws {
        // given
        let scratch = try TemporaryDirectory(prefix: "dataconnect-init-apps")
        defer { scratch.remove() }
        let buildPath = scratch.path + "/build"

        for templateCase in [Self.blank, Self.movies] {
            let project = scratch.path + "/" + templateCase.template + "/proj"
            let created = try await ChildProcess.dataconnect(["init", "--template", templateCase.template, project])
            try #require(created.exitStatus == 0, "\(created.standardError)")

            // when: the app builds
            let start = ContinuousClock.now
            let build = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["swift", "build", "--package-path", project + "/App", "--scratch-path", buildPath],
                upTo: Self.buildHangGuard)
            let buildTime = ContinuousClock.now - start
            try #require(build.exitStatus == 0, "\(build.standardOutput)\n\(build.standardError)")
            print("InitCommandTests: \(templateCase.template) app built in \(buildTime)")

            // and runs against an emulator with the seed data
            let emulator = try await EmulatorProcess([
                "--backend", project + "/dataconnect", "--seed", project + "/dataconnect/seed_data.gql", "--no-watch",
            ])
            let host = String(emulator.url.dropFirst("http://".count))
            let run = try await ChildProcess.run(
                URL(fileURLWithPath: buildPath + "/debug/" + templateCase.app), [],
                environment: Self.inherited(adding: ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": host]))
            await emulator.stop()

            // then: the seeded rows, then the inserted one
            #expect(run.exitStatus == 0, "\(templateCase.template): \(run.standardOutput)\n\(run.standardError)")
            for line in templateCase.seededLines {
                #expect(run.standardOutput.contains(line), "\(templateCase.template): \(run.standardOutput)")
            }
            #expect(run.standardOutput.contains("added \""), "\(templateCase.template): \(run.standardOutput)")
            #expect(run.standardOutput.contains(templateCase.insertedLine), "\(run.standardOutput)")
            #expect(run.standardOutput.contains(templateCase.insertedRow), "\(run.standardOutput)")

            // and the project's own tests pass
            let tests = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["swift", "test", "--package-path", project + "/App", "--scratch-path", buildPath],
                upTo: Self.buildHangGuard)
            #expect(tests.exitStatus == 0, "\(templateCase.template): \(tests.standardOutput)\n\(tests.standardError)")
            let report = tests.standardOutput + tests.standardError
            #expect(report.contains("with 1 test in 1 suite passed"), "\(report)")
        }
    }
}
