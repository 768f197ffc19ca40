import Foundation

/// Where the signed-in user is kept between launches.
///
/// Upstream keeps the user in the app's keychain; on Linux it is a JSON file, `user.json`, created with mode `0600`
/// in folders of mode `0700`:
/// `<root>/<app name>/<project ID>/user.json`, where `<root>` is `$FIREBASE_AUTH_PERSISTENCE_DIRECTORY` when set,
/// else `$XDG_CONFIG_HOME/firebase-auth/<program>`, else `~/.config/firebase-auth/<program>`. `<program>` is the
/// executable's name unless the app names another, so two programs on one machine do not share a sign-in, as two
/// apps on one phone do not.
///
/// ```swift
/// let auth = Auth.auth(app: app, persistence: .inMemory)        // nothing written
/// let other = Auth.auth(app: app2, persistence: .directory(URL(fileURLWithPath: "/tmp/auth")))
/// ```
public enum AuthPersistence: Sendable, Equatable {
    /// The file under the root folder given (the `<root>` above).
    case directory(URL)
    /// Nothing is kept: the user is signed out at the next launch.
    case inMemory

    /// The default: the root from the environment, as described above.
    ///
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - program: Whose sign-in it is: the executable's name by default; programs that share one sign-in (a
    ///     command line and a terminal UI of one product) pass the same name.
    /// - Returns: ``directory(_:)`` with the root folder.
    public static func automatic(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        program: String = ProcessInfo.processInfo.processName
    ) -> AuthPersistence {
        if let root = environment["FIREBASE_AUTH_PERSISTENCE_DIRECTORY"], !root.isEmpty {
            return .directory(URL(fileURLWithPath: root, isDirectory: true))
        }
        let config: URL
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            config = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            config = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config")
        }
        let programFolder = UserStore.safeName(program.isEmpty ? "program" : program)
        return .directory(
            config.appendingPathComponent("firebase-auth", isDirectory: true)
                .appendingPathComponent(programFolder, isDirectory: true))
    }
}

/// Reads, writes and removes one app's `user.json`.
struct UserStore: Sendable {
    /// The file.
    let fileURL: URL
    /// The folders below the root that the store creates, each with mode `0700`.
    private let folders: [URL]

    /// The store for `appName` and `projectID` under `root`.
    init(root: URL, appName: String, projectID: String) {
        let appFolder = root.appendingPathComponent(Self.safeName(appName), isDirectory: true)
        let projectFolder = appFolder.appendingPathComponent(Self.safeName(projectID), isDirectory: true)
        fileURL = projectFolder.appendingPathComponent("user.json")
        folders = [root, appFolder, projectFolder]
    }

    /// The stored user, or `nil` when there is none or it cannot be read.
    func load() -> UserRecord? {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return nil }
        return try? Self.decoder.decode(UserRecord.self, from: data)
    }

    /// Writes `record` atomically: a `0600` temporary file renamed over `user.json`.
    func save(_ record: UserRecord) throws {
        let manager = FileManager.default
        for folder in folders where !manager.fileExists(atPath: folder.path) {
            try manager.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        }
        let data = try Self.encoder.encode(record)
        let temporary = fileURL.deletingLastPathComponent().appendingPathComponent(".user.json.\(UUID().uuidString)")
        guard manager.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary.path)
        if rename(temporary.path, fileURL.path) != 0 {
            try? manager.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Removes `user.json`, if present.
    func remove() {
        try? FileManager.default.removeItem(at: fileURL)
    }

    /// A path component without `/` or a leading dot.
    static func safeName(_ name: String) -> String {
        let cleaned = name.replacingOccurrences(of: "/", with: "_")
        return cleaned.hasPrefix(".") ? "_" + cleaned.dropFirst() : cleaned
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
