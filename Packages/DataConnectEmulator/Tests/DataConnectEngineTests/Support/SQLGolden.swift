import EmulatorTesting
import Foundation
import Testing

/// The SQL an operation prepared, compared with a golden file per dialect.
///
/// The file of a test is `Golden/<database>/<Suite>/<test>.sql` beside this folder (`<test>.<variant>.sql` for a
/// test with several, such as each argument of a parameterized test): the statements in the order the engine
/// prepared them, each ended by `;` on its own line, under a `-- <label>` line per operation when a test compares
/// several. A difference is an issue holding the file's path and a unified diff of golden and actual lines.
///
/// With `DATACONNECT_RECORD_GOLDEN=1` in the environment the files are written instead; review the change with
/// `git diff` before committing. The variable only records: which databases a test runs on is its trait's.
///
/// The SQL is the engine's and deterministic (values are bound, never spliced), so no normalisation is needed.
enum SQLGolden {
    /// The environment variable that rewrites the golden files.
    static let recordVariable = "DATACONNECT_RECORD_GOLDEN"

    /// Whether this run rewrites the golden files.
    static var isRecording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }

    /// `Tests/DataConnectEngineTests/Golden`, found from this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden").path

    /// The text of a golden file: each operation's statements, under its label when there is one.
    static func text(_ sections: [(label: String?, sql: [String])]) -> String {
        sections.map { section in
            let statements = section.sql.map { $0 + ";\n" }.joined()
            return section.label.map { "-- \($0)\n" + statements } ?? statements
        }.joined(separator: "\n")
    }

    /// A file name part from free text (a filter, an argument): its letters and digits in lower case, other runs
    /// as one `-`, then four hex digits of a hash of the whole text, so that texts differing only in case or
    /// punctuation get different files on any file system.
    static func slug(_ text: String) -> String {
        var slug = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.isEmpty && slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.last == "-" { slug.removeLast() }
        // FNV-1a over the UTF-8 bytes, folded to 16 bits.
        var hash: UInt32 = 0x811c_9dc5
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let suffix = String((hash >> 16) ^ (hash & 0xffff), radix: 16)
        return (slug.isEmpty ? "" : slug + "-") + String(repeating: "0", count: 4 - suffix.count) + suffix
    }

    /// Compares `actual` with the running test's golden file, or writes it when recording.
    static func check(_ actual: String, variant: String?, sourceLocation: SourceLocation) {
        let path: String
        do {
            path = try self.path(variant: variant, sourceLocation: sourceLocation)
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
            return
        }
        let golden = try? String(contentsOfFile: path, encoding: .utf8)
        if isRecording {
            guard golden != actual else { return }
            do {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try actual.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                Issue.record(error, "cannot write golden file \(path)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let golden else {
            Issue.record(
                "no golden file \(path); run the test with \(recordVariable)=1 to write it",
                sourceLocation: sourceLocation)
            return
        }
        guard golden != actual else { return }
        let diff = LineDiff(old: golden, new: actual).unified(oldName: "golden", newName: "actual")
        Issue.record(
            """
            the SQL differs from the golden file \(path); if the change is intended, run the test with \
            \(recordVariable)=1 and review the file's diff
            \(diff)
            """,
            sourceLocation: sourceLocation)
    }

    /// `Golden/<database>/<Suite>/<test>[.<variant>].sql` for the running test.
    static func path(variant: String?, sourceLocation: SourceLocation) throws -> String {
        let database = try TestDatabase.required(sourceLocation: sourceLocation)
        guard let test = Test.current else { throw GoldenError("SQL goldens are compared inside a test") }
        let suite = test.id.nameComponents.dropLast().last ?? test.id.moduleName
        let function = test.name.prefix { $0 != "(" }
        let file = variant.map { "\(function).\($0)" } ?? String(function)
        return "\(root)/\(database.rawValue)/\(suite)/\(file).sql"
    }

    struct GoldenError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Compares the SQL one operation prepared with the running test's golden file (see ``SQLGolden``).
///
/// - Parameters:
///   - result: The operation's answer, with the statements it prepared.
///   - variant: Names the file among several of one test (each argument of a parameterized test).
func expectGoldenSQL(
    _ result: EngineResult, variant: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    SQLGolden.check(SQLGolden.text([(nil, result.sql)]), variant: variant, sourceLocation: sourceLocation)
}

/// Compares the SQL of several operations, each under its label, with the running test's golden file.
///
/// - Parameters:
///   - results: Each operation's label and answer, in the order the test ran them.
///   - variant: Names the file among several of one test (each argument of a parameterized test).
func expectGoldenSQL(
    _ results: KeyValuePairs<String, EngineResult>, variant: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    SQLGolden.check(
        SQLGolden.text(results.map { ($0.key, $0.value.sql) }), variant: variant, sourceLocation: sourceLocation)
}
