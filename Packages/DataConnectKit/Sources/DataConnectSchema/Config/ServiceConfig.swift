import GraphQLLanguage

/// A service's `dataconnect.yaml`: its id, location, schema folder and datasource, and connector folders.
///
/// ```yaml
/// specVersion: "v1"
/// serviceId: "movies"
/// location: "us-central1"
/// schema:
///   source: "./schema"
///   datasource:
///     postgresql:
///       database: "movies"
/// connectorDirs: ["./connector"]
/// emulator:                      # ours: read by the emulator only
///   embeddings: vertex
/// ```
///
/// Both the single `schema:` form and the multi-schema `schemas: [{id, source, datasource}]` form load;
/// in the latter the main schema has id `"main"` or no id, and the others are kept in
/// ``secondarySchemas``.
///
/// ```swift
/// let (config, diagnostics) = ServiceConfig.parse(text, file: "Backend/movies/dataconnect.yaml")
/// ```
public struct ServiceConfig: Hashable, Sendable {
    /// The `specVersion` values that load. Absent means ``v1``.
    public enum SpecVersion: String, Hashable, Sendable, CaseIterable {
        /// The current version.
        case v1
        /// Older projects.
        case v1beta
        /// The oldest projects.
        case v1alpha
    }

    /// Cloud SQL's migration check; only relevant in production.
    public enum SchemaValidation: String, Hashable, Sendable, CaseIterable {
        /// The database must match the schema exactly.
        case strict = "STRICT"
        /// The database may hold more than the schema needs.
        case compatible = "COMPATIBLE"
    }

    /// `cloudSql:` under a PostgreSQL datasource.
    public struct CloudSQL: Hashable, Sendable {
        /// The Cloud SQL instance id.
        public var instanceId: String?
        /// The migration check, if set.
        public var schemaValidation: SchemaValidation?

        /// Creates Cloud SQL settings.
        public init(instanceId: String? = nil, schemaValidation: SchemaValidation? = nil) {
            self.instanceId = instanceId
            self.schemaValidation = schemaValidation
        }
    }

    /// `datasource.postgresql`: where a schema's tables live.
    public struct PostgreSQL: Hashable, Sendable {
        /// The database name; default `postgres`. The emulator creates it if missing.
        public var database: String
        /// The Postgres schema; default `public`.
        public var schema: String
        /// Cloud SQL settings, if given.
        public var cloudSQL: CloudSQL?

        /// Creates PostgreSQL settings.
        public init(database: String = "postgres", schema: String = "public", cloudSQL: CloudSQL? = nil) {
            self.database = database
            self.schema = schema
            self.cloudSQL = cloudSQL
        }
    }

    /// `datasource.httpGraphql`: a secondary schema served by another GraphQL endpoint.
    public struct HTTPGraphQL: Hashable, Sendable {
        /// The endpoint URI.
        public var uri: String
        /// The request timeout, if given (e.g. `"30s"`).
        public var timeout: ConfigDuration?

        /// Creates HTTP GraphQL settings.
        public init(uri: String, timeout: ConfigDuration? = nil) {
            self.uri = uri
            self.timeout = timeout
        }
    }

    /// Where a schema's data comes from.
    public enum Datasource: Hashable, Sendable {
        /// A PostgreSQL database (SQLite in our emulator).
        case postgresql(PostgreSQL)
        /// A remote GraphQL endpoint (secondary schemas only).
        case httpGraphQL(HTTPGraphQL)
    }

    /// `emulator:`, a section of our own (upstream's file has none): how the local emulator runs this service.
    public struct EmulatorSettings: Hashable, Sendable {
        /// `embeddings`: the provider of `_embed` vectors; `nil` when unset (then `_embed` answers
        /// `FAILED_PRECONDITION` unless `dataconnect emulator --embeddings` names one).
        public var embeddings: EmbeddingsSetting?

        /// Creates emulator settings.
        public init(embeddings: EmbeddingsSetting? = nil) {
            self.embeddings = embeddings
        }
    }

    /// One schema: its id, folder and datasource.
    public struct Schema: Hashable, Sendable {
        /// The id from the multi-schema form; `nil` in the single `schema:` form.
        public var id: String?
        /// The folder of `.gql` files, relative to `dataconnect.yaml`; default `./schema`.
        public var source: String
        /// The datasource; default PostgreSQL with database `postgres`.
        public var datasource: Datasource

        /// Creates a schema entry.
        public init(id: String? = nil, source: String = "./schema", datasource: Datasource = .postgresql(PostgreSQL()))
        {
            self.id = id
            self.source = source
            self.datasource = datasource
        }

        /// Whether this is the main schema (id `"main"` or no id).
        public var isMain: Bool { id == nil || id == "main" }

        /// The PostgreSQL settings, if the datasource is PostgreSQL.
        public var postgresql: PostgreSQL? {
            if case .postgresql(let settings) = datasource { return settings }
            return nil
        }
    }

    /// `specVersion`; default ``SpecVersion/v1``.
    public var specVersion: SpecVersion
    /// `serviceId`: the service name used in URLs and in `ConnectorConfig.serviceId`.
    public var serviceId: String
    /// `location`: the region, e.g. `us-central1` (the emulator ignores it in URLs).
    public var location: String
    /// The main schema (`schema:`, or the main entry of `schemas:`).
    public var schema: Schema
    /// The other entries of `schemas:`, in file order.
    public var secondarySchemas: [Schema]
    /// `connectorDirs`: connector folders relative to `dataconnect.yaml`.
    public var connectorDirs: [String]
    /// `emulator:`: the emulator's settings; empty when the section is absent.
    public var emulator: EmulatorSettings

    /// Creates a service configuration.
    public init(
        specVersion: SpecVersion = .v1, serviceId: String, location: String, schema: Schema = Schema(),
        secondarySchemas: [Schema] = [], connectorDirs: [String] = [], emulator: EmulatorSettings = EmulatorSettings()
    ) {
        self.specVersion = specVersion
        self.serviceId = serviceId
        self.location = location
        self.schema = schema
        self.secondarySchemas = secondarySchemas
        self.connectorDirs = connectorDirs
        self.emulator = emulator
    }

    /// Parses the text of a `dataconnect.yaml`.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - file: The name printed in diagnostics, e.g. `Backend/movies/dataconnect.yaml`.
    /// - Returns: The configuration (`nil` when any error was found) and every diagnostic; unknown keys
    ///   are warnings.
    public static func parse(_ text: String, file: String) -> (config: ServiceConfig?, diagnostics: [Diagnostic]) {
        do {
            return decode(try YAMLParser.parse(text, file: file), file: file)
        } catch {
            return (nil, [error])
        }
    }

    /// Decodes an already parsed `dataconnect.yaml`.
    ///
    /// - Parameters:
    ///   - root: The document's root node.
    ///   - file: The name printed in diagnostics.
    /// - Returns: The configuration (`nil` when any error was found) and every diagnostic.
    public static func decode(_ root: YAMLNode, file: String) -> (config: ServiceConfig?, diagnostics: [Diagnostic]) {
        var decoder = ConfigDecoder(file: file, documentName: "dataconnect.yaml")
        guard let top = decoder.root(root) else { return (nil, decoder.diagnostics) }
        decoder.checkKeys(
            top, known: ["specVersion", "serviceId", "location", "schema", "schemas", "connectorDirs", "emulator"])

        let specVersion = decoder.optionalEnum(top, "specVersion", as: SpecVersion.self) ?? .v1
        let serviceId = decoder.requiredString(top, "serviceId")
        let location = decoder.requiredString(top, "location")
        let connectorDirs = decoder.optionalStringList(top, "connectorDirs") ?? []

        var mainSchema = Schema()
        var secondary: [Schema] = []
        if let schemasNode = top.value("schemas") {
            if top.value("schema") != nil {
                decoder.error("use either \"schema\" or \"schemas\", not both", at: top.keyLocation("schema"))
            }
            (mainSchema, secondary) = decodeSchemas(schemasNode, decoder: &decoder)
        } else if let schemaMapping = decoder.optionalMapping(top, "schema") {
            mainSchema = decodeSchema(schemaMapping, decoder: &decoder, allowsId: false)
        }

        var emulator = EmulatorSettings()
        if let section = decoder.optionalMapping(top, "emulator") {
            emulator = decodeEmulator(section, decoder: &decoder)
        }

        guard !decoder.diagnostics.containsErrors, let serviceId, let location else {
            return (nil, decoder.diagnostics)
        }
        let config = ServiceConfig(
            specVersion: specVersion, serviceId: serviceId, location: location, schema: mainSchema,
            secondarySchemas: secondary, connectorDirs: connectorDirs, emulator: emulator)
        return (config, decoder.diagnostics)
    }

    /// `schemas: [...]`: exactly one main entry, unique ids, secondary entries need an explicit source.
    private static func decodeSchemas(_ node: YAMLNode, decoder: inout ConfigDecoder) -> (Schema, [Schema]) {
        guard let items = node.items else {
            decoder.error("expected a list for \"schemas\", found \(node.kindDescription)", at: node.location)
            return (Schema(), [])
        }
        var main: Schema?
        var secondary: [Schema] = []
        var seenIds: Set<String> = []
        for (index, item) in items.enumerated() {
            let path = ConfigDecoder.path("schemas", index: index)
            guard let mapping = decoder.mapping(item, path: path) else { continue }
            let schema = decodeSchema(mapping, decoder: &decoder, allowsId: true)
            let id = schema.id ?? "main"
            if !seenIds.insert(id).inserted {
                decoder.error("duplicate schema id \"\(id)\" in \"schemas\"", at: item.location)
                continue
            }
            if schema.isMain {
                main = schema
            } else {
                if mapping.value("source") == nil {
                    decoder.missing(mapping, "source")
                }
                if case .postgresql = schema.datasource {
                    decoder.error(
                        "schema \"\(id)\" must use an httpGraphql datasource (only the main schema is stored in PostgreSQL)",
                        at: item.location)
                }
                secondary.append(schema)
            }
        }
        if main == nil {
            decoder.error("\"schemas\" has no main schema (an entry with id \"main\" or no id)", at: node.location)
        }
        if case .httpGraphQL = main?.datasource {
            decoder.error("the main schema must use a postgresql datasource", at: node.location)
        }
        return (main ?? Schema(), secondary)
    }

    /// One `schema:` mapping, or one entry of `schemas:`.
    private static func decodeSchema(_ mapping: ConfigMapping, decoder: inout ConfigDecoder, allowsId: Bool) -> Schema {
        decoder.checkKeys(mapping, known: allowsId ? ["id", "source", "datasource"] : ["source", "datasource"])
        var schema = Schema()
        if allowsId {
            schema.id = decoder.optionalString(mapping, "id")
        }
        schema.source = decoder.optionalString(mapping, "source") ?? "./schema"
        if let datasource = decoder.optionalMapping(mapping, "datasource") {
            decoder.checkKeys(datasource, known: ["postgresql", "httpGraphql"])
            let postgres = decoder.optionalMapping(datasource, "postgresql")
            let http = decoder.optionalMapping(datasource, "httpGraphql")
            if postgres != nil && http != nil {
                decoder.error(
                    "\"\(datasource.path)\" must have exactly one of \"postgresql\" and \"httpGraphql\"",
                    at: datasource.location)
            }
            if let http {
                decoder.checkKeys(http, known: ["uri", "timeout"])
                let uri = decoder.requiredString(http, "uri") ?? ""
                if !uri.isEmpty && !uri.hasPrefix("http://") && !uri.hasPrefix("https://") {
                    decoder.error(
                        "\"\(http.path).uri\" must be an http:// or https:// URL, found \"\(uri)\"",
                        at: http.value("uri")?.location ?? http.location)
                }
                schema.datasource = .httpGraphQL(
                    HTTPGraphQL(uri: uri, timeout: decoder.optionalDuration(http, "timeout")))
            } else if let postgres {
                schema.datasource = .postgresql(decodePostgreSQL(postgres, decoder: &decoder))
            }
        }
        return schema
    }

    private static func decodePostgreSQL(_ mapping: ConfigMapping, decoder: inout ConfigDecoder) -> PostgreSQL {
        decoder.checkKeys(mapping, known: ["database", "schema", "cloudSql"])
        var settings = PostgreSQL()
        settings.database = decoder.optionalString(mapping, "database") ?? settings.database
        settings.schema = decoder.optionalString(mapping, "schema") ?? settings.schema
        if let cloudSQL = decoder.optionalMapping(mapping, "cloudSql") {
            decoder.checkKeys(cloudSQL, known: ["instanceId", "schemaValidation"])
            settings.cloudSQL = CloudSQL(
                instanceId: decoder.optionalString(cloudSQL, "instanceId"),
                schemaValidation: decoder.optionalEnum(cloudSQL, "schemaValidation", as: SchemaValidation.self))
        }
        return settings
    }

    /// `emulator:`: `embeddings` as `vertex`, `hashing` or a URL, or as `{url, models: {name: serverName}, apiKeyEnv}`.
    private static func decodeEmulator(_ section: ConfigMapping, decoder: inout ConfigDecoder) -> EmulatorSettings {
        decoder.checkKeys(section, known: ["embeddings"])
        var settings = EmulatorSettings()
        guard let node = section.value("embeddings") else { return settings }
        let path = ConfigDecoder.path(section.path, "embeddings")
        if node.pairs == nil {
            guard let text = decoder.string(node, path: path) else { return settings }
            do {
                settings.embeddings = try EmbeddingsSetting(parsing: text)
            } catch {
                decoder.error(
                    "\"\(path)\" must be vertex, hashing, an http:// or https:// URL, or a mapping with "
                        + "\"url\", got \"\(text)\"", at: node.location)
            }
            return settings
        }
        guard let mapping = decoder.mapping(node, path: path) else { return settings }
        decoder.checkKeys(mapping, known: ["url", "models", "apiKeyEnv"])
        let url = decoder.requiredString(mapping, "url")
        if let url, !EmbeddingsSetting.isURL(url) {
            decoder.error(
                "\"\(path).url\" must be an http:// or https:// URL, found \"\(url)\"",
                at: mapping.value("url")?.location ?? mapping.location)
        }
        var models: [String: String] = [:]
        if let modelsMapping = decoder.optionalMapping(mapping, "models") {
            for entry in modelsMapping.entries {
                if let serverName = decoder.string(entry.value, path: ConfigDecoder.path(modelsMapping.path, entry.key))
                {
                    models[entry.key] = serverName
                }
            }
        }
        let variable = decoder.optionalString(mapping, "apiKeyEnv")
        if let variable, !EmbeddingsSetting.isVariableName(variable) {
            decoder.error(
                "\"\(path).apiKeyEnv\" must name an environment variable (letters, digits and _), found \"\(variable)\"",
                at: mapping.value("apiKeyEnv")?.location ?? mapping.location)
        }
        if let url {
            settings.embeddings = .http(url: url, models: models, apiKeyVariable: variable)
        }
        return settings
    }
}
