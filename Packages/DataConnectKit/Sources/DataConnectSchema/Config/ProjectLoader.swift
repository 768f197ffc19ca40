import Foundation
import GraphQLLanguage

/// A loaded Data Connect service: its `dataconnect.yaml`, its schema files and its connectors.
///
/// File names in ``schemaSources`` and connector ``ConnectorSources/files`` are display paths: the
/// backend directory as given joined with the relative path (`Backend/movies/schema/schema.gql`), so
/// diagnostics print paths the user can open.
public struct Project: Hashable, Sendable {
    /// The backend directory as given to ``ProjectLoader/load(backendDirectory:)``.
    public var directory: String
    /// The display path of `dataconnect.yaml`.
    public var configFile: String
    /// The parsed `dataconnect.yaml`.
    public var config: ServiceConfig
    /// Every `.gql` file under the main schema's `source` folder, sorted by path.
    public var schemaSources: [Source]
    /// One entry per `connectorDirs` entry that loaded, in `connectorDirs` order.
    public var connectors: [ConnectorSources]
    /// The `.gql` files of each secondary schema (custom resolvers), by schema id, sorted by path.
    public var secondarySchemaSources: [String: [Source]]

    /// Creates a project.
    public init(
        directory: String, configFile: String, config: ServiceConfig, schemaSources: [Source],
        connectors: [ConnectorSources], secondarySchemaSources: [String: [Source]] = [:]
    ) {
        self.directory = directory
        self.configFile = configFile
        self.config = config
        self.schemaSources = schemaSources
        self.connectors = connectors
        self.secondarySchemaSources = secondarySchemaSources
    }
}

/// One connector folder: its `connector.yaml` and its `.gql` files (merged into one document later).
public struct ConnectorSources: Hashable, Sendable {
    /// The parsed `connector.yaml`.
    public var manifest: ConnectorManifest
    /// The connector folder's display path, e.g. `Backend/movies/connector`; `outputDir` and
    /// `coreSdkPackageLocation` are relative to it.
    public var directory: String
    /// Every `.gql` file in the folder (recursively), sorted by path.
    public var files: [Source]

    /// Creates a connector entry.
    public init(manifest: ConnectorManifest, directory: String, files: [Source]) {
        self.manifest = manifest
        self.directory = directory
        self.files = files
    }
}

/// Reads a Data Connect project from disk.
///
/// Loading never throws: every problem becomes a ``GraphQLLanguage/Diagnostic`` naming the file (and
/// line and column when a file's content is at fault).
///
/// ```swift
/// let (project, diagnostics) = ProjectLoader.load(backendDirectory: "Backend/movies")
/// for diagnostic in diagnostics.sortedForDisplay() { print(diagnostic) }
/// ```
public enum ProjectLoader {
    /// Loads `<backendDirectory>/dataconnect.yaml`, the schema files and every connector.
    ///
    /// Folders starting with `.` (such as the emulator's `.dataconnect/`) are skipped when collecting
    /// `.gql` files. A connector whose `connector.yaml` is missing or invalid is left out of the project
    /// and reported; so is a second connector with an id already used.
    ///
    /// - Parameter backendDirectory: The folder holding `dataconnect.yaml`, absolute or relative to the
    ///   working directory.
    /// - Returns: The project, or `nil` when `dataconnect.yaml` is missing or invalid, and every
    ///   diagnostic. A non-`nil` project may still come with errors (`diagnostics.containsErrors`).
    public static func load(backendDirectory: String) -> (project: Project?, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        guard isDirectory(backendDirectory) else {
            return (nil, [Diagnostic(file: backendDirectory, location: nil, message: "directory not found")])
        }
        let configFile = ConfigPath.join(backendDirectory, "dataconnect.yaml")
        guard let configText = readText(configFile, diagnostics: &diagnostics) else { return (nil, diagnostics) }
        let (parsed, configDiagnostics) = ServiceConfig.parse(configText, file: configFile)
        diagnostics += configDiagnostics
        guard let config = parsed else { return (nil, diagnostics) }

        let schemaDirectory = ConfigPath.join(backendDirectory, config.schema.source)
        var schemaSources: [Source] = []
        if isDirectory(schemaDirectory) {
            schemaSources = readGQLFiles(in: schemaDirectory, diagnostics: &diagnostics)
            if schemaSources.isEmpty {
                diagnostics.append(
                    Diagnostic(
                        file: schemaDirectory, location: nil, severity: .warning,
                        message: "no .gql files in the schema folder"))
            }
        } else {
            diagnostics.append(
                Diagnostic(
                    file: schemaDirectory, location: nil,
                    message: "schema folder not found (schema.source in \(configFile))"))
        }

        var secondarySources: [String: [Source]] = [:]
        for secondary in config.secondarySchemas {
            guard let id = secondary.id else { continue }
            let directory = ConfigPath.join(backendDirectory, secondary.source)
            guard isDirectory(directory) else {
                diagnostics.append(
                    Diagnostic(
                        file: directory, location: nil,
                        message: "schema folder not found (source of schema \"\(id)\" in \(configFile))"))
                continue
            }
            secondarySources[id] = readGQLFiles(in: directory, diagnostics: &diagnostics)
        }

        var connectors: [ConnectorSources] = []
        var connectorIds: Set<String> = []
        for connectorDir in config.connectorDirs {
            let directory = ConfigPath.join(backendDirectory, connectorDir)
            guard isDirectory(directory) else {
                diagnostics.append(
                    Diagnostic(
                        file: directory, location: nil,
                        message: "connector folder not found (connectorDirs in \(configFile))"))
                continue
            }
            let manifestFile = ConfigPath.join(directory, "connector.yaml")
            guard let manifestText = readText(manifestFile, diagnostics: &diagnostics) else { continue }
            let (manifest, manifestDiagnostics) = ConnectorManifest.parse(manifestText, file: manifestFile)
            diagnostics += manifestDiagnostics
            guard let manifest else { continue }
            guard connectorIds.insert(manifest.connectorId).inserted else {
                diagnostics.append(
                    Diagnostic(
                        file: manifestFile, location: nil,
                        message: "duplicate connectorId \"\(manifest.connectorId)\" (already used by another connector)"
                    ))
                continue
            }
            let files = readGQLFiles(in: directory, diagnostics: &diagnostics)
            connectors.append(ConnectorSources(manifest: manifest, directory: directory, files: files))
        }

        let project = Project(
            directory: backendDirectory, configFile: configFile, config: config, schemaSources: schemaSources,
            connectors: connectors, secondarySchemaSources: secondarySources)
        return (project, diagnostics)
    }

    /// Loads a `firebase.json`.
    ///
    /// - Parameter path: The file's path, absolute or relative to the working directory.
    /// - Returns: The configuration, or `nil` when the file is missing or invalid, and every diagnostic.
    public static func loadFirebaseJSON(path: String) -> (config: FirebaseJSONConfig?, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        guard let text = readText(path, diagnostics: &diagnostics) else { return (nil, diagnostics) }
        return FirebaseJSONConfig.parse(text, file: path)
    }

    // MARK: Files

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// A file's UTF-8 text, or `nil` with a diagnostic naming the path.
    private static func readText(_ path: String, diagnostics: inout [Diagnostic]) -> String? {
        var directory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &directory), !directory.boolValue else {
            diagnostics.append(Diagnostic(file: path, location: nil, message: "file not found"))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            diagnostics.append(Diagnostic(file: path, location: nil, message: "cannot read the file"))
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            diagnostics.append(Diagnostic(file: path, location: nil, message: "the file is not valid UTF-8"))
            return nil
        }
        return text
    }

    /// Every `*.gql` file under `directory` (recursively, skipping hidden folders), sorted by path.
    private static func readGQLFiles(in directory: String, diagnostics: inout [Diagnostic]) -> [Source] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var relativePaths: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let components = relative.split(separator: "/")
            if components.contains(where: { $0.hasPrefix(".") }) { continue }
            guard relative.hasSuffix(".gql") else { continue }
            var isDirectory: ObjCBool = false
            let full = ConfigPath.join(directory, relative)
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                relativePaths.append(relative)
            }
        }
        var sources: [Source] = []
        for relative in relativePaths.sorted() {
            let name = ConfigPath.join(directory, relative)
            if let text = readText(name, diagnostics: &diagnostics) {
                sources.append(Source(name: name, text: text))
            }
        }
        return sources
    }
}

/// Lexical path joining for display names: `Backend/movies` + `./schema` is `Backend/movies/schema`.
enum ConfigPath {
    /// Joins `relative` to `base` (an absolute `relative` wins), dropping `.` and folding `name/..`.
    static func join(_ base: String, _ relative: String) -> String {
        let isAbsolute = relative.hasPrefix("/") || (relative.isEmpty && base.hasPrefix("/"))
        let whole = relative.hasPrefix("/") ? relative : "\(base)/\(relative)"
        let rooted = relative.hasPrefix("/") || base.hasPrefix("/")
        var parts: [Substring] = []
        for part in whole.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".":
                continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !rooted {
                    parts.append(part)
                }
            default:
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if rooted || isAbsolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
