import ArgumentParsing
import DataConnectSchema
import Foundation
import GraphQLLanguage

/// `dataconnect upgrade [DIR]`: re-pin a project made by `dataconnect init` to this toolkit's version.
///
/// Two places pin a project, and both are rewritten: each `connector.yaml`'s `swiftSdk` entry
/// (`coreSdkVersion`, found through the parsed YAML, which locates the value), and the
/// `let dataconnectVersion: Version = "…"` line `init` wrote into `App/Package.swift` (and any other
/// `Package.swift` of the project with that declaration). The SDK is then generated again by this version of the
/// generator; SwiftPM resolves the new version at the next build.
enum UpgradeCommand {
    /// The declaration `init` writes into a project's `Package.swift`, up to the version's opening quote.
    static let versionDeclaration = "let dataconnectVersion: Version = \""

    /// Runs the command; returns the exit status.
    static func run(_ options: UpgradeOptions) -> Int32 {
        let project = InitCommand.absolute(options.directory)
        let backend = project + "/dataconnect"
        let (loaded, diagnostics) = ProjectLoader.load(backendDirectory: backend)
        guard let loaded else {
            for diagnostic in diagnostics { DataConnectTool.printError(diagnostic.description) }
            DataConnectTool.printError("dataconnect upgrade: error: \(backend) is not a Data Connect backend")
            return 1
        }
        let target = ToolkitVersion.current
        var changed: [String] = []
        var pinned = false
        do {
            for connector in loaded.connectors {
                let file = connector.directory + "/connector.yaml"
                switch try repin(connectorManifest: file, to: target) {
                case .repinned(let from):
                    changed.append("\(file): coreSdkVersion \(from) -> \(target)")
                    pinned = true
                case .current: pinned = true
                case .unpinned: break
                }
            }
            for manifest in packageManifests(under: project) {
                if let from = try repin(packageManifest: manifest, to: target) {
                    changed.append("\(manifest): dataconnectVersion \(from) -> \(target)")
                    pinned = true
                } else if declaredVersion(inPackageManifest: manifest) != nil {
                    pinned = true
                }
            }
        } catch {
            DataConnectTool.printError("dataconnect upgrade: error: \(error.message)")
            return 1
        }
        guard pinned else {
            DataConnectTool.printError(
                "dataconnect upgrade: error: \(options.directory) pins no toolkit version (no coreSdkVersion in its connector.yaml, no `dataconnectVersion` in a Package.swift); it may use a local SDK path (coreSdkPackageLocation), which has no version to re-pin"
            )
            return 1
        }
        for line in changed { DataConnectTool.printError(line) }
        if changed.isEmpty { DataConnectTool.printError("\(options.directory): already pinned to \(target)") }
        guard GenerateCommand.generateOnce(GenerateOptions(backend: backend)) == 0 else {
            DataConnectTool.printError("dataconnect upgrade: error: generating the SDK of \(backend) failed; see above")
            return 1
        }
        DataConnectTool.printError("\(options.directory): pinned to dataconnect \(target); the next build resolves it")
        return 0
    }

    /// An error that stops `upgrade`.
    struct Failure: Error {
        var message: String
    }

    /// What re-pinning a `connector.yaml` found.
    enum ConnectorPin: Equatable {
        /// `coreSdkVersion` was another version, now replaced.
        case repinned(from: String)
        /// `coreSdkVersion` was already the target.
        case current
        /// No `swiftSdk` entry has a `coreSdkVersion`.
        case unpinned
    }

    /// Sets every `coreSdkVersion` of `file`'s `generate.swiftSdk` entries to `version`, keeping the rest of the
    /// file (comments included) as written.
    static func repin(connectorManifest file: String, to version: String) throws(Failure) -> ConnectorPin {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Failure(message: "cannot read \(file)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let root: YAMLNode
        do {
            root = try YAMLParser.parse(text, file: file)
        } catch {
            throw Failure(message: error.description)
        }
        let entries = root["generate"]?["swiftSdk"].map { $0.items ?? [$0] } ?? []
        let values = entries.compactMap { $0["coreSdkVersion"] }
        guard !values.isEmpty else { return .unpinned }
        let old = values.compactMap(\.scalar).first(where: { $0 != version })
        guard let old else { return .current }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for value in values where value.scalar != version {
            let index = value.location.line - 1
            guard lines.indices.contains(index) else { continue }
            lines[index] = replacingScalar(in: lines[index], at: value.location.column, with: "\"\(version)\"")
        }
        try write(lines.joined(separator: "\n"), to: file)
        return .repinned(from: old)
    }

    /// `line` with the YAML scalar starting at `column` (1-based, quoted or plain) replaced by `replacement`.
    static func replacingScalar(in line: String, at column: Int, with replacement: String) -> String {
        let scalars = Array(line.unicodeScalars)
        let start = min(max(column - 1, 0), scalars.count)
        var end = start
        if end < scalars.count, scalars[end] == "\"" || scalars[end] == "'" {
            let quote = scalars[end]
            end += 1
            while end < scalars.count {
                if scalars[end] == "\\" && quote == "\"" {
                    end += 2
                    continue
                }
                if scalars[end] == quote {
                    end += 1
                    break
                }
                end += 1
            }
        } else {
            while end < scalars.count, scalars[end] != " ", scalars[end] != "\t", scalars[end] != "#" { end += 1 }
        }
        end = min(end, scalars.count)
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[..<start])
        result.append(contentsOf: replacement.unicodeScalars)
        result.append(contentsOf: scalars[end...])
        return String(result)
    }

    /// The version of the `let dataconnectVersion: Version = "…"` line of a `Package.swift`, if it has one.
    static func declaredVersion(inPackageManifest file: String) -> String? {
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard line.hasPrefix(versionDeclaration) else { continue }
            return String(line.dropFirst(versionDeclaration.count).prefix(while: { $0 != "\"" }))
        }
        return nil
    }

    /// Sets the `dataconnectVersion` declaration of `file` to `version`; returns the old version, or `nil` when
    /// the file has no such declaration or already has `version`.
    static func repin(packageManifest file: String, to version: String) throws(Failure) -> String? {
        guard let old = declaredVersion(inPackageManifest: file), old != version,
            let data = FileManager.default.contents(atPath: file)
        else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(versionDeclaration) ? "\(versionDeclaration)\(version)\"" : String($0) }
        try write(lines.joined(separator: "\n"), to: file)
        return old
    }

    /// Every `Package.swift` under `project`, outside build folders and `Generated/` (which generation rewrites).
    static func packageManifests(under project: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: project) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let components = relative.split(separator: "/")
            if components.contains(where: { $0 == ".build" || $0 == ".git" || $0 == "Generated" }) {
                enumerator.skipDescendants()
                continue
            }
            if components.last == "Package.swift" { found.append(project + "/" + relative) }
        }
        return found.sorted()
    }

    private static func write(_ text: String, to file: String) throws(Failure) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw Failure(message: "cannot write \(file): \(error.localizedDescription)")
        }
    }
}

// MARK: - Options

/// Options of `dataconnect upgrade`: the project to re-pin to this toolkit's version.
struct UpgradeOptions: Equatable {
    /// The project folder (holding `dataconnect/` and `App/`); the current folder by default.
    var directory = "."
}

extension UpgradeOptions {
    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse([], command: "upgrade")
        }
        if parsed.helpRequested { return .help(topic: "upgrade") }
        if parsed.positionals.count > 1 {
            throw UsageError(message: "upgrade takes one directory, got \"\(parsed.positionals[1])\" too")
        }
        return .upgrade(UpgradeOptions(directory: parsed.positionals.first ?? "."))
    }
}
