import DataConnectSchema
import Foundation
import GraphQLLanguage
import Testing

/// The sample backend compiles cleanly, and its seed file type-checks as an admin document.
@Suite struct MoviesBackendTests {
    /// `Backend/movies`, found by walking up from this file.
    static let backend: String = {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Backend/movies").path
    }()

    @Test func validatesWithoutDiagnostics() throws {
        // given / when
        let (service, diagnostics) = ServiceCompiler.compile(backendDirectory: Self.backend)
        // then
        #expect(diagnostics.map(\.description) == [])
        let compiled = try #require(service)
        #expect(compiled.api.model.tables.count >= 7)
        let names = Set(compiled.connectors.flatMap(\.validated.operations).compactMap(\.name?.value))
        #expect(names.isSuperset(of: ["createMovie", "getMovieByKey", "listMoviesByGenre", "listMovies"]))
        #expect(names.count >= 16)
    }

    @Test func seedDataTypeChecks() throws {
        let (service, _) = ServiceCompiler.compile(backendDirectory: Self.backend)
        let api = try #require(service?.api)
        let path = Self.backend + "/seed_data.gql"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let result = OperationValidator.validate([Source(name: "seed_data.gql", text: text)], api: api, mode: .admin)
        #expect(result.diagnostics.map(\.description) == [])
    }
}
