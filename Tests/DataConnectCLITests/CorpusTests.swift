import Foundation
import Testing
import WorkspaceTestSupport

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
