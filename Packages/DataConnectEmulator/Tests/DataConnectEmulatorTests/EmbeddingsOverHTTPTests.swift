import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// Vector search by text over HTTP with the offline `hashing` provider that the backend's `dataconnect.yaml`
/// chooses (`emulator.embeddings`), on the database of this test process.
@Suite struct EmbeddingsOverHTTPTests {
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
        emulator = try TestEmulator(backend: Self.directory, database: TestDatabase.current)
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
}
