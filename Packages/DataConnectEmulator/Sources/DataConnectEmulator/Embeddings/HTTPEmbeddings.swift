import DataConnectEngine
import DataConnectWire
import Foundation
import OutboundHTTP

/// Embeddings from a server of the common `/v1/embeddings` shape (Ollama, llama.cpp's server, vLLM, LocalAI, or a
/// hosted API of that shape): the provider `--embeddings URL` chooses.
///
/// Each call is one `POST` to the URL with `{"model": serverModel, "input": [texts]}`; the vectors are
/// `data[i].embedding`, put in order by `data[i].index`. The operation's model name (`textembedding-gecko@003`) is
/// mapped to the server's (`nomic-embed-text`) through ``models``; names without a mapping are sent as they are.
/// With ``apiKeyVariable``, the variable's value is sent as `Authorization: Bearer`.
///
/// ```swift
/// let local = HTTPEmbeddings(
///     url: "http://127.0.0.1:11434/v1/embeddings", models: ["textembedding-gecko@003": "nomic-embed-text"],
///     transport: LiveHTTPTransport())
/// ```
public final class HTTPEmbeddings: EmbeddingProvider {
    /// The endpoint.
    public let url: String
    /// The operation's model names mapped to the server's.
    public let models: [String: String]
    /// The environment variable holding the bearer token, if one is sent.
    public let apiKeyVariable: String?
    private let apiKey: String?
    private let transport: any HTTPTransport

    /// Creates the provider.
    ///
    /// - Parameters:
    ///   - url: the endpoint, `http://` or `https://`.
    ///   - models: the operation's model names mapped to the server's.
    ///   - apiKeyVariable: the environment variable whose value is sent as a bearer token.
    ///   - environment: where the variable is read, the process environment by default.
    ///   - transport: what the calls go through.
    public init(
        url: String, models: [String: String] = [:], apiKeyVariable: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, transport: any HTTPTransport
    ) {
        self.url = url
        self.models = models
        self.apiKeyVariable = apiKeyVariable
        self.apiKey = apiKeyVariable.flatMap { environment[$0] }.flatMap { $0.isEmpty ? nil : $0 }
        self.transport = transport
    }

    /// `http://… (2 models mapped, bearer token from $KEY)`; never the token.
    public var summary: String {
        var parts: [String] = []
        if !models.isEmpty { parts.append("\(models.count) model\(models.count == 1 ? "" : "s") mapped") }
        if let apiKeyVariable { parts.append("bearer token from $\(apiKeyVariable)") }
        return parts.isEmpty ? url : "\(url) (\(parts.joined(separator: ", ")))"
    }

    /// The name sent for an operation's model.
    public func serverModel(for model: String) -> String {
        models[model] ?? model
    }

    public func embed(
        _ texts: [String], model: String, purpose: EmbeddingPurpose, deadline: ContinuousClock.Instant
    ) throws(EmbeddingError) -> [[Double]] {
        var headers = [(name: "Content-Type", value: "application/json"), (name: "Accept", value: "application/json")]
        if let apiKeyVariable {
            guard let apiKey else {
                throw EmbeddingError(
                    code: .failedPrecondition,
                    message: "the embeddings server \(url) needs a key: set the environment variable \(apiKeyVariable)")
            }
            headers.append((name: "Authorization", value: "Bearer \(apiKey)"))
        }
        let sentModel = serverModel(for: model)
        let body: JSONValue = ["model": .string(sentModel), "input": .array(texts.map(JSONValue.string))]
        let provider = "the embeddings server \(url)"
        let response: OutboundResponse
        do {
            response = try transport.send(
                OutboundRequest(method: "POST", url: url, headers: headers, body: body.serialized()), deadline: deadline
            )
        } catch {
            throw ProviderAnswers.error(for: error, provider: provider)
        }
        guard (200..<300).contains(response.status) else {
            throw ProviderAnswers.error(
                for: response, provider: provider, model: sentModel,
                credentials: apiKeyVariable.map { "check the key in \($0)" } ?? "the server may need a key (apiKeyEnv)")
        }
        return try Self.vectors(
            in: ProviderAnswers.json(response, provider: provider), count: texts.count, provider: provider)
    }

    /// `data[i].embedding` in the order of `data[i].index` (the order of `data` when there is no index).
    static func vectors(in json: JSONValue, count: Int, provider: String) throws(EmbeddingError) -> [[Double]] {
        func malformed(_ reason: String) -> EmbeddingError {
            EmbeddingError(code: .unknown, message: "\(provider) answered a malformed embeddings response: \(reason)")
        }
        guard let data = json["data"]?.arrayValue else { throw malformed("no \"data\" list") }
        guard data.count == count else { throw malformed("\(data.count) embeddings for \(count) inputs") }
        var vectors = [[Double]?](repeating: nil, count: count)
        for (position, item) in data.enumerated() {
            let index = item["index"]?.intValue ?? position
            guard vectors.indices.contains(index), vectors[index] == nil else {
                throw malformed("the index \(index) is out of range or repeated")
            }
            guard let vector = ProviderAnswers.vector(item["embedding"]) else {
                throw malformed("data[\(position)].embedding is not a list of numbers")
            }
            vectors[index] = vector
        }
        return vectors.compactMap { $0 }
    }
}
