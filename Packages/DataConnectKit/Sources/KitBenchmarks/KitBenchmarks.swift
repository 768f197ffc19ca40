import Foundation

/// `kit-bench [BACKEND_DIR]`: runs the DataConnectKit benchmarks and prints a Markdown table.
///
/// Build in release (`make bench`); debug figures are meaningless.
@main
struct KitBenchmarks {
    static func main() throws {
        let backend = CommandLine.arguments.dropFirst().first ?? "Backend/movies"
        var results: [BenchmarkResult] = []
        results += try ParserBenchmarks.run()
        results += try ValidationBenchmarks.run(backend: backend)
        results += try JSONBenchmarks.run()
        results += try ProtobufBenchmarks.run()
        print("| benchmark | result | notes |")
        print("|---|---|---|")
        for result in results {
            print("| \(result.name) | \(String(format: "%.2f", result.value)) \(result.unit) | \(result.detail) |")
        }
    }
}
