import DataConnectSchema
import DataConnectWire

/// One text to embed: the `{model, text}` of a `Vector_Embed` value and what the text is for.
struct EmbeddingKey: Hashable, Sendable {
    var model: String
    var text: String
    var purpose: EmbeddingPurpose

    /// Reads a `Vector_Embed` value.
    ///
    /// - Throws: ``ExecutionError`` (400) when the value is not `{model: String, text: String}`.
    init(_ value: JSONValue, purpose: EmbeddingPurpose) throws(ExecutionError) {
        guard case .string(let model)? = value["model"], case .string(let text)? = value["text"] else {
            throw .badInput("a Vector_Embed value is {model: String!, text: String!}, got \(value.jsonString())")
        }
        self.model = model
        self.text = text
        self.purpose = purpose
    }
}

/// The vectors of a request's `<field>_embed` and `compare_embed` values.
struct EmbeddedTexts: Sendable {
    var vectors: [EmbeddingKey: [Double]] = [:]
}

extension Table {
    /// The `Vector` column that `<column>_embed` in `X_Data` writes, when `key` names one (and no column is
    /// called `key` itself).
    func embeddedColumn(_ key: String) -> Column? {
        guard key.hasSuffix("_embed"), column(key) == nil,
            let column = column(String(key.dropLast("_embed".count))),
            column.type == .scalar(.vector), !column.isList
        else { return nil }
        return column
    }
}

extension FieldNode {
    /// Whether the node's arguments may hold `Vector_Embed` values: a similarity field (`compare_embed`) or a
    /// write whose `data` may hold `<field>_embed`.
    ///
    /// - Parameter vectorTables: the tables with a `Vector` column.
    func mayEmbed(vectorTables: Set<String>) -> Bool {
        switch role {
        case .similarity: true
        case .insert(let name), .insertMany(let name), .upsert(let name), .upsertMany(let name), .update(let name),
            .updateMany(let name):
            vectorTables.contains(name)
        default: false
        }
    }
}

extension Execution {
    /// The message when an operation embeds a text and no provider is configured.
    static let noEmbeddingProvider =
        "embedding a text (_embed, compare_embed) needs an embedding provider: start the emulator with "
        + "--embeddings hashing (offline), vertex (Vertex AI) or the URL of a /v1/embeddings server, or set "
        + "emulator.embeddings in dataconnect.yaml"

    /// Computes the vector of every `Vector_Embed` value the request gives, before it holds a connection (on
    /// SQLite a mutation would otherwise hold the only writer while the provider answers): one provider call
    /// per model and purpose, each text once.
    ///
    /// - Throws: ``ExecutionError`` for the whole request: no provider, a malformed value, the provider's
    ///   failure with its status.
    func embedTexts() throws(ExecutionError) -> EmbeddedTexts {
        var wanted: [EmbeddingKey] = []
        var seen: Set<EmbeddingKey> = []
        func want(_ value: JSONValue, _ purpose: EmbeddingPurpose) throws(ExecutionError) {
            if case .null = value { return }
            let key = try EmbeddingKey(value, purpose: purpose)
            if seen.insert(key).inserted { wanted.append(key) }
        }
        let model = engine.service.api.model
        for node in operation.embeddingNodes where !resolution.skipped.contains(node.id) {
            guard let arguments = resolution.arguments[node.id] else { continue }
            switch node.role {
            case .similarity:
                if let embed = arguments["compare_embed"] { try want(resolution.json(embed), .query) }
            case .insert(let name), .insertMany(let name), .upsert(let name), .upsertMany(let name),
                .update(let name), .updateMany(let name):
                guard let table = model.table(name), let data = arguments["data"] else { continue }
                let json = resolution.json(data)
                for object in json.arrayValue ?? [json] {
                    guard case .object(let fields) = object else { continue }
                    for (key, value) in fields where table.embeddedColumn(key) != nil {
                        try want(value, .document)
                    }
                }
            default:
                continue
            }
        }
        var embedded = EmbeddedTexts()
        guard !wanted.isEmpty else { return embedded }
        var groups: [(model: String, purpose: EmbeddingPurpose, keys: [EmbeddingKey])] = []
        for key in wanted {
            if let index = groups.firstIndex(where: { $0.model == key.model && $0.purpose == key.purpose }) {
                groups[index].keys.append(key)
            } else {
                groups.append((key.model, key.purpose, [key]))
            }
        }
        for group in groups {
            let vectors = try Self.embed(
                group.keys.map(\.text), model: group.model, purpose: group.purpose, with: engine.embeddings,
                deadline: budget.deadline)
            for (key, vector) in zip(group.keys, vectors) { embedded.vectors[key] = vector }
        }
        return embedded
    }

    /// Asks the provider for the texts' vectors.
    ///
    /// - Throws: ``ExecutionError`` for the whole request with the provider's status, or `FAILED_PRECONDITION`
    ///   when no provider is configured.
    static func embed(
        _ texts: [String], model: String, purpose: EmbeddingPurpose, with provider: (any EmbeddingProvider)?,
        deadline: ContinuousClock.Instant
    ) throws(ExecutionError) -> [[Double]] {
        guard let provider else {
            throw ExecutionError(code: .failedPrecondition, message: noEmbeddingProvider, isRequestLevel: true)
        }
        let vectors: [[Double]]
        do {
            vectors = try provider.embed(texts, model: model, purpose: purpose, deadline: deadline)
        } catch {
            throw ExecutionError(code: error.code, message: error.message, isRequestLevel: true)
        }
        guard vectors.count == texts.count else {
            throw ExecutionError(
                code: .unknown,
                message: "the embedding provider (\(provider.summary)) answered \(vectors.count) vectors for "
                    + "\(texts.count) texts",
                isRequestLevel: true)
        }
        guard vectors.allSatisfy({ $0.allSatisfy(\.isFinite) }) else {
            throw ExecutionError(
                code: .unknown,
                message: "the embedding provider (\(provider.summary)) answered a vector with a number that is not "
                    + "finite",
                isRequestLevel: true)
        }
        return vectors
    }
}
