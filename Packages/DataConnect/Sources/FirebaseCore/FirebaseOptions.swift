import Foundation
import Synchronization

/// The settings that identify a Firebase project and app.
///
/// As upstream, this is a class whose properties can be changed after creation; unlike upstream it is
/// `Sendable`, guarding its state with a lock.
///
/// ```swift
/// let options = FirebaseOptions(googleAppID: "1:123:web:abc", gcmSenderID: "123")
/// options.projectID = "my-project"
/// FirebaseApp.configure(options: options)
/// ```
public final class FirebaseOptions: Sendable {
    private struct Storage: Sendable, Equatable {
        var googleAppID: String
        var gcmSenderID: String
        var projectID: String?
        var apiKey: String?
        var bundleID: String?
        var clientID: String?
        var storageBucket: String?
        var databaseURL: String?
    }

    /// The project ID used when nothing else names one; the emulator accepts any `demo-` project.
    public static let demoProjectID = "demo-project"

    /// The app ID used when nothing else names one.
    public static let demoAppID = "1:000000000000:web:0000000000000000"

    private let storage: Mutex<Storage>

    /// Creates options with an app ID and a sender ID, as upstream.
    ///
    /// - Parameters:
    ///   - googleAppID: The app ID, e.g. `1:123456789:web:abcdef`.
    ///   - gcmSenderID: The Cloud Messaging sender ID (the project number).
    public init(googleAppID: String, gcmSenderID: String) {
        storage = Mutex(Storage(googleAppID: googleAppID, gcmSenderID: gcmSenderID))
    }

    /// Creates options from their values; convenient where no `GoogleService-Info.plist` exists.
    ///
    /// - Parameters:
    ///   - projectID: The project ID.
    ///   - apiKey: The API key, if any; the emulator needs none.
    ///   - googleAppID: The app ID.
    ///   - gcmSenderID: The sender ID.
    public convenience init(
        projectID: String, apiKey: String? = nil, googleAppID: String = FirebaseOptions.demoAppID,
        gcmSenderID: String = "000000000000"
    ) {
        self.init(googleAppID: googleAppID, gcmSenderID: gcmSenderID)
        storage.withLock {
            $0.projectID = projectID
            $0.apiKey = apiKey
        }
    }

    /// The app ID, e.g. `1:123456789:web:abcdef`.
    public var googleAppID: String {
        get { storage.withLock { $0.googleAppID } }
        set { storage.withLock { $0.googleAppID = newValue } }
    }

    /// The Cloud Messaging sender ID.
    public var gcmSenderID: String {
        get { storage.withLock { $0.gcmSenderID } }
        set { storage.withLock { $0.gcmSenderID = newValue } }
    }

    /// The project ID.
    public var projectID: String? {
        get { storage.withLock { $0.projectID } }
        set { storage.withLock { $0.projectID = newValue } }
    }

    /// The API key.
    public var apiKey: String? {
        get { storage.withLock { $0.apiKey } }
        set { storage.withLock { $0.apiKey = newValue } }
    }

    /// The iOS bundle ID (`BUNDLE_ID` in `GoogleService-Info.plist`).
    public var bundleID: String? {
        get { storage.withLock { $0.bundleID } }
        set { storage.withLock { $0.bundleID = newValue } }
    }

    /// The OAuth client ID (`CLIENT_ID` in `GoogleService-Info.plist`).
    public var clientID: String? {
        get { storage.withLock { $0.clientID } }
        set { storage.withLock { $0.clientID = newValue } }
    }

    /// The Cloud Storage bucket (`STORAGE_BUCKET`).
    public var storageBucket: String? {
        get { storage.withLock { $0.storageBucket } }
        set { storage.withLock { $0.storageBucket = newValue } }
    }

    /// The Realtime Database URL (`DATABASE_URL`).
    public var databaseURL: String? {
        get { storage.withLock { $0.databaseURL } }
        set { storage.withLock { $0.databaseURL = newValue } }
    }

    /// The options `FirebaseApp.configure()` uses: from the environment, else from a config file in the current
    /// directory.
    ///
    /// The sources, first match wins:
    /// 1. the environment variables of ``init(environment:readFile:)`` when any of them is set
    ///    (`FIREBASE_CONFIG`, `FIREBASE_PROJECT_ID`, `GCLOUD_PROJECT`, `FIREBASE_API_KEY`, `FIREBASE_APP_ID`);
    /// 2. `GoogleService-Info.plist` in the current directory (``init(contentsOfFile:)``);
    /// 3. `google-services.json` in the current directory (``init(contentsOfGoogleServicesFile:)``);
    /// 4. the emulator's demo project (``demoProjectID``).
    ///
    /// Never `nil` on Linux.
    ///
    /// ```swift
    /// FirebaseApp.configure(options: FirebaseOptions.defaultOptions()!)
    /// ```
    ///
    /// - Returns: The options found.
    public static func defaultOptions() -> FirebaseOptions? {
        defaultOptions(
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// The options ``defaultOptions()`` finds, with the environment and the directory given.
    ///
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - currentDirectory: The folder searched for `GoogleService-Info.plist` and `google-services.json`.
    /// - Returns: The options found; the demo project when nothing names one.
    public static func defaultOptions(environment: [String: String], currentDirectory: String) -> FirebaseOptions {
        let variables = [
            "FIREBASE_CONFIG", "FIREBASE_PROJECT_ID", "GCLOUD_PROJECT", "FIREBASE_API_KEY", "FIREBASE_APP_ID",
        ]
        if variables.contains(where: { !(environment[$0] ?? "").isEmpty }) {
            return FirebaseOptions(environment: environment)
        }
        let folder = URL(fileURLWithPath: currentDirectory)
        if let options = FirebaseOptions(contentsOfFile: folder.appendingPathComponent("GoogleService-Info.plist").path)
        {
            return options
        }
        let googleServices = folder.appendingPathComponent("google-services.json").path
        if let options = FirebaseOptions(contentsOfGoogleServicesFile: googleServices) {
            return options
        }
        return FirebaseOptions(environment: environment)
    }

    /// Reads options from environment variables.
    ///
    /// `FIREBASE_CONFIG` names a JSON file, or holds inline JSON (text starting with `{`), with the keys
    /// `projectId`, `apiKey` and `appId`. The variables `FIREBASE_PROJECT_ID` (else `GCLOUD_PROJECT`),
    /// `FIREBASE_API_KEY` and `FIREBASE_APP_ID` override its values. Without a project ID the options name
    /// ``demoProjectID``; without an app ID, ``demoAppID``.
    ///
    /// ```swift
    /// let options = FirebaseOptions(environment: ["GCLOUD_PROJECT": "movies"])
    /// options.projectID  // "movies"
    /// ```
    ///
    /// - Parameters:
    ///   - environment: The variables, e.g. `ProcessInfo.processInfo.environment`.
    ///   - readFile: Reads the file `FIREBASE_CONFIG` names; by default from disk.
    public convenience init(
        environment: [String: String],
        readFile: (String) -> Data? = { FileManager.default.contents(atPath: $0) }
    ) {
        var config: [String: String] = [:]
        if let reference = environment["FIREBASE_CONFIG"]?.trimmingCharacters(in: .whitespacesAndNewlines),
            !reference.isEmpty
        {
            let data = reference.hasPrefix("{") ? Data(reference.utf8) : readFile(reference)
            if let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                for key in ["projectId", "apiKey", "appId"] {
                    if let value = object[key] as? String, !value.isEmpty {
                        config[key] = value
                    }
                }
            }
        }
        func nonEmpty(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        let projectID =
            nonEmpty("FIREBASE_PROJECT_ID") ?? nonEmpty("GCLOUD_PROJECT") ?? config["projectId"]
            ?? Self.demoProjectID
        self.init(
            projectID: projectID,
            apiKey: nonEmpty("FIREBASE_API_KEY") ?? config["apiKey"],
            googleAppID: nonEmpty("FIREBASE_APP_ID") ?? config["appId"] ?? Self.demoAppID
        )
    }
}

extension FirebaseOptions: Equatable {
    /// Whether two options hold the same values.
    public static func == (lhs: FirebaseOptions, rhs: FirebaseOptions) -> Bool {
        lhs === rhs || lhs.storage.withLock { $0 } == rhs.storage.withLock { $0 }
    }
}
