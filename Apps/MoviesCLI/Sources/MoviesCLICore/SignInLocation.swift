import Foundation

/// Where `movies` keeps the signed-in user between runs: Firebase Auth's own `user.json`.
///
/// With `$MOVIES_CONFIG_DIR` set (tests give each user a folder of its own), the file lives under
/// `$MOVIES_CONFIG_DIR/firebase-auth/`; otherwise ``root(environment:)`` is `nil` and Firebase Auth picks its
/// automatic place (`$FIREBASE_AUTH_PERSISTENCE_DIRECTORY`, else `${XDG_CONFIG_HOME:-~/.config}/firebase-auth/movies/`,
/// shared with `movies-tui`).
///
/// ```swift
/// SignInLocation.root(environment: ["MOVIES_CONFIG_DIR": "/tmp/alice"])  // /tmp/alice/firebase-auth
/// SignInLocation.root(environment: [:])                                  // nil: Auth's automatic place
/// ```
public enum SignInLocation {
    /// The environment variable that moves the CLI's configuration, e.g. for tests.
    public static let directoryVariable = "MOVIES_CONFIG_DIR"

    /// The folder Firebase Auth keeps the user in, or `nil` for its automatic place.
    ///
    /// An empty variable counts as unset, as the XDG Base Directory specification says of its own.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: `$MOVIES_CONFIG_DIR/firebase-auth`, or `nil`.
    public static func root(environment: [String: String]) -> URL? {
        guard let directory = environment[directoryVariable], !directory.isEmpty else { return nil }
        return URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(
            "firebase-auth", isDirectory: true)
    }
}
