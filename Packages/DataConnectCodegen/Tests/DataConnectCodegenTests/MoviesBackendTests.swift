import DataConnectCodegen
import DataConnectSchema
import Foundation
import Testing

/// The sample backend generates without refusals, with one class per operation.
@Suite struct MoviesBackendTests {
    /// `Backend/movies`, found by walking up from this file.
    static let backend: String = {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Backend/movies").path
    }()

    @Test func generatesEveryOperation() throws {
        // given
        let (compiled, _) = ServiceCompiler.compile(backendDirectory: Self.backend)
        let service = try #require(compiled)
        let connector = try #require(service.connectors.first)
        let sdk = try #require(connector.sources.manifest.swiftSDKs.first)
        // when
        let files = try SwiftGenerator.generate(service: service, connector: connector, options: .init(sdk: sdk))
        // then
        let operations = try #require(files.first { $0.path == "Sources/MoviesOperations.swift" }).contents
        for operation in connector.validated.operations {
            let name = try #require(operation.name?.value)
            #expect(operations.contains(" \(operation.operation.rawValue) \(name).\n"))
        }
        #expect(files.first { $0.path == "Sources/MoviesClient.swift" }?.contents.contains("maxAge: 30") == true)
    }
}
