/// Which provider the emulator computes `<field>_embed` and `compare_embed` vectors with: the `embeddings` key of
/// `dataconnect.yaml`'s `emulator:` section, or `dataconnect emulator --embeddings` (which wins).
///
/// ```yaml
/// emulator:
///   embeddings: vertex            # or hashing, or http://127.0.0.1:11434/v1/embeddings
/// ```
///
/// ```swift
/// let setting = try EmbeddingsSetting(parsing: "http://127.0.0.1:11434/v1/embeddings")
/// // .http(url: "http://127.0.0.1:11434/v1/embeddings", models: [:], apiKeyVariable: nil)
/// ```
public enum EmbeddingsSetting: Hashable, Sendable {
    /// Vertex AI's `predict` for the model the operation names, with Google credentials from the environment.
    case vertex
    /// The offline hashing embedding: deterministic vectors computed from the text, without a network or a model.
    case hashing
    /// A server of the common `/v1/embeddings` shape (a local model server such as Ollama or llama.cpp).
    ///
    /// - Parameters:
    ///   - url: the endpoint, `http://` or `https://`.
    ///   - models: the operation's model names mapped to the server's; unmapped names are sent as they are.
    ///   - apiKeyVariable: the environment variable holding a bearer token to send, if any.
    case http(url: String, models: [String: String], apiKeyVariable: String?)

    /// Parses the short form: `vertex`, `hashing`, or an `http://` or `https://` URL (no model mapping, no key).
    ///
    /// - Parameter text: the value as written.
    /// - Throws: ``EmbeddingsSettingError`` naming what is accepted.
    public init(parsing text: String) throws(EmbeddingsSettingError) {
        switch text {
        case "vertex": self = .vertex
        case "hashing": self = .hashing
        default:
            guard Self.isURL(text) else { throw EmbeddingsSettingError(value: text) }
            self = .http(url: text, models: [:], apiKeyVariable: nil)
        }
    }

    /// `vertex`, `hashing`, or the URL: the setting as a user writes it.
    public var name: String {
        switch self {
        case .vertex: "vertex"
        case .hashing: "hashing"
        case .http(let url, _, _): url
        }
    }

    /// Whether `text` is an `http://` or `https://` URL with something after the scheme.
    public static func isURL(_ text: String) -> Bool {
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            return !rest.isEmpty && !rest.hasPrefix("/") && !rest.contains(where: \.isWhitespace)
        }
        return false
    }

    /// Whether `name` can name an environment variable: letters, digits and `_`, not starting with a digit.
    public static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }
}

/// A value that is not an embeddings setting.
public struct EmbeddingsSettingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value as written.
    public var value: String

    /// Creates an error.
    public init(value: String) {
        self.value = value
    }

    /// `expected vertex, hashing or an http:// or https:// URL, got "x"`.
    public var description: String {
        "expected vertex, hashing or an http:// or https:// URL, got \"\(value)\""
    }
}
