import GraphQLLanguage

/// A connector's `connector.yaml`: its id and the SDKs to generate for it.
///
/// ```yaml
/// connectorId: "movies"
/// generate:
///   swiftSdk:
///     outputDir: "../../../Apps"
///     package: "FirebaseDataConnectGenerated"
///     observablePublisher: observableMacro
///     clientCache:
///       maxAge: 30s
///       storage: memory
/// ```
///
/// `generate.swiftSdk` may be one object or a list of objects. The other generators
/// (`javascriptSdk`, `kotlinSdk`, `dartSdk`, `adminNodeSdk`, `llmTools`) are accepted and kept raw in
/// ``otherGenerators``, each with a warning naming its key: this tool generates Swift only, the others come from
/// firebase-tools. Any other key under `generate` is warned about too. `authMode` is a legacy key: accepted and
/// ignored.
///
/// ```swift
/// let (manifest, diagnostics) = ConnectorManifest.parse(text, file: "Backend/movies/connector/connector.yaml")
/// manifest?.swiftSDKs.first?.package   // "FirebaseDataConnectGenerated"
/// ```
public struct ConnectorManifest: Hashable, Sendable {
    /// How generated query refs are observable.
    public enum ObservablePublisher: String, Hashable, Sendable, CaseIterable {
        /// The `@Observable` macro (the default).
        case observableMacro
        /// `ObservableObject` with `@Published` (needs Combine; not available on Linux).
        case observableObject
    }

    /// `clientCache:` for a generated SDK. Present (even as `{}`) means the cache is enabled.
    public struct ClientCache: Hashable, Sendable {
        /// Where cached responses live.
        public enum Storage: String, Hashable, Sendable, CaseIterable {
            /// On disk; survives app restarts (the default).
            case persistent
            /// In memory only.
            case memory
        }

        /// How old a cached response may be before the SDK fetches again; default `"0"`.
        public var maxAge: ConfigDuration
        /// Where cached responses live; default ``Storage/persistent``.
        public var storage: Storage
        /// The largest cache, if limited (e.g. `"100MB"`). **[ext]**: the upstream Swift SDK has no counterpart.
        public var maxSize: ConfigByteSize?

        /// Creates cache settings; the defaults are those of `clientCache: {}`.
        public init(maxAge: ConfigDuration = .zero, storage: Storage = .persistent, maxSize: ConfigByteSize? = nil) {
            self.maxAge = maxAge
            self.storage = storage
            self.maxSize = maxSize
        }
    }

    /// One `generate.swiftSdk` entry.
    public struct SwiftSDK: Hashable, Sendable {
        /// Where the package goes, relative to `connector.yaml`: output is `<outputDir>/<package>/`.
        public var outputDir: String
        /// The package name, also its target name.
        public var package: String
        /// How query refs are observable; default ``ObservablePublisher/observableMacro``.
        public var observablePublisher: ObservablePublisher
        /// Cache settings, or `nil` when `clientCache` is absent (the cache is then off).
        public var clientCache: ClientCache?
        /// A local path to the core SDK package, relative to `connector.yaml`, if given.
        public var coreSdkPackageLocation: String?
        /// `coreSdkPackageURL` **[ext]**: the URL of the core SDK package (for example the installed toolkit's
        /// `file:///usr/local/share/dataconnect/DataConnect.git`), used with ``coreSdkVersion`` when
        /// ``coreSdkPackageLocation`` is absent.
        public var coreSdkPackageURL: String?
        /// `coreSdkVersion` **[ext]**: the exact version of the package at ``coreSdkPackageURL`` the generated package
        /// depends on, e.g. `0.3.0`.
        public var coreSdkVersion: String?
        /// Where the entry starts in `connector.yaml`, for later diagnostics.
        public var location: SourceLocation

        /// Creates a Swift SDK entry.
        public init(
            outputDir: String, package: String, observablePublisher: ObservablePublisher = .observableMacro,
            clientCache: ClientCache? = nil, coreSdkPackageLocation: String? = nil, coreSdkPackageURL: String? = nil,
            coreSdkVersion: String? = nil, location: SourceLocation = SourceLocation(line: 1, column: 1)
        ) {
            self.outputDir = outputDir
            self.package = package
            self.observablePublisher = observablePublisher
            self.clientCache = clientCache
            self.coreSdkPackageLocation = coreSdkPackageLocation
            self.coreSdkPackageURL = coreSdkPackageURL
            self.coreSdkVersion = coreSdkVersion
            self.location = location
        }
    }

    /// A generator other than Swift, kept as written.
    public struct Generator: Hashable, Sendable {
        /// The key under `generate`, e.g. `javascriptSdk`.
        public var name: String
        /// Its entries (a single object is a list of one).
        public var entries: [YAMLNode]

        /// Creates a raw generator entry.
        public init(name: String, entries: [YAMLNode]) {
            self.name = name
            self.entries = entries
        }
    }

    /// The generators other than Swift that `connector.yaml` may name.
    public static let knownOtherGenerators = ["javascriptSdk", "kotlinSdk", "dartSdk", "adminNodeSdk", "llmTools"]

    /// `connectorId`: the connector name in URLs and the `<Connector>` of generated names.
    public var connectorId: String
    /// `authMode`, a legacy key (`PUBLIC` / `ADMIN`) that is ignored.
    public var authMode: String?
    /// Every `generate.swiftSdk` entry, in file order.
    public var swiftSDKs: [SwiftSDK]
    /// The other `generate` entries, in file order.
    public var otherGenerators: [Generator]

    /// Creates a manifest.
    public init(
        connectorId: String, authMode: String? = nil, swiftSDKs: [SwiftSDK] = [], otherGenerators: [Generator] = []
    ) {
        self.connectorId = connectorId
        self.authMode = authMode
        self.swiftSDKs = swiftSDKs
        self.otherGenerators = otherGenerators
    }

    /// Whether any SDK entry enables the client cache, so the server emits entity ids for this connector.
    public var emitsEntityIds: Bool {
        swiftSDKs.contains { $0.clientCache != nil }
            || otherGenerators.contains { $0.entries.contains { $0["clientCache"] != nil } }
    }

    /// Parses the text of a `connector.yaml`.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - file: The name printed in diagnostics.
    /// - Returns: The manifest (`nil` when any error was found) and every diagnostic.
    public static func parse(_ text: String, file: String) -> (manifest: ConnectorManifest?, diagnostics: [Diagnostic])
    {
        do {
            return decode(try YAMLParser.parse(text, file: file), file: file)
        } catch {
            return (nil, [error])
        }
    }

    /// Decodes an already parsed `connector.yaml`.
    ///
    /// - Parameters:
    ///   - root: The document's root node.
    ///   - file: The name printed in diagnostics.
    /// - Returns: The manifest (`nil` when any error was found) and every diagnostic.
    public static func decode(
        _ root: YAMLNode, file: String
    ) -> (manifest: ConnectorManifest?, diagnostics: [Diagnostic]) {
        var decoder = ConfigDecoder(file: file, documentName: "connector.yaml")
        guard let top = decoder.root(root) else { return (nil, decoder.diagnostics) }
        decoder.checkKeys(top, known: ["connectorId", "authMode", "generate"])
        let connectorId = decoder.requiredString(top, "connectorId")
        let authMode = decoder.optionalString(top, "authMode")

        var swiftSDKs: [SwiftSDK] = []
        var others: [Generator] = []
        if let generate = decoder.optionalMapping(top, "generate") {
            for entry in generate.entries where !entry.value.isNull {
                let path = ConfigDecoder.path("generate", entry.key)
                // An object, or a list of objects.
                let elements: [(YAMLNode, String)] =
                    entry.value.items.map { items in
                        items.enumerated().map { ($0.element, ConfigDecoder.path(path, index: $0.offset)) }
                    } ?? [(entry.value, path)]
                if entry.key == "swiftSdk" {
                    for (node, elementPath) in elements {
                        if let sdk = decodeSwiftSDK(node, path: elementPath, decoder: &decoder) {
                            swiftSDKs.append(sdk)
                        }
                    }
                } else {
                    decoder.warning(Self.notGeneratedMessage(entry.key), at: entry.keyLocation)
                    for (node, elementPath) in elements where node.pairs == nil {
                        decoder.error(
                            "expected a mapping for \"\(elementPath)\", found \(node.kindDescription)",
                            at: node.location)
                    }
                    others.append(Generator(name: entry.key, entries: elements.map(\.0)))
                }
            }
        }

        guard !decoder.diagnostics.containsErrors, let connectorId else { return (nil, decoder.diagnostics) }
        let manifest = ConnectorManifest(
            connectorId: connectorId, authMode: authMode, swiftSDKs: swiftSDKs, otherGenerators: others)
        return (manifest, decoder.diagnostics)
    }

    /// The warning for a `generate` entry other than `swiftSdk`: what it is and where it comes from instead.
    static func notGeneratedMessage(_ key: String) -> String {
        let what =
            switch key {
            case "javascriptSdk": "the JavaScript SDK"
            case "kotlinSdk": "the Kotlin (Android) SDK"
            case "dartSdk": "the Dart (Flutter) SDK"
            case "adminNodeSdk": "the Node.js admin SDK"
            case "llmTools": "the LLM tool definitions"
            default: "an unknown generator"
            }
        let source =
            knownOtherGenerators.contains(key)
            ? "it comes from firebase-tools (`firebase dataconnect:sdk:generate`)"
            : "known generators: swiftSdk, \(knownOtherGenerators.joined(separator: ", "))"
        return "\"generate.\(key)\" (\(what)) is not generated: dataconnect generates Swift only (swiftSdk); \(source)"
    }

    private static func decodeSwiftSDK(_ node: YAMLNode, path: String, decoder: inout ConfigDecoder) -> SwiftSDK? {
        guard let mapping = decoder.mapping(node, path: path) else { return nil }
        decoder.checkKeys(
            mapping,
            known: [
                "outputDir", "package", "observablePublisher", "clientCache", "coreSdkPackageLocation",
                "coreSdkPackageURL", "coreSdkVersion",
            ])
        let outputDir = decoder.requiredString(mapping, "outputDir")
        let package = decoder.requiredString(mapping, "package")
        let publisher = decoder.optionalEnum(mapping, "observablePublisher", as: ObservablePublisher.self)
        let coreSdk = decoder.optionalString(mapping, "coreSdkPackageLocation")
        let coreSdkURL = decoder.optionalString(mapping, "coreSdkPackageURL")
        let coreSdkVersion = decoder.optionalString(mapping, "coreSdkVersion")
        if (coreSdkURL == nil) != (coreSdkVersion == nil) {
            decoder.error(
                "\"coreSdkPackageURL\" and \"coreSdkVersion\" go together in \"\(path)\": give both or neither",
                at: mapping.location)
        }
        var clientCache: ClientCache?
        if let cache = decoder.optionalMapping(mapping, "clientCache") {
            decoder.checkKeys(cache, known: ["maxAge", "storage", "maxSize"])
            clientCache = ClientCache(
                maxAge: decoder.optionalDuration(cache, "maxAge") ?? .zero,
                storage: decoder.optionalEnum(cache, "storage", as: ClientCache.Storage.self) ?? .persistent,
                maxSize: decoder.optionalByteSize(cache, "maxSize"))
        }
        guard let outputDir, let package else { return nil }
        return SwiftSDK(
            outputDir: outputDir, package: package, observablePublisher: publisher ?? .observableMacro,
            clientCache: clientCache, coreSdkPackageLocation: coreSdk, coreSdkPackageURL: coreSdkURL,
            coreSdkVersion: coreSdkVersion, location: node.location)
    }
}
