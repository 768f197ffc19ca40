import DataConnectSchema
import GraphQLLanguage

/// One file written by a generator, with its path relative to the generated package's root.
public struct GeneratedFile: Hashable, Sendable {
    /// The path inside `<outputDir>/<package>/`, such as `Sources/KitchenAppClient.swift`.
    public var path: String
    /// The file's text.
    public var contents: String

    /// Creates a file.
    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}

/// Why the Swift generator refused a connector.
public enum SwiftGeneratorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Some operations failed validation; nothing is generated until they are fixed.
    case invalidOperations(connector: String, names: [String])
    /// An operation has no name, so it has no class or property name.
    case anonymousOperation(connector: String, file: String)
    /// Two operations map to the same Swift class name.
    case duplicateTypeName(connector: String, name: String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .invalidOperations(let connector, let names):
            "connector \"\(connector)\" has invalid operations: \(names.joined(separator: ", "))"
        case .anonymousOperation(let connector, let file):
            "connector \"\(connector)\": an operation in \(file) has no name"
        case .duplicateTypeName(let connector, let name):
            "connector \"\(connector)\": two operations generate the Swift type \(name)"
        }
    }
}

/// Generates a Swift package for one connector.
///
/// The pipeline reads like a compiler:
/// 1. **Parse**: done by the front end (`ServiceCompiler.compile(backendDirectory:)`).
/// 2. **Validate**: ``SwiftGenerator`` refuses invalid or anonymous operations and clashing type names.
/// 3. **Translate**: `SwiftTranslator` turns the AST and the generated API into a small Swift model
///    (`SwiftConnector`): operations, variables, `Data` structs, key structs, enums and input structs.
/// 4. **Render**: the renderers print that model through `SwiftWriter`, one file each.
///
/// The output is deterministic: the same service and options always give the same bytes.
///
/// ```swift
/// let (service, _) = ServiceCompiler.compile(backendDirectory: "dataconnect")
/// let files = try SwiftGenerator.generate(
///     service: service!, connector: service!.connectors[0],
///     options: .init(sdk: service!.connectors[0].sources.manifest.swiftSDKs[0]))
/// ```
public enum SwiftGenerator {
    /// What to generate, taken from one `generate.swiftSdk` entry of `connector.yaml`.
    public struct Options: Hashable, Sendable {
        /// The package (and target) name.
        public var package: String
        /// `observableMacro` or `observableObject`; both produce `QueryRefObservation` on Linux.
        public var observablePublisher: ConnectorManifest.ObservablePublisher
        /// The client cache settings baked into the connector's shared instance.
        public var clientCache: ConnectorManifest.ClientCache?
        /// A local path to the core SDK package; when `nil` the generated package depends on the package at
        /// ``coreSdkPackageURL``, else on the release.
        public var coreSdkPackageLocation: String?
        /// The URL of the core SDK package, used with ``coreSdkVersion`` when there is no local path **[ext]**.
        public var coreSdkPackageURL: String?
        /// The exact version of the package at ``coreSdkPackageURL``.
        public var coreSdkVersion: String?

        /// Creates options.
        public init(
            package: String, observablePublisher: ConnectorManifest.ObservablePublisher = .observableMacro,
            clientCache: ConnectorManifest.ClientCache? = nil, coreSdkPackageLocation: String? = nil,
            coreSdkPackageURL: String? = nil, coreSdkVersion: String? = nil
        ) {
            self.package = package
            self.observablePublisher = observablePublisher
            self.clientCache = clientCache
            self.coreSdkPackageLocation = coreSdkPackageLocation
            self.coreSdkPackageURL = coreSdkPackageURL
            self.coreSdkVersion = coreSdkVersion
        }

        /// Options from a `generate.swiftSdk` entry.
        public init(sdk: ConnectorManifest.SwiftSDK) {
            self.init(
                package: sdk.package, observablePublisher: sdk.observablePublisher, clientCache: sdk.clientCache,
                coreSdkPackageLocation: sdk.coreSdkPackageLocation, coreSdkPackageURL: sdk.coreSdkPackageURL,
                coreSdkVersion: sdk.coreSdkVersion)
        }
    }

    /// Generates the package files for `connector`.
    ///
    /// - Parameters:
    ///   - service: The compiled service that holds the connector.
    ///   - connector: The connector to generate.
    ///   - options: The `generate.swiftSdk` settings.
    /// - Returns: `Package.swift`, `README.md` and the three source files, in that order.
    /// - Throws: ``SwiftGeneratorError`` when the connector has invalid or anonymous operations or
    ///   two operations clash.
    public static func generate(
        service: CompiledService, connector: CompiledConnector, options: Options
    ) throws(SwiftGeneratorError) -> [GeneratedFile] {
        try validate(connector)
        let model = SwiftTranslator(service: service, connector: connector, options: options).translate()
        try validate(model)
        let sources = "Sources/\(model.pascalName)"
        return [
            GeneratedFile(path: "Package.swift", contents: PackageRenderer(connector: model).render()),
            GeneratedFile(path: "README.md", contents: ReadmeRenderer(connector: model).render()),
            GeneratedFile(path: "\(sources)Client.swift", contents: ClientRenderer(connector: model).render()),
            GeneratedFile(path: "\(sources)Keys.swift", contents: KeysRenderer(connector: model).render()),
            GeneratedFile(
                path: "\(sources)Operations.swift", contents: OperationsRenderer(connector: model).render()),
        ]
    }

    // MARK: Validate

    private static func validate(_ connector: CompiledConnector) throws(SwiftGeneratorError) {
        let id = connector.sources.manifest.connectorId
        let invalid = connector.validated.invalidOperations
        if !invalid.isEmpty {
            throw SwiftGeneratorError.invalidOperations(connector: id, names: invalid.sorted())
        }
        if let anonymous = connector.validated.operations.first(where: { $0.name == nil }) {
            throw SwiftGeneratorError.anonymousOperation(connector: id, file: anonymous.location.file)
        }
    }

    private static func validate(_ model: SwiftConnector) throws(SwiftGeneratorError) {
        var seen: Set<String> = []
        for operation in model.operations where !seen.insert(operation.className).inserted {
            throw SwiftGeneratorError.duplicateTypeName(connector: model.connectorId, name: operation.className)
        }
    }
}
