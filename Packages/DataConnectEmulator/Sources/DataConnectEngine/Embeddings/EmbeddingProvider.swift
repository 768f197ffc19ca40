import DataConnectWire

/// What a text is embedded for; Vertex AI's `task_type`.
///
/// Which task type Data Connect sends is not documented upstream. Here a text written with `<field>_embed`
/// is stored to be found, so it is a document; the text of `compare_embed` is what is searched for, so it
/// is a query. Providers without task types ignore the purpose.
public enum EmbeddingPurpose: String, Sendable, Hashable {
    /// A text stored in a `Vector` column (`<field>_embed` in `X_Data`).
    case document = "RETRIEVAL_DOCUMENT"
    /// A text to compare stored vectors with (`compare_embed` of `xs_<field>_similarity`).
    case query = "RETRIEVAL_QUERY"
}

/// Why a provider could not embed a text: the status the request answers with, and a message for the
/// developer.
public struct EmbeddingError: Error, Sendable, Equatable {
    /// The status the failure maps to: `FAILED_PRECONDITION` for missing configuration or credentials,
    /// `INVALID_ARGUMENT` for an unknown model or an unusable text, `UNAVAILABLE` when the provider cannot be
    /// reached or answers with a server error, `DEADLINE_EXCEEDED` when the request's time ran out,
    /// `RESOURCE_EXHAUSTED` for a provider's quota.
    public var code: StatusCode
    /// What went wrong, naming the provider.
    public var message: String

    /// Creates an error.
    public init(code: StatusCode, message: String) {
        self.code = code
        self.message = message
    }
}

/// Turns texts into vectors for `<field>_embed` and `compare_embed`: the seam between the engine and
/// Vertex AI, an OpenAI-style `/v1/embeddings` server, or the offline hashing embedding.
///
/// The engine calls a provider from a request's thread and waits for it, so an implementation blocks and
/// gives up at `deadline`.
public protocol EmbeddingProvider: Sendable {
    /// The provider as a user configured it, for logs and error messages (`hashing`, `vertex`, a URL).
    var summary: String { get }

    /// Embeds each text with the model.
    ///
    /// - Parameters:
    ///   - texts: the texts, at least one.
    ///   - model: the model as the operation names it (`textembedding-gecko@003`).
    ///   - purpose: whether the texts are stored or searched for.
    ///   - deadline: when the request's time runs out.
    /// - Returns: one vector per text, in order.
    /// - Throws: ``EmbeddingError``.
    func embed(
        _ texts: [String], model: String, purpose: EmbeddingPurpose, deadline: ContinuousClock.Instant
    ) throws(EmbeddingError) -> [[Double]]
}

/// The embedding models Vertex AI documents, with the length of the vectors they produce.
public enum EmbeddingModels {
    /// Known models and their default output dimension.
    public static let dimensions: [String: Int] = [
        "textembedding-gecko@001": 768,
        "textembedding-gecko@002": 768,
        "textembedding-gecko@003": 768,
        "textembedding-gecko-multilingual@001": 768,
        "text-embedding-004": 768,
        "text-embedding-005": 768,
        "text-multilingual-embedding-002": 768,
        "gemini-embedding-001": 3072,
    ]

    /// The dimension of a known model's vectors.
    public static func dimension(of model: String) -> Int? { dimensions[model] }

    /// The known models, sorted, for messages.
    public static var names: [String] { dimensions.keys.sorted() }
}
