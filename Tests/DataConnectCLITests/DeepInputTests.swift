import DataConnectTestSupport
import Foundation
import Testing

/// Long chains the parser's nesting limit does not cover: fragments spreading fragments, and keys made
/// of references to tables keyed by references. The tool runs as a process, so a stack overflow fails
/// the test instead of ending the test run. A run's only time limit is the hang guard (``HangGuard/process``):
/// a debug build on a busy machine is slow, and these tests judge correctness, not speed.
@Suite struct DeepInputTests {
    @Test func longFragmentChainIsValidated() async throws {
        // given
        let length = 20_000
        var operations = "query ListMovies @auth(level: PUBLIC) { movies { ...F0 } }\n"
        for index in 0..<length {
            operations += "fragment F\(index) on Movie { title ...F\(index + 1) }\n"
        }
        operations += "fragment F\(length) on Movie { title }\n"
        let backend = try Self.write(schema: "type Movie @table { title: String }", operations: operations)
        defer { backend.remove() }

        // when
        let result = try await ChildProcess.dataconnect(["validate", "--backend", backend.path])

        // then
        #expect(result.exitStatus == 0, "stderr:\n\(result.standardError.prefix(2_000))")
    }

    @Test func longReferenceKeyChainCompiles() async throws {
        // given
        let length = 2_000
        var schema = ""
        for index in 0..<length {
            schema += "type T\(index) @table(key: \"next\") { next: T\(index + 1)! }\n"
        }
        schema += "type T\(length) @table { name: String }\n"
        let backend = try Self.write(
            schema: schema, operations: "query Q @auth(level: PUBLIC) { t\(length)s { name } }\n")
        defer { backend.remove() }

        // when
        let result = try await ChildProcess.dataconnect(["validate", "--backend", backend.path])

        // then
        #expect(result.exitStatus == 0, "stderr:\n\(result.standardError.prefix(2_000))")
    }

    static func write(schema: String, operations: String) throws -> TemporaryDirectory {
        let backend = try TemporaryDirectory(prefix: "dataconnect-deep")
        try CorpusCase.parse(
            "# rule: deep\n--- schema/schema.gql\n\(schema)\n--- connector/queries.gql\n\(operations)",
            name: "deep", defaultExitStatus: 0
        ).write(to: backend.url)
        return backend
    }
}
