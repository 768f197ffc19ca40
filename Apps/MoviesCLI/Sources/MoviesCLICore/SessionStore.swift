import Foundation

/// The signed-in user, remembered between runs.
public struct Session: Codable, Equatable, Sendable {
    /// The Firebase Auth uid.
    public var uid: String
    /// The email claim, if any.
    public var email: String?
    /// The public username written to the user's profile.
    public var username: String

    /// Creates a session.
    public init(uid: String, email: String? = nil, username: String) {
        self.uid = uid
        self.email = email
        self.username = username
    }
}

/// Reads and writes `session.json` in the configuration folder.
///
/// The folder is `$MOVIES_CONFIG_DIR` when set, else `$XDG_CONFIG_HOME/movies`, else `~/.config/movies`.
///
/// ```swift
/// let store = SessionStore(environment: ProcessInfo.processInfo.environment)
/// try store.save(Session(uid: "uid-alice", username: "alice"))
/// try store.load()?.uid  // "uid-alice"
/// ```
public struct SessionStore: Sendable {
    /// The environment variable that overrides the configuration folder, e.g. for tests.
    public static let directoryVariable = "MOVIES_CONFIG_DIR"

    /// The configuration folder.
    public let directory: URL

    /// The session file, `session.json` in ``directory``.
    public var fileURL: URL { directory.appendingPathComponent("session.json") }

    /// Creates a store for a folder.
    ///
    /// - Parameter directory: The configuration folder; created on the first save.
    public init(directory: URL) {
        self.directory = directory
    }

    /// Creates a store for the folder the environment names.
    ///
    /// - Parameter environment: The process environment.
    public init(environment: [String: String]) {
        self.init(directory: Self.directory(environment: environment))
    }

    /// The configuration folder: `$MOVIES_CONFIG_DIR`, else `$XDG_CONFIG_HOME/movies`, else `$HOME/.config/movies`.
    ///
    /// Empty variables count as unset, as the XDG Base Directory specification says.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The folder.
    public static func directory(environment: [String: String]) -> URL {
        if let explicit = environment[directoryVariable], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty {
            return URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent("movies", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".config", isDirectory: true)
            .appendingPathComponent("movies", isDirectory: true)
    }

    /// The saved session, or `nil` when nobody is signed in.
    ///
    /// - Returns: The session.
    /// - Throws: ``MoviesFailure/operationFailed(_:)`` when the file exists but cannot be read or is not a
    ///   session; `movies logout` removes it.
    public func load() throws -> Session? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        do {
            return try JSONDecoder().decode(Session.self, from: Data(contentsOf: fileURL))
        } catch {
            throw MoviesFailure.operationFailed(
                "cannot read the session in \(fileURL.path); run `movies logout` and `movies login` again")
        }
    }

    /// Saves the session, readable only by the user, replacing any earlier one.
    ///
    /// - Parameter session: The session.
    /// - Throws: When the folder or file cannot be written.
    public func save(_ session: Session) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(session).write(to: fileURL, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fileURL.path)
    }

    /// Forgets the session.
    ///
    /// - Returns: Whether there was one.
    /// - Throws: When the file exists but cannot be removed.
    @discardableResult
    public func clear() throws -> Bool {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return false }
        try FileManager.default.removeItem(at: fileURL)
        return true
    }
}
