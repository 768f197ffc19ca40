import Foundation

/// The versions reported in `X-Goog-Api-Client` and `X-Client-Version`.
///
/// ```swift
/// let versions = ClientVersions(sdk: "11.12.6", swift: "6.3", os: "6.1.0")
/// versions.apiClientHeader(generated: true)  // gl-swift/6.3 fire/11.12.6 gl-linux/6.1.0 swift/gen
/// versions.clientVersionHeader               // linux/11.12.6
/// ```
public struct ClientVersions: Hashable, Sendable {
    /// The SDK version this package follows.
    public static let sdkVersion = "11.12.6"

    /// The versions of this build on this machine.
    public static let current = ClientVersions(sdk: sdkVersion, swift: compilerVersion, os: operatingSystemVersion)

    /// The SDK version, e.g. `11.12.6`.
    public var sdk: String
    /// The Swift language version the SDK was compiled with, e.g. `6.3`.
    public var swift: String
    /// The operating system (kernel) version, e.g. `6.1.0`.
    public var os: String

    /// Creates a set of versions.
    public init(sdk: String, swift: String, os: String) {
        self.sdk = sdk
        self.swift = swift
        self.os = os
    }

    /// `gl-swift/<swift> fire/<sdk> gl-linux/<os>`, plus ` swift/gen` for generated callers.
    public func apiClientHeader(generated: Bool) -> String {
        "gl-swift/\(swift) fire/\(sdk) gl-linux/\(os)" + (generated ? " swift/gen" : "")
    }

    /// `linux/<sdk>`.
    public var clientVersionHeader: String {
        "linux/\(sdk)"
    }

    private static var compilerVersion: String {
        #if swift(>=6.4)
        "6.4"
        #elseif swift(>=6.3)
        "6.3"
        #elseif swift(>=6.2)
        "6.2"
        #elseif swift(>=6.1)
        "6.1"
        #else
        "6.0"
        #endif
    }

    private static var operatingSystemVersion: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }
}
