import Foundation
import Synchronization

/// A configured Firebase app: a name and the options of one project.
///
/// The registry of apps is shared by the process and safe to use from any thread.
///
/// ```swift
/// FirebaseApp.configure()                       // the default app, options from the environment
/// FirebaseApp.configure(name: "staging", options: FirebaseOptions(projectID: "movies-staging"))
/// let staging = FirebaseApp.app(name: "staging")
/// ```
public final class FirebaseApp: Sendable {
    /// The name of the default app, as upstream.
    public static let defaultAppName = "__FIRAPP_DEFAULT"

    private static let registry = Mutex<[String: FirebaseApp]>([:])

    /// The app's name.
    public let name: String

    /// The app's options.
    public let options: FirebaseOptions

    private init(name: String, options: FirebaseOptions) {
        self.name = name
        self.options = options
    }

    /// Whether this is the default app.
    public var isDefaultApp: Bool {
        name == Self.defaultAppName
    }

    /// Configures the default app with ``FirebaseOptions/defaultOptions()``.
    ///
    /// When a default app exists already, it is kept.
    public static func configure() {
        configure(
            options: FirebaseOptions.defaultOptions() ?? FirebaseOptions(projectID: FirebaseOptions.demoProjectID))
    }

    /// Configures the default app with `options`.
    ///
    /// When a default app exists already, it is kept.
    ///
    /// - Parameter options: The project's options.
    public static func configure(options: FirebaseOptions) {
        configure(name: defaultAppName, options: options)
    }

    /// Configures an app named `name` with `options`.
    ///
    /// Upstream raises an exception when the name is taken; here the existing app is kept and the call does
    /// nothing, so configuring twice is harmless.
    ///
    /// - Parameters:
    ///   - name: The app's name.
    ///   - options: The project's options.
    public static func configure(name: String, options: FirebaseOptions) {
        registry.withLock { apps in
            if apps[name] == nil {
                apps[name] = FirebaseApp(name: name, options: options)
            }
        }
    }

    /// The default app, or `nil` before ``configure()``.
    public static func app() -> FirebaseApp? {
        app(name: defaultAppName)
    }

    /// The app named `name`, or `nil` when there is none.
    public static func app(name: String) -> FirebaseApp? {
        registry.withLock { $0[name] }
    }

    /// All configured apps by name, or `nil` when there are none (as upstream).
    public static var allApps: [String: FirebaseApp]? {
        let apps = registry.withLock { $0 }
        return apps.isEmpty ? nil : apps
    }

    /// Removes the app, calling `completion` with whether it was configured.
    ///
    /// - Parameter completion: Called once, before this method returns.
    public func delete(_ completion: (Bool) -> Void) {
        completion(removeFromRegistry())
    }

    /// Removes the app.
    ///
    /// - Returns: Whether the app was configured.
    @discardableResult
    public func delete() async -> Bool {
        removeFromRegistry()
    }

    private func removeFromRegistry() -> Bool {
        Self.registry.withLock { apps in
            guard apps[name] === self else { return false }
            apps[name] = nil
            return true
        }
    }
}
