import DataConnectProtobuf
import DataConnectWire
import Foundation

/// The engine's JSON answer turned into an `ExecuteQueryResponse`, two ways: through a ``JSONValue`` tree
/// (`JSONReader`, `GraphQLResponse(json:)`, `protobufBytes()`) and transcoded directly
/// (`ResponseTranscoder.executeResponse(json:)`, the entry point the gRPC server uses).
///
/// Two answers: a list of 20 movies (six fields and a nested director each, with their entity ids) and one movie
/// fetched by key.
enum ProtobufBenchmarks {
    /// Runs the benchmarks and returns one row per answer and way.
    static func run() throws -> [BenchmarkResult] {
        var results: [BenchmarkResult] = []
        for (name, answer) in [("20-row list", listAnswer()), ("get by key", getAnswer())] {
            let json = answer.toJSON().serialized()
            let expected = try ResponseTranscoder.executeResponse(json: json)
            let tree = try GraphQLResponse(json: JSONReader().parse(json)).protobufBytes()
            guard tree == expected else { throw BenchmarkFailure(description: "\(name): the two ways differ") }
            let repetitions = 1_000
            let treeSeconds = try medianSeconds {
                for _ in 0..<repetitions {
                    blackHole(try GraphQLResponse(json: JSONReader().parse(json)).protobufBytes())
                }
            }
            let directSeconds = try medianSeconds {
                for _ in 0..<repetitions {
                    blackHole(try ResponseTranscoder.executeResponse(json: json))
                }
            }
            let treeMicros = treeSeconds / Double(repetitions) * 1e6
            let directMicros = directSeconds / Double(repetitions) * 1e6
            let size = "\(json.count) B JSON -> \(expected.count) B protobuf"
            results.append(
                BenchmarkResult(
                    name: "protobuf \(name): transcode JSON", value: directMicros, unit: "µs",
                    detail: String(format: "%.1fx the tree; %@", treeMicros / directMicros, size)))
            results.append(
                BenchmarkResult(
                    name: "protobuf \(name): JSONValue tree", value: treeMicros, unit: "µs", detail: "baseline"))
        }
        return results
    }

    struct BenchmarkFailure: Error, CustomStringConvertible {
        var description: String
    }

    static func listAnswer() -> GraphQLResponse {
        var movies: [JSONValue] = []
        var ids: [String] = []
        for index in 0..<20 {
            let id = "0b6f3c2e9d8a4f51a2c7\(String(format: "%012x", index))"
            ids.append(id)
            movies.append([
                "id": .string(id), "title": .string("Movie number \(index)"), "releaseYear": JSONValue(1970 + index),
                "rating": JSONValue(Double(index % 10) + 0.5), "genre": "drama",
                "director": ["id": .string("d\(index)"), "name": "Agnès Varda"],
            ])
        }
        return GraphQLResponse(
            data: ["movies": .array(movies)],
            extensions: .init(dataConnect: [DataConnectProperties(path: ["movies"], entityIds: ids, action: .list)]))
    }

    static func getAnswer() -> GraphQLResponse {
        let id = "0b6f3c2e9d8a4f51a2c7000000000001"
        return GraphQLResponse(
            data: [
                "movie": [
                    "id": .string(id), "title": "Alien", "releaseYear": 1979, "rating": 8.5, "genre": "sci-fi",
                    "description": "In space, no one can hear you scream.",
                ]
            ],
            extensions: .init(dataConnect: [DataConnectProperties(path: ["movie"], entityId: id, action: .get)]))
    }
}
