/// An offline, deterministic embedding for developing and testing vector search with no network: the
/// feature hashing of the text's words, normalised to length 1.
///
/// Each word (a run of letters and digits, lowercased) adds +1 or -1 at one of the model's dimensions, both
/// chosen by the word's 64-bit FNV-1a hash; the vector is then divided by its length. The most common English
/// function words ("the", "a", "of", ... ``stopWords``) are left out, so that two texts are not close merely for
/// sharing them. Texts sharing words
/// have nearby vectors (cosine similarity is the overlap of their words), so a similarity search returns the
/// lexically closest rows. It is **lexical, not semantic**: "film" and "movie" are unrelated here, while Vertex
/// AI's models place them close. A text with no word embeds as the zero vector, whose cosine distance is
/// undefined (such rows are left out of a `COSINE` search).
///
/// The vectors have the dimension of the model named (768 for the gecko and `text-embedding-00x` models, see
/// ``EmbeddingModels``), so a schema written for Vertex AI works unchanged; an unknown model is refused as
/// Vertex AI refuses it.
public struct HashingEmbeddings: EmbeddingProvider {
    /// Creates the provider.
    public init() {}

    /// `hashing`.
    public var summary: String { "hashing (offline, lexical)" }

    /// Embeds each text with the dimension of `model`.
    ///
    /// - Throws: ``EmbeddingError`` `INVALID_ARGUMENT` for a model not in ``EmbeddingModels``.
    public func embed(
        _ texts: [String], model: String, purpose: EmbeddingPurpose, deadline: ContinuousClock.Instant
    ) throws(EmbeddingError) -> [[Double]] {
        guard let dimension = EmbeddingModels.dimension(of: model) else {
            throw EmbeddingError(
                code: .invalidArgument,
                message: "unknown embedding model \"\(model)\"; the hashing provider knows "
                    + EmbeddingModels.names.joined(separator: ", "))
        }
        return texts.map { Self.vector($0, dimension: dimension) }
    }

    /// The normalised feature-hashing vector of a text's words.
    ///
    /// - Parameters:
    ///   - text: the text.
    ///   - dimension: the vector's length, at least 1.
    public static func vector(_ text: String, dimension: Int) -> [Double] {
        var vector = [Double](repeating: 0, count: dimension)
        for word in words(of: text) {
            let hash = fnv1a(word)
            vector[Int(hash % UInt64(dimension))] += hash >> 63 == 0 ? 1 : -1
        }
        let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard length > 0 else { return vector }
        return vector.map { $0 / length }
    }

    /// English function words that carry no topic, left out of the embedding.
    public static let stopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "he", "her", "his", "in",
        "into", "is", "it", "its", "of", "on", "or", "she", "that", "the", "their", "them", "they", "this", "to", "was",
        "were", "will", "with",
    ]

    /// The text's words: runs of letters and digits, lowercased, without ``stopWords``.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        func end() {
            if !current.isEmpty && !stopWords.contains(current) { words.append(current) }
            current = ""
        }
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else {
                end()
            }
        }
        end()
        return words
    }

    /// The 64-bit FNV-1a hash of a word's UTF-8 bytes.
    static func fnv1a(_ word: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in word.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
