import DataConnectEngine
import DataConnectWire
import EmulatorHTTP
import EmulatorTesting
import Foundation
import Testing

/// Vector search by text over HTTP with the offline `hashing` provider that the backend's `dataconnect.yaml`
/// chooses (`emulator.embeddings`), on the database of this test process.
@Suite(.onBothDatabases) struct EmbeddingsOverHTTPTests {
    let emulator: TestEmulator
    let client: EmulatorClient

    static let directory: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/embeddings").path
    }()

    /// Inserted in this order; the searches below are closest to a row that is neither first nor last.
    static let movies = [
        ("Interstellar", "A space crew travels through a wormhole to save humanity"),
        ("Titanic", "Two lovers meet on a great ship that sinks in the north Atlantic"),
        ("Se7en", "A detective hunts a serial killer through rainy city streets"),
        ("Toy Story", "Toys come alive when their owner leaves the room"),
        ("The Fellowship", "A hobbit carries a ring across middle earth to destroy it"),
    ]

    init() async throws {
        emulator = try TestEmulator(backend: Self.directory, database: TestDatabase.required())
        client = EmulatorClient(emulator, connector: "movies")
        for (title, description) in Self.movies {
            let result = try await client.mutation(
                "AddMovie", ["title": .string(title), "description": .string(description)])
            #expect(result.status == 200 && result.errors.isEmpty, "\(result)")
        }
    }

    static func titles(_ result: HTTPResult) -> [String] {
        (result.data?["movies_descriptionEmbedding_similarity"]?.arrayValue ?? []).compactMap {
            $0["title"]?.stringValue
        }
    }

    @Test(arguments: [
        ("the killer in the rainy streets", "Se7en"),
        ("a ship in the atlantic", "Titanic"),
        ("toys in a room", "Toy Story"),
    ])
    func theNearestNeighbourIsTheLexicallyClosestDescription(query: String, expected: String) async throws {
        let result = try await client.query("SearchMovies", ["query": .string(query)])
        #expect(result.status == 200, "\(result)")
        #expect(Self.titles(result).first == expected, "\(result)")
        let distances = (result.data?["movies_descriptionEmbedding_similarity"]?.arrayValue ?? []).compactMap {
            $0["_metadata"]?["distance"]?.doubleValue
        }
        #expect(distances.count == 3 && distances == distances.sorted(), "\(distances)")
    }

    @Test func updatingTheTextMovesTheRow() async throws {
        let before = try await client.query("SearchMovies", ["query": "a hobbit and a ring", "limit": 1])
        #expect(Self.titles(before) == ["The Fellowship"], "\(before)")
        let id = try #require(
            before.data?["movies_descriptionEmbedding_similarity"]?.arrayValue?.first?["id"]?.stringValue)
        let updated = try await client.mutation(
            "UpdateDescription", ["id": .string(id), "description": "A wizard guides travellers through mines"])
        #expect(updated.status == 200 && updated.errors.isEmpty, "\(updated)")
        let after = try await client.query("SearchMovies", ["query": "a wizard in the mines", "limit": 1])
        #expect(Self.titles(after) == ["The Fellowship"], "\(after)")
    }

    @Test func aLocalEmbeddingsServerComputesTheVectorsThroughTheEmulator() async throws {
        // given: a stand-in /v1/embeddings server (it answers the hashing vectors of the texts), and the backend
        // configured for it in dataconnect.yaml with a model mapping
        let server = try ProviderStandIn { request in
            let texts = request.json?["input"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let data = texts.enumerated().map { index, text -> JSONValue in
                let vector = HashingEmbeddings.vector(text, dimension: 768).map { JSONValue.number(JSONNumber($0)) }
                return ["index": JSONValue(index), "embedding": .array(vector)]
            }
            return .json(JSONValue.object(["data": .array(data)]).serialized())
        }
        let backend = FileManager.default.temporaryDirectory.appendingPathComponent("embeddings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: backend) }
        try FileManager.default.copyItem(atPath: Self.directory, toPath: backend.path)
        let config = try String(contentsOfFile: Self.directory + "/dataconnect.yaml", encoding: .utf8)
        let section = try #require(config.range(of: "emulator:"))
        try
            (String(config[..<section.lowerBound]) + """
                emulator:
                  embeddings:
                    url: \(server.url)/v1/embeddings
                    models:
                      textembedding-gecko@003: local-model
                """).write(to: backend.appendingPathComponent("dataconnect.yaml"), atomically: true, encoding: .utf8)
        let local = try TestEmulator(backend: backend.path, database: TestDatabase.required())
        let client = EmulatorClient(local, connector: "movies")

        // when
        for (title, description) in Self.movies.prefix(3) {
            let added = try await client.mutation(
                "AddMovie", ["title": .string(title), "description": .string(description)])
            #expect(added.status == 200 && added.errors.isEmpty, "\(added)")
        }
        let result = try await client.query("SearchMovies", ["query": "a ship in the atlantic", "limit": 1])

        // then: one request per text, with the server's model name, and the nearest row by its vectors
        #expect(Self.titles(result) == ["Titanic"], "\(result)")
        let requests = server.requests(under: "/v1/embeddings")
        #expect(requests.count == 4)
        #expect(requests.allSatisfy { $0.json?["model"] == "local-model" })
        #expect(requests.last?.json?["input"] == ["a ship in the atlantic"])
    }
}
