import DataConnectEngine
import DataConnectSchema
import DataConnectWire
import OutboundHTTP
import Synchronization

/// The embedding provider of the engines an emulator builds: from ``Emulator/Options/embeddings`` when set (the
/// `--embeddings` flag), else from the served service's `dataconnect.yaml` (`emulator.embeddings`).
///
/// A provider is kept while neither its setting nor the service's location changes, so a reload keeps, for one, a
/// service account's access token. Each change is logged once, with the provider's summary (never a credential).
final class EmbeddingProviders: Sendable {
    /// What `/emulator/info` reports: the kind (`vertex`, `hashing`, `http`, `none`) and the provider's summary.
    struct Report: Sendable, Equatable {
        var kind: String
        var summary: String?

        /// As JSON: `{"provider": kind, "summary": …}`.
        var json: JSONValue {
            var object: JSONObject = ["provider": .string(kind)]
            if let summary { object["summary"] = .string(summary) }
            return .object(object)
        }
    }

    /// What a provider was made from.
    private struct Key: Equatable {
        var setting: EmbeddingsSetting
        var location: String
    }

    /// The provider in use, with what it was made from; `nil` before the first call.
    private struct Current {
        var key: Key?
        var provider: (any EmbeddingProvider)?
    }

    private let option: EmbeddingsSetting?
    private let environment: [String: String]
    private let transport: any HTTPTransport
    private let log: @Sendable (String) -> Void
    private let current = Mutex<Current?>(nil)

    /// Creates the chooser.
    ///
    /// - Parameters:
    ///   - option: the setting that wins over every service's own.
    ///   - environment: what the providers read their settings and credentials from.
    ///   - transport: what the providers call out through.
    ///   - log: where a change of provider is reported.
    init(
        option: EmbeddingsSetting?, environment: [String: String], transport: any HTTPTransport,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.option = option
        self.environment = environment
        self.transport = transport
        self.log = log
    }

    /// The provider for a service: the one in use when nothing changed, else a new one (logged).
    func provider(for service: CompiledService) -> (any EmbeddingProvider)? {
        let config = service.project.config
        let key = (option ?? config.emulator.embeddings).map { Key(setting: $0, location: config.location) }
        let (provider, changed) = current.withLock { current -> ((any EmbeddingProvider)?, Bool) in
            if let current, current.key == key { return (current.provider, false) }
            let made = key.map { make($0.setting, location: $0.location) }
            current = Current(key: key, provider: made)
            return (made, true)
        }
        if changed {
            log(
                provider.map { "embeddings: \($0.summary)" }
                    ?? "embeddings: none (_embed and compare_embed answer FAILED_PRECONDITION; choose a provider with "
                    + "--embeddings vertex|hashing|URL or emulator.embeddings in dataconnect.yaml)")
        }
        return provider
    }

    /// What `/emulator/info` reports for the provider in use.
    var report: Report {
        current.withLock { current in
            guard let key = current?.key, let provider = current?.provider else { return Report(kind: "none") }
            let kind =
                switch key.setting {
                case .vertex: "vertex"
                case .hashing: "hashing"
                case .http: "http"
                }
            return Report(kind: kind, summary: provider.summary)
        }
    }

    /// A provider for a setting.
    private func make(_ setting: EmbeddingsSetting, location: String) -> any EmbeddingProvider {
        switch setting {
        case .vertex:
            VertexEmbeddings(environment: environment, serviceLocation: location, transport: transport)
        case .hashing:
            HashingEmbeddings()
        case .http(let url, let models, let apiKeyVariable):
            HTTPEmbeddings(
                url: url, models: models, apiKeyVariable: apiKeyVariable, environment: environment,
                transport: transport)
        }
    }
}
