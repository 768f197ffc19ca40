import DataConnectEngine
import Testing

/// The offline embedding: deterministic, normalised, lexical, with the model's dimension.
@Suite struct HashingEmbeddingsTests {
    let provider = HashingEmbeddings()
    let deadline = ContinuousClock.now + .seconds(3600)

    func cosine(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).map(*).reduce(0, +)
    }

    @Test func vectorsHaveTheModelsDimensionAndLengthOne() throws {
        let gecko = try provider.embed(
            ["Robots dream"], model: "textembedding-gecko@003", purpose: .document, deadline: deadline)
        let gemini = try provider.embed(
            ["Robots dream"], model: "gemini-embedding-001", purpose: .query, deadline: deadline)
        #expect(gecko[0].count == 768)
        #expect(gemini[0].count == 3072)
        #expect(abs(gecko[0].map { $0 * $0 }.reduce(0, +) - 1) < 1e-12)
    }

    @Test func theSameTextGivesTheSameVectorWhateverItsCaseAndPunctuation() throws {
        let vectors = try provider.embed(
            ["Robots, dream!", "robots dream", "ROBOTS   DREAM."], model: "text-embedding-004", purpose: .document,
            deadline: deadline)
        #expect(vectors[0] == vectors[1] && vectors[1] == vectors[2])
    }

    @Test func sharedWordsMakeTextsCloseAndFunctionWordsDoNot() throws {
        let model = "textembedding-gecko@003"
        let v = try provider.embed(
            ["a detective in the rain", "the detective", "the cat in the hat", "a"], model: model,
            purpose: .document, deadline: deadline)
        #expect(cosine(v[0], v[1]) > 0.5)
        #expect(abs(cosine(v[0], v[2])) < 1e-12)
        #expect(v[3].allSatisfy { $0 == 0 })
    }

    @Test func anUnknownModelIsRefusedNamingTheKnownOnes() {
        #expect(throws: EmbeddingError.self) {
            try provider.embed(["x"], model: "my-model", purpose: .query, deadline: deadline)
        }
        do {
            _ = try provider.embed(["x"], model: "my-model", purpose: .query, deadline: deadline)
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("textembedding-gecko@003"))
        }
    }
}
