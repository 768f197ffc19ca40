import DataConnectWire

/// The offline hashing embedding: deterministic vectors without a network.
///
/// A placeholder with the final type's interface, so the service can offer `--embeddings hashing`; it answers
/// `FAILED_PRECONDITION` until the hashing itself lands.
public struct HashingEmbeddings: EmbeddingProvider {
    /// Creates the provider.
    public init() {}

    /// `hashing`.
    public var summary: String { "hashing" }

    /// Fails with `FAILED_PRECONDITION`: the hashing embedding is not available yet.
    public func embed(
        _ texts: [String], model: String, purpose: EmbeddingPurpose, deadline: ContinuousClock.Instant
    ) throws(EmbeddingError) -> [[Double]] {
        throw EmbeddingError(
            code: .failedPrecondition,
            message: "the hashing embedding provider is not available in this build; use --embeddings vertex or a URL")
    }
}
