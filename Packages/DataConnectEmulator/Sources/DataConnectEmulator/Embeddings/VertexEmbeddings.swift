import DataConnectEngine
import DataConnectWire
import Foundation
import OutboundHTTP

/// Embeddings from Vertex AI's `predict` method, the provider `--embeddings vertex` chooses.
///
/// Each call is `POST {endpoint}/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:predict`
/// with `Authorization: Bearer <token>` and the body `{"instances": [{"content": text, "task_type": purpose}]}`, one
/// instance per text; the vectors are `predictions[i].embeddings.values`. Texts beyond what one request may carry
/// (one for `gemini-embedding-*`, 250 otherwise, and about 60,000 bytes of text) go in further requests.
///
/// Which `task_type` Data Connect sends is not documented upstream; here a text stored with `<field>_embed` is a
/// `RETRIEVAL_DOCUMENT` and the text of `compare_embed` a `RETRIEVAL_QUERY` (see ``EmbeddingPurpose``).
///
/// Settings come from the environment:
/// - credentials: `GOOGLE_OAUTH_ACCESS_TOKEN`, else the service account key file of `GOOGLE_APPLICATION_CREDENTIALS`;
/// - the project: `GOOGLE_CLOUD_PROJECT`, else `GCLOUD_PROJECT`, else the key file's `project_id`;
/// - the region: `GOOGLE_CLOUD_LOCATION`, else the service's `location` in `dataconnect.yaml`, else `us-central1`;
/// - the endpoint: `DATACONNECT_VERTEX_ENDPOINT` (a stand-in, a proxy), else
///   `https://{location}-aiplatform.googleapis.com`.
///
/// Missing credentials or project do not stop the emulator: each call then answers `FAILED_PRECONDITION`
/// saying what to set.
///
/// ```swift
/// let vertex = VertexEmbeddings(serviceLocation: "europe-west1", transport: LiveHTTPTransport())
/// let vectors = try vertex.embed(
///     ["a quiet thriller"], model: "text-embedding-004", purpose: .query, deadline: .now + .seconds(30))
/// ```
public final class VertexEmbeddings: EmbeddingProvider {
    /// The variables read, besides the credentials'.
    public static let projectVariables = ["GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"]
    /// The region's variable.
    public static let locationVariable = "GOOGLE_CLOUD_LOCATION"
    /// The endpoint's variable.
    public static let endpointVariable = "DATACONNECT_VERTEX_ENDPOINT"
    /// The region without one in the environment or `dataconnect.yaml`.
    public static let defaultLocation = "us-central1"
    /// The most bytes of text sent in one request: Vertex AI takes 20,000 tokens per request, and a token is
    /// about 4 bytes of English text, so this stays under the limit with a margin for denser text.
    static let maximumBytesPerRequest = 60_000

    /// The Google Cloud project, `nil` when nothing names one.
    public let project: String?
    /// The Vertex AI region.
    public let location: String
    /// The scheme and host calls go to, without a trailing `/`.
    public let endpoint: String
    /// The credentials, or why there are none.
    let credentials: Result<GoogleCredentials, EmbeddingError>
    private let transport: any HTTPTransport

    /// Reads the settings from the environment.
    ///
    /// - Parameters:
    ///   - environment: the process environment by default.
    ///   - serviceLocation: the service's `location` in `dataconnect.yaml`, the region when the environment
    ///     names none.
    ///   - endpoint: the scheme and host to call instead of Google's (overrides `DATACONNECT_VERTEX_ENDPOINT`).
    ///   - transport: what the calls, and the token exchange, go through.
    ///   - now: the wall clock, for service account JWTs.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, serviceLocation: String? = nil,
        endpoint: String? = nil, transport: any HTTPTransport, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        let credentials = Result { () throws(EmbeddingError) in
            try GoogleCredentials.fromEnvironment(environment, transport: transport, now: now)
        }
        let location =
            value(Self.locationVariable) ?? serviceLocation.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultLocation
        let host = location == "global" ? "aiplatform.googleapis.com" : "\(location)-aiplatform.googleapis.com"
        var base = endpoint ?? value(Self.endpointVariable) ?? "https://\(host)"
        while base.hasSuffix("/") { base.removeLast() }
        self.credentials = credentials
        self.location = location
        self.endpoint = base
        self.project = Self.projectVariables.lazy.compactMap(value).first ?? (try? credentials.get())?.projectID
        self.transport = transport
    }

    /// `vertex (project p, location l, service account a@p.iam.gserviceaccount.com)`, with what is missing.
    public var summary: String {
        var parts = [project.map { "project \($0)" } ?? "no project", "location \(location)"]
        switch credentials {
        case .success(let credentials): parts.append(credentials.summary)
        case .failure: parts.append("no usable credentials")
        }
        if endpoint != "https://\(location)-aiplatform.googleapis.com", endpoint != "https://aiplatform.googleapis.com"
        {
            parts.append("endpoint \(endpoint)")
        }
        return "vertex (\(parts.joined(separator: ", ")))"
    }

    /// The URL of a model's `predict` method.
    func predictURL(project: String, model: String) -> String {
        "\(endpoint)/v1/projects/\(project)/locations/\(location)/publishers/google/models/\(model):predict"
    }

    /// How many instances one request of the model may carry.
    static func maximumInstances(for model: String) -> Int {
        model.hasPrefix("gemini-embedding") ? 1 : 250
    }

    public func embed(
        _ texts: [String], model: String, purpose: EmbeddingPurpose, deadline: ContinuousClock.Instant
    ) throws(EmbeddingError) -> [[Double]] {
        let credentials = try self.credentials.get()
        guard let project else {
            throw EmbeddingError(
                code: .failedPrecondition,
                message: "vertex needs a Google Cloud project: set \(Self.projectVariables[0]) (or use a service "
                    + "account key file that names its project_id)")
        }
        guard !model.isEmpty, model.unicodeScalars.allSatisfy(Self.isModelCharacter) else {
            throw EmbeddingError(code: .invalidArgument, message: "vertex: \"\(model)\" is not a model name")
        }
        let url = predictURL(project: project, model: model)
        var vectors: [[Double]] = []
        vectors.reserveCapacity(texts.count)
        for batch in Self.batches(of: texts, maximumInstances: Self.maximumInstances(for: model)) {
            vectors += try predict(
                batch, url: url, model: model, purpose: purpose, credentials: credentials, deadline: deadline)
        }
        return vectors
    }

    /// Texts split into requests: at most `maximumInstances` each and, past the first text, at most
    /// ``maximumBytesPerRequest`` bytes.
    static func batches(of texts: [String], maximumInstances: Int) -> [ArraySlice<String>] {
        var batches: [ArraySlice<String>] = []
        var start = texts.startIndex
        var bytes = 0
        for index in texts.indices {
            let size = texts[index].utf8.count
            if index > start && (index - start >= maximumInstances || bytes + size > maximumBytesPerRequest) {
                batches.append(texts[start..<index])
                start = index
                bytes = 0
            }
            bytes += size
        }
        if start < texts.endIndex { batches.append(texts[start...]) }
        return batches
    }

    /// One `predict` call.
    private func predict(
        _ texts: ArraySlice<String>, url: String, model: String, purpose: EmbeddingPurpose,
        credentials: GoogleCredentials, deadline: ContinuousClock.Instant
    ) throws(EmbeddingError) -> [[Double]] {
        let token = try credentials.accessToken(deadline: deadline)
        let instances = texts.map { text -> JSONValue in
            ["content": .string(text), "task_type": .string(purpose.rawValue)]
        }
        let request = OutboundRequest(
            method: "POST", url: url,
            headers: [
                (name: "Authorization", value: "Bearer \(token)"), (name: "Content-Type", value: "application/json"),
                (name: "Accept", value: "application/json"),
            ],
            body: JSONValue.object(["instances": .array(instances)]).serialized())
        let provider = "vertex at \(url)"
        let response: OutboundResponse
        do {
            response = try transport.send(request, deadline: deadline)
        } catch {
            throw ProviderAnswers.error(for: error, provider: provider)
        }
        guard (200..<300).contains(response.status) else {
            if response.status == 401 { credentials.invalidate() }
            throw ProviderAnswers.error(
                for: response, provider: provider, model: model,
                credentials: "check \(credentials.summary) and that Vertex AI is enabled for project \(project ?? "")")
        }
        let json = try ProviderAnswers.json(response, provider: provider)
        guard let predictions = json["predictions"]?.arrayValue, predictions.count == texts.count else {
            throw EmbeddingError(
                code: .unknown,
                message: "\(provider) answered without one prediction per text (\(texts.count) sent)")
        }
        var vectors: [[Double]] = []
        for prediction in predictions {
            guard let vector = ProviderAnswers.vector(prediction["embeddings"]?["values"]) else {
                throw EmbeddingError(
                    code: .unknown, message: "\(provider) answered a prediction without embeddings.values")
            }
            vectors.append(vector)
        }
        return vectors
    }

    /// Letters, digits, `@`, `.`, `_` and `-`: what model ids are made of, and nothing that changes the URL.
    private static func isModelCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "@._-".unicodeScalars.contains(scalar))
    }
}
