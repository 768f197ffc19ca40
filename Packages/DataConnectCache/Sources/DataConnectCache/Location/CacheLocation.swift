import Foundation

/// Where a persistent cache lives: one database file per project, app, service, connector, host and user.
///
/// The file name is stable and filesystem-safe without a cryptographic hash: a readable prefix made of the
/// project, service and connector (characters other than letters, digits, `.`, `_` and `-` become `_`),
/// then the 64-bit FNV-1a hash, in hex, of the full identity text
/// `<storage>-<projectID>-<appName>-<serviceID>-<connector>-<location>-<host>-<user uid or "anon">`.
///
/// ```swift
/// let location = CacheLocation(
///     storage: "persistent", projectID: "demo", appName: "[DEFAULT]", serviceID: "movies",
///     connector: "default", location: "us-central1", host: "localhost:9399", userID: nil)
/// location.fileName  // demo-movies-default-<16 hex digits>.sqlite3
/// let path = location.filePath(in: CacheLocation.defaultDirectory())
/// ```
public struct CacheLocation: Hashable, Sendable {
    /// The storage kind, for example `persistent` or `memory`.
    public var storage: String
    /// The Firebase project id.
    public var projectID: String
    /// The Firebase app name.
    public var appName: String
    /// The Data Connect service id.
    public var serviceID: String
    /// The connector name.
    public var connector: String
    /// The service location, for example `us-central1`.
    public var location: String
    /// The host the SDK talks to.
    public var host: String
    /// The signed-in user's uid, or `nil` when signed out.
    public var userID: String?

    /// Creates a location.
    public init(
        storage: String, projectID: String, appName: String, serviceID: String, connector: String,
        location: String, host: String, userID: String?
    ) {
        self.storage = storage
        self.projectID = projectID
        self.appName = appName
        self.serviceID = serviceID
        self.connector = connector
        self.location = location
        self.host = host
        self.userID = userID
    }

    /// The full identity text the file name hashes.
    public var identity: String {
        [storage, projectID, appName, serviceID, connector, location, host, userID ?? "anon"]
            .joined(separator: "-")
    }

    /// The database file name: readable prefix, FNV-1a hash of ``identity``, `.sqlite3`.
    public var fileName: String {
        let prefix = Self.sanitized([projectID, serviceID, connector].joined(separator: "-"))
        let hash = String(Self.fnv1a64(identity), radix: 16)
        let paddedHash = String(repeating: "0", count: 16 - hash.count) + hash
        return "\(prefix.prefix(64))-\(paddedHash).sqlite3"
    }

    /// The database file's path in `directory`.
    public func filePath(in directory: String) -> String {
        (directory as NSString).appendingPathComponent(fileName)
    }

    /// The default directory: `$XDG_CACHE_HOME/dataconnect`, else `$HOME/.cache/dataconnect`.
    ///
    /// - Parameter environment: The environment to read; the process's by default.
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let base: String
        if let cacheHome = environment["XDG_CACHE_HOME"], !cacheHome.isEmpty {
            base = cacheHome
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = (home as NSString).appendingPathComponent(".cache")
        }
        return (base as NSString).appendingPathComponent("dataconnect")
    }

    /// Keeps letters, digits, `.`, `_` and `-`; replaces anything else with `_`.
    static func sanitized(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": Character(scalar)
                default: "_"
                }
            }
        )
    }

    /// The 64-bit FNV-1a hash of the text's UTF-8 bytes.
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
