import DataConnectTestSupport
import Foundation
import Testing

/// The error corpus: each case is a small backend that breaks one rule, run through `dataconnect
/// validate` as a process; stderr must hold the exact `file:line:col: error: message` line.
@Suite struct CorpusTests {
    @Test func corpusCoversEveryRule() {
        // given
        let errorCases = Corpus.errorCases
        let validCases = Corpus.validCases

        // then
        #expect(errorCases.count >= 45, "only \(errorCases.count) cases in \(Corpus.directory.path)")
        #expect(!validCases.isEmpty, "no .valid cases in \(Corpus.directory.path)")
        #expect(
            errorCases.contains {
                $0.expectedExitStatus == 0 && $0.expectedLines.contains { $0.contains(": warning: ") }
            })
        let names = Corpus.allCases.map(\.name)
        #expect(Set(names).count == names.count, "two cases share a name")
    }

    @Test(arguments: Corpus.errorCases)
    func reportsTheExpectedDiagnostics(_ corpusCase: CorpusCase) async throws {
        try await check(corpusCase)
    }

    @Test(arguments: Corpus.validCases)
    func validBackendValidates(_ corpusCase: CorpusCase) async throws {
        try await check(corpusCase)
    }

    /// The emulator refuses to start on what `validate` refuses, with the same `file:line:col: error:` lines: the
    /// schema, the operations' GraphQL, their CEL, what only compiling them finds, and the seed file. `generate`
    /// refuses the same backends (all but a bad seed file, which it does not read), writing nothing.
    @Test(arguments: Corpus.errorCases.filter { $0.expectedExitStatus == 1 })
    func emulatorRefusesToStartWithTheSameErrors(_ corpusCase: CorpusCase) async throws {
        // given
        let backend = try TemporaryDirectory(prefix: "dataconnect-corpus-\(corpusCase.name)")
        defer { backend.remove() }
        try corpusCase.write(to: backend.url)
        var emulatorArguments = ["emulator", "--backend", backend.path, "--port", "0", "--no-watch", "--no-console"]
        if corpusCase.files.contains(where: { $0.path == "seed_data.gql" }) {
            emulatorArguments += ["--seed", backend.path + "/seed_data.gql"]
        }

        // when
        let validated = try await ChildProcess.dataconnect(["validate", "--backend", backend.path])
        let generated = try await ChildProcess.dataconnect(["generate", "--backend", backend.path, "--check"])
        let emulator = try ChildProcess(BuiltExecutable.require("dataconnect"), emulatorArguments)
        let started = await emulator.wait { $0.isFinished || $0.standardOutput.contains("ready ") }
        if started?.isFinished != true { await emulator.stop() }
        let served = await emulator.waitForExit()

        // then
        func errors(_ result: ProcessResult) -> [String] {
            result.errorLines.filter { $0.contains(": error: ") }
        }
        #expect(validated.exitStatus == 1, "validate: \(validated.standardError)")
        #expect(
            served.exitStatus == 1,
            "the emulator started on a backend validate refuses: \(served.standardOutput)\n\(served.standardError)")
        #expect(!errors(validated).isEmpty, "validate printed no error line: \(validated.standardError)")
        #expect(
            errors(served) == errors(validated),
            "rule: \(corpusCase.rule)\nvalidate:\n\(validated.standardError)\nemulator:\n\(served.standardError)")
        let seedOnly = errors(validated).allSatisfy { $0.hasPrefix(backend.path + "/seed_data.gql:") }
        if !seedOnly {
            #expect(
                generated.exitStatus == 1, "generate accepted a backend validate refuses: \(generated.standardError)")
            #expect(
                errors(generated) == errors(validated),
                "rule: \(corpusCase.rule)\nvalidate:\n\(validated.standardError)\ngenerate:\n\(generated.standardError)"
            )
        }
    }

    /// Runs a case and compares the exit status and stderr with its expectations.
    private func check(_ corpusCase: CorpusCase) async throws {
        for problem in corpusCase.formatProblems {
            Issue.record("\(corpusCase.name): \(problem)")
        }
        // given
        let backend = try TemporaryDirectory(prefix: "dataconnect-corpus-\(corpusCase.name)")
        defer { backend.remove() }
        try corpusCase.write(to: backend.url)

        // when
        let result = try await ChildProcess.dataconnect(["validate", "--backend", backend.path])

        // then
        let problems = Self.mismatches(result, corpusCase, backend: backend.path)
        let report = problems.joined(separator: "\n") + "\nrule: \(corpusCase.rule)\nstderr:\n\(result.standardError)"
        if !problems.isEmpty {
            Issue.record(Comment(rawValue: report))
        }
    }

    /// How the process's result differs from the case's expectations, one line per difference.
    ///
    /// Besides the case's own expectations, no diagnostic may be printed twice.
    static func mismatches(_ result: ProcessResult, _ corpusCase: CorpusCase, backend: String) -> [String] {
        let lines = result.errorLines
        func absolute(_ line: String) -> String {
            "\(backend)/" + line.replacingOccurrences(of: "$DIR", with: backend)
        }
        var problems: [String] = []
        if result.exitStatus != corpusCase.expectedExitStatus {
            let status = result.exitStatus.map(String.init) ?? "a signal or a timeout"
            problems.append("exit status \(status), expected \(corpusCase.expectedExitStatus)")
        }
        for expected in corpusCase.expectedLines where !lines.contains(absolute(expected)) {
            problems.append("missing line: \(expected)")
        }
        for unexpected in corpusCase.unexpectedLines where lines.contains(absolute(unexpected)) {
            problems.append("unexpected line: \(unexpected)")
        }
        var seen: Set<String> = []
        for line in lines where !line.isEmpty && !seen.insert(line).inserted {
            problems.append("printed twice: \(line.replacingOccurrences(of: "\(backend)/", with: ""))")
        }
        if let count = corpusCase.expectedErrorCount {
            let errors = lines.filter { $0.contains(": error: ") }.count
            if errors != count { problems.append("\(errors) error line(s), expected \(count)") }
        }
        return problems
    }
}
