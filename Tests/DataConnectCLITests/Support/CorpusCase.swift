import Foundation
import Testing

/// One backend of the corpus: a few files, and what `dataconnect validate` must print for them.
///
/// A case is a text file in `Corpus/`. Header lines come first, then each file of the backend after a
/// `--- <relative path>` line:
///
/// ```
/// # rule: a field's type must be a known type
/// # expect: schema/schema.gql:2:10: error: unknown type "Strin" (did you mean "String"?)
/// --- schema/schema.gql
/// type Movie @table {
///   title: Strin
/// }
/// ```
///
/// Header keys:
/// - `rule`: the rule the case exercises, in one line (required).
/// - `expect`: a line stderr must contain, without the backend directory prefix; repeatable.
/// - `unexpected`: a line stderr must not contain; repeatable.
/// - `expect-exit`: the exit status; 1 for `.case` files and 0 for `.valid` files by default.
/// - `errors`: how many `error:` lines stderr must hold.
///
/// `$DIR` in an expectation stands for the backend directory.
struct CorpusCase: Sendable, CustomTestStringConvertible {
    /// The file name without its extension, e.g. `schema-unknown-type`.
    var name: String
    /// The rule the case exercises.
    var rule: String
    /// Lines stderr must contain, relative to the backend directory.
    var expectedLines: [String]
    /// Lines stderr must not contain, relative to the backend directory.
    var unexpectedLines: [String]
    /// The expected exit status.
    var expectedExitStatus: Int32
    /// The exact number of `error:` lines, when the case says.
    var expectedErrorCount: Int?
    /// Why the library does not pass the case yet.
    /// The backend's files by relative path, in the order the case lists them.
    var files: [(path: String, text: String)]
    /// Problems with the case file itself (unknown header keys, no rule, ...).
    var formatProblems: [String]

    var testDescription: String { name }

    /// The `.gql` files of the case.
    var graphQLFiles: [(path: String, text: String)] {
        files.filter { $0.path.hasSuffix(".gql") }
    }

    /// The `.gql` files under `schema/`, the folder the default `dataconnect.yaml` names.
    var schemaFiles: [(path: String, text: String)] {
        graphQLFiles.filter { $0.path.hasPrefix("schema/") }
    }

    /// The `.gql` files outside `schema/`.
    var operationFiles: [(path: String, text: String)] {
        graphQLFiles.filter { !$0.path.hasPrefix("schema/") }
    }
}

extension CorpusCase {
    /// The `dataconnect.yaml` written when a case does not provide one.
    static let defaultServiceConfig = """
        specVersion: "v1"
        serviceId: "corpus"
        location: "us-central1"
        schema:
          source: "./schema"
          datasource:
            postgresql:
              database: "corpus"
        connectorDirs: ["./connector"]

        """

    /// The `connector/connector.yaml` written when a case does not provide one.
    static let defaultConnectorManifest = """
        connectorId: "corpus"

        """

    /// Parses a case file.
    ///
    /// - Parameters:
    ///   - text: The case file's text.
    ///   - name: The case's name.
    ///   - defaultExitStatus: The exit status when the header gives none.
    /// - Returns: The case; problems with its format are in ``formatProblems``.
    static func parse(_ text: String, name: String, defaultExitStatus: Int32) -> CorpusCase {
        var corpusCase = CorpusCase(
            name: name, rule: "", expectedLines: [], unexpectedLines: [], expectedExitStatus: defaultExitStatus,
            expectedErrorCount: nil, files: [], formatProblems: [])
        var currentPath: String?
        var currentLines: [Substring] = []

        func finishFile() {
            guard let path = currentPath else { return }
            while let last = currentLines.last, last.allSatisfy(\.isWhitespace) { currentLines.removeLast() }
            corpusCase.files.append((path, currentLines.joined(separator: "\n") + "\n"))
        }

        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("--- ") {
                finishFile()
                currentPath = line.dropFirst(4).trimmingCharacters(in: .whitespaces)
                currentLines = []
            } else if currentPath != nil {
                currentLines.append(line)
            } else {
                corpusCase.readHeaderLine(line)
            }
        }
        finishFile()

        if corpusCase.rule.isEmpty { corpusCase.formatProblems.append("the case has no \"# rule:\" line") }
        if corpusCase.files.isEmpty { corpusCase.formatProblems.append("the case has no \"--- path\" file") }
        if corpusCase.expectedExitStatus != 0 && corpusCase.expectedLines.isEmpty && corpusCase.unexpectedLines.isEmpty
        {
            corpusCase.formatProblems.append("an error case needs an \"# expect:\" or \"# unexpected:\" line")
        }
        return corpusCase
    }

    private mutating func readHeaderLine(_ line: Substring) {
        guard line.hasPrefix("#") else {
            if !line.allSatisfy(\.isWhitespace) {
                formatProblems.append("a header line must start with \"#\": \(line)")
            }
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let key = line[line.index(after: line.startIndex)..<colon].trimmingCharacters(in: .whitespaces)
        var value = line[line.index(after: colon)...]
        if value.hasPrefix(" ") { value = value.dropFirst() }
        switch key {
        case "rule": rule = String(value)
        case "expect": expectedLines.append(String(value))
        case "unexpected": unexpectedLines.append(String(value))
        case "expect-exit":
            if let status = Int32(value.trimmingCharacters(in: .whitespaces)) {
                expectedExitStatus = status
            } else {
                formatProblems.append("expect-exit is not a number: \(value)")
            }
        case "errors":
            if let count = Int(value.trimmingCharacters(in: .whitespaces)) {
                expectedErrorCount = count
            } else {
                formatProblems.append("errors is not a number: \(value)")
            }
        default:
            formatProblems.append("unknown header key \"\(key)\"")
        }
    }

    /// Writes the backend into `directory`, adding the default configuration files the case leaves out.
    ///
    /// - Throws: File-system errors.
    func write(to directory: URL) throws {
        var files = self.files
        if !files.contains(where: { $0.path == "dataconnect.yaml" }) {
            files.append(("dataconnect.yaml", Self.defaultServiceConfig))
        }
        if !files.contains(where: { $0.path == "connector/connector.yaml" }) {
            files.append(("connector/connector.yaml", Self.defaultConnectorManifest))
        }
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }
}

/// The corpus, read from `Corpus/` next to this test target's sources.
enum Corpus {
    /// The `Corpus` folder.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Corpus")

    /// Every `*.case` file: backends that must fail (or warn) with the expected diagnostics.
    static let errorCases: [CorpusCase] = load(extension: "case", defaultExitStatus: 1)

    /// Every `*.valid` file: backends that must validate.
    static let validCases: [CorpusCase] = load(extension: "valid", defaultExitStatus: 0)

    /// Every case of both kinds.
    static var allCases: [CorpusCase] { errorCases + validCases }

    private static func load(extension pathExtension: String, defaultExitStatus: Int32) -> [CorpusCase] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".\(pathExtension)") }.sorted().map { fileName in
            let url = directory.appendingPathComponent(fileName)
            let name = String(fileName.dropLast(pathExtension.count + 1))
            guard let data = FileManager.default.contents(atPath: url.path) else {
                return CorpusCase.parse("", name: name, defaultExitStatus: defaultExitStatus)
            }
            return CorpusCase.parse(
                String(decoding: data, as: UTF8.self), name: name, defaultExitStatus: defaultExitStatus)
        }
    }
}
