import DataConnectSchema
import GraphQLLanguage

/// Measures the front end on a real backend: load, compile the schema, generate the API, validate
/// every connector operation.
enum ValidationBenchmarks {
    static func run(backend: String) throws -> [BenchmarkResult] {
        var tables = 0
        var operations = 0
        let full = medianSeconds(warmup: 2, iterations: 21) {
            let (service, diagnostics) = ServiceCompiler.compile(backendDirectory: backend)
            precondition(!diagnostics.containsErrors, "the benchmark backend must be valid: \(diagnostics)")
            tables = service?.api.model.tables.count ?? 0
            operations = service?.connectors.reduce(0) { $0 + $1.validated.operations.count } ?? 0
            blackHole(service)
        }
        let (project, _) = ProjectLoader.load(backendDirectory: backend)
        guard let project else { return [] }
        let compileOnly = medianSeconds(warmup: 2, iterations: 21) {
            let (model, _) = SchemaCompiler.compile(project.schemaSources)
            blackHole(GeneratedAPI(model: model!))
        }
        return [
            BenchmarkResult(
                name: "validate \(backend.split(separator: "/").last ?? "") (load + compile + API + \(operations) ops)",
                value: full * 1000, unit: "ms", detail: "\(tables) tables; target < 100 ms"),
            BenchmarkResult(name: "compile schema + generate API", value: compileOnly * 1000, unit: "ms"),
        ]
    }
}
