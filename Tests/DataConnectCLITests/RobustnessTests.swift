import DataConnectSchema
import Foundation
import GraphQLLanguage
import Testing

/// Damaged input never crashes or hangs the front end: every corpus file, mutated at random with a
/// fixed seed, goes through the schema compiler and the operation validator in-process, and each call
/// returns (with errors, usually).
@Suite struct RobustnessTests {
    /// Mutated variants of each `.gql` file of each case.
    static let mutationsPerFile = 100

    /// The time limit is a hang guard for a debug build on a busy machine, not a speed target.
    @Test(.timeLimit(.minutes(10)))
    func mutatedCorpusFilesCompileWithoutCrashing() throws {
        // given
        let fallbackAPI = try #require(Self.runningExampleAPI, "the running-example case must compile")
        var inputs = 0
        var diagnostics = 0

        for corpusCase in Corpus.allCases {
            let schemaFiles = corpusCase.schemaFiles.map { Source(name: $0.path, text: $0.text) }
            let operationFiles = corpusCase.operationFiles.map { Source(name: $0.path, text: $0.text) }
            let api = SchemaCompiler.compile(schemaFiles).model.map { GeneratedAPI(model: $0) } ?? fallbackAPI
            let seed = SplitMix64.seed(corpusCase.name)
            var generator = SplitMix64(seed: seed)

            for file in corpusCase.graphQLFiles {
                for _ in 0..<Self.mutationsPerFile {
                    // when
                    let damaged = Source(name: file.path, text: TextMutator.mutate(file.text, using: &generator))
                    let schema = SchemaCompiler.compile(Self.replacing(damaged, in: schemaFiles))
                    let connector = OperationValidator.validate(Self.replacing(damaged, in: operationFiles), api: api)

                    // then
                    inputs += 1
                    diagnostics += schema.diagnostics.count + connector.diagnostics.count
                    #expect(
                        schema.model != nil || schema.diagnostics.containsErrors,
                        "no model and no error for \(corpusCase.name) (seed \(seed)):\n\(damaged.text)")
                }
            }
        }

        // then
        #expect(inputs >= 3_000, "only \(inputs) mutated inputs")
        #expect(diagnostics > inputs, "mutations should mostly produce diagnostics")
    }

    @Test func mutationsAreDeterministic() {
        // given
        let text = "type Movie @table { title: String! @col(name: \"t\") }"
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)

        // when
        let a = (0..<50).map { _ in TextMutator.mutate(text, using: &first) }
        let b = (0..<50).map { _ in TextMutator.mutate(text, using: &second) }

        // then
        #expect(a == b)
        #expect(Set(a).count > 40, "mutations should differ from one another")
    }

    @Test(arguments: [
        "", "{", "}", "\"", "\"\"\"", "#", "@", "$", "...", "type", "query", "fragment", "\u{0}", "\u{FEFF}",
        "type Movie @table {", "query Q { movies(where: {", "fragment F on", "query Q($", "\"\\u12", "1e",
        String(repeating: "{", count: 10_000), String(repeating: "[", count: 10_000),
    ])
    func pathologicalTextCompilesWithoutCrashing(_ text: String) throws {
        // given
        let api = try #require(Self.runningExampleAPI)
        let source = Source(name: "pathological.gql", text: text)

        // when
        let schema = SchemaCompiler.compile([source])
        let connector = OperationValidator.validate([source], api: api)

        // then
        #expect(schema.model != nil || schema.diagnostics.containsErrors)
        _ = connector.diagnostics
    }

    /// `files` with the file named like `damaged` replaced by it, or just `damaged` when none is.
    static func replacing(_ damaged: Source, in files: [Source]) -> [Source] {
        guard files.contains(where: { $0.name == damaged.name }) else { return [damaged] }
        return files.map { $0.name == damaged.name ? damaged : $0 }
    }

    /// The API of the reference's running example, for operations whose own case has no valid schema.
    static let runningExampleAPI: GeneratedAPI? = {
        guard let runningExample = Corpus.validCases.first(where: { $0.name == "running-example" }) else { return nil }
        let sources = runningExample.schemaFiles.map { Source(name: $0.path, text: $0.text) }
        return SchemaCompiler.compile(sources).model.map { GeneratedAPI(model: $0) }
    }()
}
