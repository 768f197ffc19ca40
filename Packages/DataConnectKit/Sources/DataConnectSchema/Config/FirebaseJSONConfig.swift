import GraphQLLanguage

/// The parts of a project's `firebase.json` that Data Connect reads.
///
/// ```json
/// {
///   "dataconnect": {"source": "dataconnect"},
///   "emulators": {"dataconnect": {"port": 9399, "dataDir": "dataconnect/.dataconnect/pgliteData"},
///                 "auth": {"port": 9099}}
/// }
/// ```
///
/// `firebase.json` configures many products, so unknown keys are reported only inside the sections
/// read here (`dataconnect` entries and `emulators.dataconnect`). The file is read with ``YAMLParser``
/// (JSON is flow-style YAML), so diagnostics carry lines and columns.
public struct FirebaseJSONConfig: Hashable, Sendable {
    /// `emulators.dataconnect`.
    public struct DataConnectEmulator: Hashable, Sendable {
        /// The default port, 9399.
        public static let defaultPort = 9399
        /// The host to listen on; default `127.0.0.1`.
        public var host: String
        /// The port; default 9399.
        public var port: Int
        /// Where data persists; `nil` means in memory.
        public var dataDir: String?
        /// An external Postgres host, if given.
        public var postgresHost: String?
        /// An external Postgres port, if given.
        public var postgresPort: Int?

        /// Creates emulator settings.
        public init(
            host: String = "127.0.0.1", port: Int = DataConnectEmulator.defaultPort, dataDir: String? = nil,
            postgresHost: String? = nil, postgresPort: Int? = nil
        ) {
            self.host = host
            self.port = port
            self.dataDir = dataDir
            self.postgresHost = postgresHost
            self.postgresPort = postgresPort
        }
    }

    /// `dataconnect.source`, or every `source` of the array form: folders holding `dataconnect.yaml`,
    /// relative to `firebase.json`. Empty when `firebase.json` has no `dataconnect` key.
    public var dataconnectSources: [String]
    /// `emulators.dataconnect`, with defaults when absent.
    public var emulator: DataConnectEmulator
    /// `emulators.auth.port`, if the Auth emulator is configured.
    public var authEmulatorPort: Int?

    /// Creates a configuration.
    public init(
        dataconnectSources: [String] = [], emulator: DataConnectEmulator = DataConnectEmulator(),
        authEmulatorPort: Int? = nil
    ) {
        self.dataconnectSources = dataconnectSources
        self.emulator = emulator
        self.authEmulatorPort = authEmulatorPort
    }

    /// Parses the text of a `firebase.json`.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - file: The name printed in diagnostics.
    /// - Returns: The configuration (`nil` when any error was found) and every diagnostic.
    public static func parse(_ text: String, file: String) -> (config: FirebaseJSONConfig?, diagnostics: [Diagnostic]) {
        do {
            return decode(try YAMLParser.parse(text, file: file), file: file)
        } catch {
            return (nil, [error])
        }
    }

    /// Decodes an already parsed `firebase.json`.
    ///
    /// - Parameters:
    ///   - root: The document's root node.
    ///   - file: The name printed in diagnostics.
    /// - Returns: The configuration (`nil` when any error was found) and every diagnostic.
    public static func decode(
        _ root: YAMLNode, file: String
    ) -> (config: FirebaseJSONConfig?, diagnostics: [Diagnostic]) {
        var decoder = ConfigDecoder(file: file, documentName: "firebase.json")
        guard let top = decoder.root(root) else { return (nil, decoder.diagnostics) }
        var config = FirebaseJSONConfig()

        if let dataconnect = top.value("dataconnect") {
            config.dataconnectSources = decodeSources(dataconnect, decoder: &decoder)
        }
        if let emulators = decoder.optionalMapping(top, "emulators") {
            if let settings = decoder.optionalMapping(emulators, "dataconnect") {
                decoder.checkKeys(settings, known: ["host", "port", "dataDir", "postgresHost", "postgresPort"])
                let ports = 1...65535
                config.emulator = DataConnectEmulator(
                    host: decoder.optionalString(settings, "host") ?? "127.0.0.1",
                    port: decoder.optionalInt(settings, "port", in: ports) ?? DataConnectEmulator.defaultPort,
                    dataDir: decoder.optionalString(settings, "dataDir"),
                    postgresHost: decoder.optionalString(settings, "postgresHost"),
                    postgresPort: decoder.optionalInt(settings, "postgresPort", in: ports))
            }
            if let auth = decoder.optionalMapping(emulators, "auth") {
                config.authEmulatorPort = decoder.optionalInt(auth, "port", in: 1...65535)
            }
        }
        guard !decoder.diagnostics.containsErrors else { return (nil, decoder.diagnostics) }
        return (config, decoder.diagnostics)
    }

    /// `"dataconnect": {"source": …}` or `"dataconnect": [{"source": …}, …]`.
    private static func decodeSources(_ node: YAMLNode, decoder: inout ConfigDecoder) -> [String] {
        let entries: [(YAMLNode, String)] =
            node.items.map { items in
                items.enumerated().map { ($0.element, ConfigDecoder.path("dataconnect", index: $0.offset)) }
            } ?? [(node, "dataconnect")]
        var sources: [String] = []
        for (entry, path) in entries {
            guard let mapping = decoder.mapping(entry, path: path) else { continue }
            decoder.checkKeys(mapping, known: ["source", "predeploy", "postdeploy"])
            if let source = decoder.requiredString(mapping, "source") {
                sources.append(source)
            }
        }
        return sources
    }
}
