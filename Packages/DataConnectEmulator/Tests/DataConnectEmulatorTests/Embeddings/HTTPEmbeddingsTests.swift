import DataConnectEngine
import DataConnectTestSupport
import DataConnectWire
import EmulatorHTTP
import OutboundHTTP
import Testing

@testable import DataConnectEmulator

/// The `/v1/embeddings` provider against a stand-in server: the request, the model mapping, the key, and the
/// answers it refuses.
@Suite struct HTTPEmbeddingsTests {
    /// An OpenAI-style answer, `data` deliberately out of order: the i-th input gets `[i, 2]`.
    static func embeddings(for request: ProviderStandIn.Received) -> HTTPResponse {
        let count = request.json?["input"]?.arrayValue?.count ?? 0
        let data = (0..<count).reversed().map { index -> JSONValue in
            ["object": "embedding", "index": JSONValue(index), "embedding": [JSONValue(Double(index)), 2]]
        }
        let model = request.json?["model"] ?? .null
        return .json(JSONValue.object(["object": "list", "data": .array(data), "model": model]).serialized())
    }

    @Test func postsTheMappedModelAndTheInputsAndReadsTheVectorsByIndex() throws {
        // given a server and a mapping of one model name
        let server = try ProviderStandIn(Self.embeddings)
        let provider = HTTPEmbeddings(
            url: server.url + "/v1/embeddings", models: ["textembedding-gecko@003": "nomic-embed-text"],
            environment: [:], transport: LiveHTTPTransport())

        // when texts are embedded with the mapped model, then with another
        let vectors = try provider.embed(
            ["first", "second", "third"], model: "textembedding-gecko@003", purpose: .document,
            deadline: HangGuard.deadline)
        _ = try provider.embed(["x"], model: "text-embedding-004", purpose: .query, deadline: HangGuard.deadline)

        // then the server got the server's model name and the texts, in one request each
        let received = server.received
        #expect(received.map(\.path) == ["/v1/embeddings", "/v1/embeddings"])
        #expect(received[0].json == ["model": "nomic-embed-text", "input": ["first", "second", "third"]])
        #expect(received[0].headers["content-type"] == "application/json")
        #expect(received[0].headers["authorization"] == nil)
        // an unmapped name passes through
        #expect(received[1].json?["model"] == "text-embedding-004")
        // and the vectors follow the inputs' order, whatever the order of data
        #expect(vectors == [[0, 2], [1, 2], [2, 2]])
        #expect(provider.summary == "\(server.url)/v1/embeddings (1 model mapped)")
    }

    @Test func sendsTheKeyFromTheNamedVariable() throws {
        // given a key in the variable the configuration names
        let server = try ProviderStandIn(Self.embeddings)
        let provider = HTTPEmbeddings(
            url: server.url + "/v1/embeddings", apiKeyVariable: "EMBEDDINGS_KEY",
            environment: ["EMBEDDINGS_KEY": "sk-local-123"], transport: LiveHTTPTransport())

        // when
        _ = try provider.embed(["a"], model: "m", purpose: .document, deadline: HangGuard.deadline)

        // then it went as a bearer token, and the summary names the variable, never the key
        #expect(server.received.first?.headers["authorization"] == "Bearer sk-local-123")
        #expect(provider.summary.contains("$EMBEDDINGS_KEY"))
        #expect(!provider.summary.contains("sk-local-123"))
    }

    @Test func aMissingKeyIsAFailedPreconditionNamingTheVariable() throws {
        let server = try ProviderStandIn(Self.embeddings)
        let provider = HTTPEmbeddings(
            url: server.url + "/v1/embeddings", apiKeyVariable: "EMBEDDINGS_KEY", environment: [:],
            transport: LiveHTTPTransport())
        let error = VertexEmbeddingsTests.failure {
            try provider.embed(["a"], model: "m", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains("EMBEDDINGS_KEY") == true)
        #expect(server.received.isEmpty)
    }

    @Test(arguments: [
        ("not json at all", "is not JSON"), (#"{"object":"list"}"#, "no \"data\" list"),
        (#"{"data":[{"index":0,"embedding":[1,2]}]}"#, "1 embeddings for 2 inputs"),
        (#"{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[2]}]}"#, "out of range or repeated"),
        (#"{"data":[{"index":0,"embedding":"AAAA"},{"index":1,"embedding":[2]}]}"#, "not a list of numbers"),
    ])
    func aMalformedAnswerIsAnError(body: String, reason: String) throws {
        // given a server that answers 200 with something else than embeddings
        let server = try ProviderStandIn { _ in .json(body) }
        let provider = HTTPEmbeddings(
            url: server.url + "/v1/embeddings", environment: [:], transport: LiveHTTPTransport())

        // when / then
        let error = VertexEmbeddingsTests.failure {
            try provider.embed(["a", "b"], model: "m", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == .unknown)
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        (401, StatusCode.failedPrecondition, "refused the credentials"),
        (404, .invalidArgument, "does not know the model \"nomic-embed-text\" (HTTP 404: model not found)"),
        (400, .invalidArgument, "refused the request"), (429, .resourceExhausted, "over its quota"),
        (500, .unavailable, "HTTP 500"),
    ])
    func mapsServerAnswersToStatuses(status: Int, code: StatusCode, message: String) throws {
        let server = try ProviderStandIn { _ in
            .json(#"{"error":{"message":"model not found","type":"x"}}"#, status: HTTPStatus(code: status))
        }
        let provider = HTTPEmbeddings(
            url: server.url + "/v1/embeddings", models: ["gecko": "nomic-embed-text"], environment: [:],
            transport: LiveHTTPTransport())
        let error = VertexEmbeddingsTests.failure {
            try provider.embed(["a"], model: "gecko", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == code)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test func aServerThatIsNotThereIsUnavailable() throws {
        let provider = HTTPEmbeddings(
            url: "http://127.0.0.1:\(try CustomResolverTests.closedPort())/v1/embeddings", environment: [:],
            transport: LiveHTTPTransport())
        let error = VertexEmbeddingsTests.failure {
            try provider.embed(["a"], model: "m", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("/v1/embeddings is unavailable") == true, "\(String(describing: error))")
    }
}
