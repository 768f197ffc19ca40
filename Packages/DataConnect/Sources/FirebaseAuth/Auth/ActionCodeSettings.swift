import Foundation
import Synchronization

/// Where the link of an action email leads and which apps may open it, as upstream.
///
/// ```swift
/// let settings = ActionCodeSettings()
/// settings.url = URL(string: "https://example.com/finish")
/// settings.handleCodeInApp = true
/// try await Auth.auth().sendPasswordReset(withEmail: "alice@example.com", actionCodeSettings: settings)
/// ```
public final class ActionCodeSettings: Sendable {
    private struct Values {
        var url: URL?
        var handleCodeInApp = false
        var iOSBundleID: String?
        var androidPackageName: String?
        var androidMinimumVersion: String?
        var androidInstallIfNotAvailable = false
        var linkDomain: String?
    }

    private let values = Mutex(Values())

    /// Creates empty settings.
    public init() {}

    /// The continue URL (`continueUrl`).
    public var url: URL? {
        get { values.withLock { $0.url } }
        set { values.withLock { $0.url = newValue } }
    }

    /// Whether the link opens the app directly (`canHandleCodeInApp`).
    public var handleCodeInApp: Bool {
        get { values.withLock { $0.handleCodeInApp } }
        set { values.withLock { $0.handleCodeInApp = newValue } }
    }

    /// The iOS bundle ID (`iOSBundleId`).
    public var iOSBundleID: String? {
        get { values.withLock { $0.iOSBundleID } }
        set { values.withLock { $0.iOSBundleID = newValue } }
    }

    /// The Android package name (`androidPackageName`).
    public var androidPackageName: String? { values.withLock { $0.androidPackageName } }

    /// The minimum Android version (`androidMinimumVersion`).
    public var androidMinimumVersion: String? { values.withLock { $0.androidMinimumVersion } }

    /// Whether to install the Android app (`androidInstallApp`).
    public var androidInstallIfNotAvailable: Bool { values.withLock { $0.androidInstallIfNotAvailable } }

    /// The custom Hosting domain of the link (`linkDomain`).
    public var linkDomain: String? {
        get { values.withLock { $0.linkDomain } }
        set { values.withLock { $0.linkDomain = newValue } }
    }

    /// Sets the iOS bundle ID.
    ///
    /// - Parameter bundleID: The bundle ID.
    public func setIOSBundleID(_ bundleID: String) {
        iOSBundleID = bundleID
    }

    /// Sets the Android package.
    ///
    /// - Parameters:
    ///   - packageName: The package name.
    ///   - installIfNotAvailable: Whether to install the app.
    ///   - minimumVersion: The minimum version.
    public func setAndroidPackageName(_ packageName: String, installIfNotAvailable: Bool, minimumVersion: String?) {
        values.withLock {
            $0.androidPackageName = packageName
            $0.androidInstallIfNotAvailable = installIfNotAvailable
            $0.androidMinimumVersion = minimumVersion
        }
    }

    /// Copies the settings into an `accounts:sendOobCode` body.
    func apply(to body: inout SendOobCodeBody) {
        let values = values.withLock { $0 }
        body.continueUrl = values.url?.absoluteString
        body.iOSBundleId = values.iOSBundleID
        body.androidPackageName = values.androidPackageName
        body.androidMinimumVersion = values.androidMinimumVersion
        body.androidInstallApp = values.androidInstallIfNotAvailable ? true : nil
        body.canHandleCodeInApp = values.handleCodeInApp ? true : nil
        body.linkDomain = values.linkDomain
    }
}
