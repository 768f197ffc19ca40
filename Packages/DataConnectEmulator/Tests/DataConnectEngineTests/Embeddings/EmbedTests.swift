import DataConnectEngine
import DataConnectWire
import EmulatorTesting
import Synchronization
import Testing

/// A provider that records what it was asked and answers a recognisable vector for each text: its length
/// at index 0, its position in the call at index 1, the model's dimension.
final class RecordingEmbeddings: EmbeddingProvider {
    struct Call: Equatable {
        var texts: [String]
        var model: String
        var purpose: EmbeddingPurpose
    }

    let calls = Mutex<[Call]>([])
    var summary: String { "recording" }

    func embed(
        _ texts: [String], model: String, purpose: EmbeddingPurpose, deadline: ContinuousClock.Instant
    ) throws(EmbeddingError) -> [[Double]] {
        calls.withLock { $0.append(Call(texts: texts, model: model, purpose: purpose)) }
        let dimension = EmbeddingModels.dimension(of: model) ?? 4
        return texts.enumerated().map { index, text in
            var vector = [Double](repeating: 0, count: dimension)
            vector[0] = Double(text.count)
            vector[1] = Double(index)
            return vector
        }
    }

    var recorded: [Call] { calls.withLock { $0 } }
}

/// A provider that always fails with the given status.
struct FailingEmbeddings: EmbeddingProvider {
    let code: StatusCode
    var summary: String { "failing" }

    func embed(
        _ texts: [String], model: String, purpose: EmbeddingPurpose, deadline: ContinuousClock.Instant
    ) throws(EmbeddingError) -> [[Double]] {
        throw EmbeddingError(code: code, message: "the provider is down")
    }
}

/// `<field>_embed` in `X_Data` and `compare_embed`, through the embedding provider seam, on the database of
/// this test process.
@Suite(.onBothDatabases) struct EmbedTests {
    static let model = "textembedding-gecko@003"

    static let schema = """
        type Film @table {
          title: String!
          summary: String
          embedding: Vector @col(size: 768)
          small: Vector @col(size: 3)
        }
        """

    static let operations = """
        mutation AddFilm($title: String!, $summary: String!) @auth(level: PUBLIC) {
          film_insert(data: {
            title: $title, summary: $summary,
            embedding_embed: {model: "\(model)", text: $summary}
          })
        }
        mutation AddThree($a: String!, $b: String!) @auth(level: PUBLIC) {
          film_insertMany(data: [
            {title: "a", embedding_embed: {model: "\(model)", text: $a}},
            {title: "b", embedding_embed: {model: "\(model)", text: $b}},
            {title: "a again", embedding_embed: {model: "\(model)", text: $a}}
          ])
        }
        mutation UpsertFilm($id: UUID!, $summary: String!) @auth(level: PUBLIC) {
          film_upsert(data: {id: $id, title: "upserted", embedding_embed: {model: "\(model)", text: $summary}})
        }
        mutation Resummarize($id: UUID!, $summary: String!) @auth(level: PUBLIC) {
          film_update(id: $id, data: {summary: $summary, embedding_embed: {model: "\(model)", text: $summary}})
        }
        mutation ResummarizeAll($summary: String!) @auth(level: PUBLIC) {
          film_updateMany(all: true, data: {embedding_embed: {model: "\(model)", text: $summary}})
        }
        mutation AddSmall($title: String!) @auth(level: PUBLIC) {
          film_insert(data: {title: $title, small_embed: {model: "\(model)", text: $title}})
        }
        mutation AddWithData($data: Film_Data!) @auth(level: PUBLIC) {
          film_insert(data: $data)
        }
        query Search($text: String!) @auth(level: PUBLIC) {
          films_embedding_similarity(compare_embed: {model: "\(model)", text: $text}, method: COSINE, limit: 10) {
            title
            _metadata { distance }
          }
        }
        query Films @auth(level: PUBLIC) {
          films(orderBy: {title: ASC}) { id title embedding }
        }
        """

    static func backend(_ embeddings: (any EmbeddingProvider)?) throws -> TestBackend {
        try TestBackend(operations, schema: schema, seeded: false, embeddings: embeddings)
    }

    static func films(_ backend: TestBackend) -> [JSONValue] {
        backend.query("Films").data?["films"]?.arrayValue ?? []
    }

    static func numbers(_ value: JSONValue?) -> [Double] {
        value?.arrayValue?.compactMap(\.doubleValue) ?? []
    }

    @Test func insertStoresTheVectorOfTheTextAsADocument() throws {
        // given
        let provider = RecordingEmbeddings()
        let backend = try Self.backend(provider)
        // when
        let result = backend.mutation("AddFilm", ["title": "Heat", "summary": "a heist in Los Angeles"])
        // then
        #expect(result.status == .ok && result.errors.isEmpty, "\(result.body)")
        #expect(provider.recorded == [.init(texts: ["a heist in Los Angeles"], model: Self.model, purpose: .document)])
        let stored = Self.numbers(Self.films(backend).first?["embedding"])
        #expect(stored.count == 768)
        #expect(stored.prefix(2) == [22, 0])
    }

    @Test func insertManyAsksOnceForEachDistinctText() throws {
        let provider = RecordingEmbeddings()
        let backend = try Self.backend(provider)
        let result = backend.mutation("AddThree", ["a": "first text", "b": "second, longer text"])
        #expect(result.status == .ok && result.errors.isEmpty, "\(result.body)")
        #expect(provider.recorded.map(\.texts) == [["first text", "second, longer text"]])
        let byTitle = Dictionary(
            uniqueKeysWithValues: Self.films(backend).map { ($0["title"]?.stringValue ?? "", $0["embedding"]) })
        #expect(Self.numbers(byTitle["a"] ?? nil).prefix(1) == [10])
        #expect(Self.numbers(byTitle["a again"] ?? nil).prefix(1) == [10])
        #expect(Self.numbers(byTitle["b"] ?? nil).prefix(2) == [19, 1])
    }

    @Test func upsertUpdateAndUpdateManyWriteTheVectorToo() throws {
        let provider = RecordingEmbeddings()
        let backend = try Self.backend(provider)
        let id = "0a1b2c3d4e5f40718293a4b5c6d7e8f9"
        #expect(backend.mutation("UpsertFilm", ["id": .string(id), "summary": "four"]).errors.isEmpty)
        #expect(Self.numbers(Self.films(backend).first?["embedding"]).first == 4)
        #expect(backend.mutation("Resummarize", ["id": .string(id), "summary": "seven!!"]).errors.isEmpty)
        #expect(Self.numbers(Self.films(backend).first?["embedding"]).first == 7)
        #expect(backend.mutation("ResummarizeAll", ["summary": "twelve chars"]).errors.isEmpty)
        #expect(Self.numbers(Self.films(backend).first?["embedding"]).first == 12)
        #expect(provider.recorded.allSatisfy { $0.purpose == .document })
    }

    @Test func embedInsideAVariableValueIsComputedToo() throws {
        let provider = RecordingEmbeddings()
        let backend = try Self.backend(provider)
        let data: JSONValue = [
            "title": "Alien", "embedding_embed": ["model": .string(Self.model), "text": "in space"],
        ]
        let result = backend.mutation("AddWithData", ["data": data])
        #expect(result.status == .ok && result.errors.isEmpty, "\(result.body)")
        #expect(Self.numbers(Self.films(backend).first?["embedding"]).first == 8)
    }

    @Test func aVectorOfTheWrongSizeIsRefusedNamingTheField() throws {
        let provider = RecordingEmbeddings()
        let backend = try Self.backend(provider)
        let result = backend.mutation("AddSmall", ["title": "Up"])
        #expect(result.status == .invalidArgument, "\(result.body)")
        let message = result.requestErrorMessage ?? ""
        #expect(message.contains("\"small\" is a Vector of size 3"), "\(message)")
        #expect(message.contains("768"), "\(message)")
        #expect(Self.films(backend).isEmpty)
    }

    @Test func withoutAProviderEmbeddingFailsThePreconditionNamingTheSetting() throws {
        let backend = try Self.backend(nil)
        let insert = backend.mutation("AddFilm", ["title": "Heat", "summary": "a heist"])
        #expect(insert.status == .failedPrecondition, "\(insert.body)")
        #expect(insert.requestErrorMessage?.contains("--embeddings") == true, "\(insert.body)")
        #expect(Self.films(backend).isEmpty)
        let search = backend.query("Search", ["text": "heist"])
        #expect(search.status == .failedPrecondition, "\(search.body)")
    }

    @Test(arguments: [StatusCode.unavailable, .resourceExhausted, .deadlineExceeded])
    func theProvidersFailureAnswersWithItsStatus(code: StatusCode) throws {
        let backend = try Self.backend(FailingEmbeddings(code: code))
        let result = backend.mutation("AddFilm", ["title": "Heat", "summary": "a heist"])
        #expect(result.status == code, "\(result.body)")
        #expect(result.requestErrorMessage == "the provider is down")
        #expect(Self.films(backend).isEmpty)
    }

    @Test func compareEmbedEmbedsTheTextAsAQuery() throws {
        let provider = RecordingEmbeddings()
        let backend = try Self.backend(provider)
        _ = backend.query("Search", ["text": "rain"])
        #expect(provider.recorded == [.init(texts: ["rain"], model: Self.model, purpose: .query)])
    }

    /// Summaries inserted in this order; the query is closest to the third, neither first nor last.
    static let summaries = [
        ("Interstellar", "A space crew travels through a wormhole to save humanity"),
        ("Titanic", "Two lovers meet on a great ship that sinks in the north Atlantic"),
        ("Se7en", "A detective hunts a serial killer through rainy city streets"),
        ("Toy Story", "Toys come alive when their owner leaves the room"),
        ("The Fellowship", "A hobbit carries a ring across middle earth to destroy it"),
    ]

    @Test func hashingFindsTheLexicallyClosestTextOffline() throws {
        // given
        let backend = try Self.backend(HashingEmbeddings())
        for (title, summary) in Self.summaries {
            let result = backend.mutation("AddFilm", ["title": .string(title), "summary": .string(summary)])
            #expect(result.errors.isEmpty && result.status == .ok, "\(result.body)")
        }
        // when
        let result = backend.query("Search", ["text": "the killer in the rainy streets"])
        // then
        #expect(result.status == .ok, "\(result.body)")
        let rows = result.data?["films_embedding_similarity"]?.arrayValue ?? []
        #expect(rows.first?["title"] == "Se7en", "\(rows)")
        let distances = rows.compactMap { $0["_metadata"]?["distance"]?.doubleValue }
        #expect(distances.count == 5)
        #expect(distances == distances.sorted())
        #expect(distances[0] < 0.5 && distances[1] > 0.9, "\(distances)")
        let stored = Self.numbers(Self.films(backend).first { $0["title"] == "Se7en" }?["embedding"])
        let expected = HashingEmbeddings.vector(Self.summaries[2].1, dimension: 768)
        #expect(stored.count == 768)
        #expect(zip(stored, expected).allSatisfy { abs($0 - $1) < 1e-6 })
    }
}

/// `Vector_ListFilter`: the filter of a `[Vector]` column, and the prelude's interval enums, as introspection
/// shows them.
@Suite(.onBothDatabases) struct VectorListFilterTests {
    static let schema = """
        type Shot @table {
          name: String!
          frames: [Vector] @col(size: 2)
        }
        """

    static let operations = """
        mutation AddShot($name: String!, $frames: [Vector!]) @auth(level: PUBLIC) {
          shot_insert(data: {name: $name, frames: $frames})
        }
        query WithFrame($frame: Vector!) @auth(level: PUBLIC) {
          shots(where: {frames: {includes: $frame}}, orderBy: {name: ASC}) { name }
        }
        query WithoutFrames($frames: [Vector!]) @auth(level: PUBLIC) {
          shots(where: {frames: {excludesAll: $frames}}, orderBy: {name: ASC}) { name }
        }
        """

    @Test func listsOfVectorsAreFilteredByTheirElements() throws {
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)
        let one: JSONValue = [1, 2]
        let two: JSONValue = [3, 4]
        #expect(backend.mutation("AddShot", ["name": "a", "frames": [one, two]]).errors.isEmpty)
        #expect(backend.mutation("AddShot", ["name": "b", "frames": [two]]).errors.isEmpty)
        #expect(backend.mutation("AddShot", ["name": "c", "frames": []]).errors.isEmpty)
        let with = backend.query("WithFrame", ["frame": one])
        #expect(with.data?["shots"] == json(#"[{"name": "a"}]"#), "\(with.body)")
        let without = backend.query("WithoutFrames", ["frames": [one]])
        #expect(without.data?["shots"] == json(#"[{"name": "b"}, {"name": "c"}]"#), "\(without.body)")
    }

    @Test func introspectionShowsGooglesNames() throws {
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)
        let result = backend.admin(
            """
            query {
              timestamp: __type(name: "Timestamp_Interval") { kind enumValues { name } }
              date: __type(name: "Date_Interval") { kind enumValues { name } }
              old: __type(name: "Timestamp_TruncateUnit") { name }
              list: __type(name: "Vector_ListFilter") { kind inputFields { name type { kind name ofType { name } } } }
              data: __type(name: "Shot_Filter") { inputFields { name type { name } } }
            }
            """)
        #expect(result.status == .ok, "\(result.body)")
        let data = result.data
        #expect(
            data?["timestamp"]?["enumValues"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                == ["SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"])
        #expect(
            data?["date"]?["enumValues"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == [
                "WEEK", "MONTH", "YEAR",
            ])
        #expect(data?["old"] == .null)
        #expect(
            data?["list"]?["inputFields"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                == ["includes", "excludes", "includesAll", "excludesAll"])
        let frames = data?["data"]?["inputFields"]?.arrayValue?.first { $0["name"] == "frames" }
        #expect(frames?["type"]?["name"] == "Vector_ListFilter")
    }
}
