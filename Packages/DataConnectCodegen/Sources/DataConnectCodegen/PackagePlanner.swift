import DataConnectSchema
import Foundation

/// One generated Swift package: where it goes and what it holds.
public struct PlannedPackage: Hashable, Sendable {
    /// The connector it was generated from.
    public var connectorId: String
    /// `<outputDir>/<package>`, resolved against the connector's folder and normalized.
    public var directory: String
    /// The files, with paths relative to ``directory``.
    public var files: [GeneratedFile]

    /// Creates a plan.
    public init(connectorId: String, directory: String, files: [GeneratedFile]) {
        self.connectorId = connectorId
        self.directory = directory
        self.files = files
    }
}

/// A connector whose Swift package could not be generated.
public struct PlanFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `connector.yaml` the failing `swiftSdk` entry lives in.
    public var manifest: String
    /// Why.
    public var error: SwiftGeneratorError

    /// `connector.yaml: error: ...`
    public var description: String { "\(manifest): error: \(error)" }
}

/// Turns every `generate.swiftSdk` entry of a compiled service into a ``PlannedPackage``.
///
/// Paths in `connector.yaml` are relative to the connector's folder, as upstream reads them.
/// `coreSdkPackageLocation` is rewritten relative to the generated package, since that is where SwiftPM
/// resolves the `.package(path:)` of the generated `Package.swift`.
public enum PackagePlanner {
    /// Plans the packages of every connector of `service`.
    ///
    /// - Returns: The packages that could be generated, and the failures of the others.
    public static func plan(service: CompiledService) -> (packages: [PlannedPackage], failures: [PlanFailure]) {
        var packages: [PlannedPackage] = []
        var failures: [PlanFailure] = []
        for connector in service.connectors {
            let manifest = PackagePaths.join(connector.sources.directory, "connector.yaml")
            for sdk in connector.sources.manifest.swiftSDKs {
                let directory = PackagePaths.normalize(
                    PackagePaths.join(PackagePaths.join(connector.sources.directory, sdk.outputDir), sdk.package))
                var options = SwiftGenerator.Options(sdk: sdk)
                if let location = sdk.coreSdkPackageLocation {
                    let core = PackagePaths.normalize(PackagePaths.join(connector.sources.directory, location))
                    options.coreSdkPackageLocation = PackagePaths.relative(core, from: directory)
                }
                do {
                    let files = try SwiftGenerator.generate(service: service, connector: connector, options: options)
                    packages.append(
                        PlannedPackage(
                            connectorId: connector.sources.manifest.connectorId, directory: directory, files: files))
                } catch {
                    failures.append(PlanFailure(manifest: manifest, error: error))
                }
            }
        }
        return (packages, failures)
    }
}

/// What writing a package changed on disk.
public struct WriteReport: Hashable, Sendable {
    /// Files created or whose contents changed, relative to the package.
    public var written: [String] = []
    /// Files already up to date.
    public var unchanged: [String] = []
    /// Stale generated Swift sources removed from `Sources/`.
    public var removed: [String] = []

    /// Creates an empty report.
    public init() {}
}

extension PlannedPackage {
    /// Writes the files whose contents differ, and removes `.swift` files under `Sources/` that this plan
    /// no longer produces (for example after the connector was renamed).
    ///
    /// Unchanged files are not touched, so their modification times stay and an incremental build of the
    /// consuming app skips them.
    ///
    /// - Throws: The file system's error when a folder cannot be created or a file written.
    public func write() throws -> WriteReport {
        let fileManager = FileManager.default
        var report = WriteReport()
        for file in files {
            let path = PackagePaths.join(directory, file.path)
            let data = Data(file.contents.utf8)
            if let existing = fileManager.contents(atPath: path), existing == data {
                report.unchanged.append(file.path)
                continue
            }
            let folder = (path as NSString).deletingLastPathComponent
            try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            report.written.append(file.path)
        }
        let produced = Set(files.map(\.path))
        let sources = PackagePaths.join(directory, "Sources")
        for name in (try? fileManager.contentsOfDirectory(atPath: sources))?.sorted() ?? []
        where name.hasSuffix(".swift") && !produced.contains("Sources/" + name) {
            try fileManager.removeItem(atPath: PackagePaths.join(sources, name))
            report.removed.append("Sources/" + name)
        }
        return report
    }

    /// The files on disk that differ from this plan, relative to the package, each with a unified diff from
    /// the disk's version to the plan's; stale sources that ``write()`` would remove appear as deletions.
    public func differences() -> [(path: String, diff: String)] {
        let fileManager = FileManager.default
        var changed: [(path: String, diff: String)] = []
        for file in files {
            let path = PackagePaths.join(directory, file.path)
            guard let existing = fileManager.contents(atPath: path) else {
                changed.append((file.path, "--- /dev/null\n+++ b/\(file.path)\n(missing on disk)\n"))
                continue
            }
            if existing != Data(file.contents.utf8) {
                let old = String(decoding: existing, as: UTF8.self)
                changed.append(
                    (
                        file.path,
                        TextDiff.unified(
                            old: old, new: file.contents, oldName: "a/\(file.path)", newName: "b/\(file.path)")
                    )
                )
            }
        }
        let produced = Set(files.map(\.path))
        let sources = PackagePaths.join(directory, "Sources")
        for name in (try? fileManager.contentsOfDirectory(atPath: sources))?.sorted() ?? []
        where name.hasSuffix(".swift") && !produced.contains("Sources/" + name) {
            changed.append(("Sources/" + name, "--- a/Sources/\(name)\n+++ /dev/null\n(not generated any more)\n"))
        }
        return changed
    }
}

/// Purely lexical path arithmetic on `/`-separated paths.
public enum PackagePaths {
    /// `base/path`, or `path` when it is absolute.
    public static func join(_ base: String, _ path: String) -> String {
        if path.hasPrefix("/") || base.isEmpty { return path }
        return base.hasSuffix("/") ? base + path : base + "/" + path
    }

    /// Removes `.`, empty components and `name/..` pairs; keeps leading `..` of relative paths.
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The path that leads from the folder `base` to `target`.
    ///
    /// Both are made absolute against the current directory first, so relative and absolute inputs mix.
    public static func relative(_ target: String, from base: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        let targetParts = normalize(join(current, target)).split(separator: "/")
        let baseParts = normalize(join(current, base)).split(separator: "/")
        var common = 0
        while common < targetParts.count, common < baseParts.count, targetParts[common] == baseParts[common] {
            common += 1
        }
        let ups = Array(repeating: "..", count: baseParts.count - common)
        let downs = targetParts[common...].map(String.init)
        let parts = ups + downs
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
