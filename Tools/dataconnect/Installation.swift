import DataConnectSchema
import Foundation

/// An installed toolkit, as `make install PREFIX=…` (or the Debian package, with `/usr`) lays it out:
///
/// ```
/// PREFIX/bin/dataconnect -> ../lib/dataconnect/0.3.0/dataconnect   the last version installed
/// PREFIX/bin/dataconnect-0.3.0 -> ../lib/dataconnect/0.3.0/dataconnect
/// PREFIX/lib/dataconnect/0.3.0/dataconnect                         the CLI (release, static Swift runtime)
/// PREFIX/lib/dataconnect/0.3.0/build-info                          "commit <hash>"
/// PREFIX/share/dataconnect/0.3.0/templates/                        `dataconnect init`'s templates
/// PREFIX/share/dataconnect/0.3.0/installed-files                   what `make uninstall` removes
/// PREFIX/share/dataconnect/DataConnect.git                         the SDK's sources, one tag per version
/// ```
///
/// Versions install side by side; projects pin one with `.package(url: "file://PREFIX/share/dataconnect/DataConnect.git",
/// exact: "0.3.0")`.
struct Installation: Equatable {
    /// The install prefix, e.g. `/usr/local`.
    var prefix: String
    /// The installed version, which is this executable's ``ToolkitVersion/current``.
    var version: String

    /// The installation `executable` belongs to, or `nil` when it is not installed (a build in a clone).
    ///
    /// - Parameter executable: The absolute, symlink-free path of the running `dataconnect`.
    init?(executable: String) {
        let versionFolder = (executable as NSString).deletingLastPathComponent
        let version = (versionFolder as NSString).lastPathComponent
        let toolFolder = (versionFolder as NSString).deletingLastPathComponent
        let libFolder = (toolFolder as NSString).deletingLastPathComponent
        guard version == ToolkitVersion.current, (toolFolder as NSString).lastPathComponent == "dataconnect",
            (libFolder as NSString).lastPathComponent == "lib"
        else { return nil }
        self.prefix = (libFolder as NSString).deletingLastPathComponent
        self.version = version
        guard FileManager.default.fileExists(atPath: templates) else { return nil }
    }

    /// `PREFIX/share/dataconnect`.
    var share: String { prefix + "/share/dataconnect" }
    /// The templates `dataconnect init` copies.
    var templates: String { share + "/" + version + "/templates" }
    /// The package repository holding the SDK's sources, a tag per installed version.
    var packageRepository: String { share + "/DataConnect.git" }
    /// ``packageRepository`` as the URL a `Package.swift` names.
    var packageURL: String { URL(fileURLWithPath: packageRepository).absoluteString }

    /// The commit the installed version was built from, as `make install` recorded it.
    var commit: String? {
        let path = prefix + "/lib/dataconnect/" + version + "/build-info"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2, words[0] == "commit" { return String(words[1]) }
        }
        return nil
    }

    /// What `dataconnect --version` prints: `dataconnect 0.3.0 (commit 1a2b3c4, installed in /usr/local)`, or
    /// `dataconnect 0.3.0 (development build)` for an executable that is not installed.
    static func versionLine(executable: String) -> String {
        guard let installation = Installation(executable: executable) else {
            return "dataconnect \(ToolkitVersion.current) (development build)"
        }
        let commit = installation.commit.map { "commit \($0), " } ?? ""
        return "dataconnect \(ToolkitVersion.current) (\(commit)installed in \(installation.prefix))"
    }
}
