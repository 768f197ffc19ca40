import Foundation

/// Where operations are sent: a host, a port and whether TLS is used.
///
/// ```swift
/// ServiceEndpoint.production.baseURL  // https://firebasedataconnect.googleapis.com
/// ServiceEndpoint(emulator: EmulatorConfiguration()).baseURL  // http://127.0.0.1:9399
/// ```
public struct ServiceEndpoint: Hashable, Sendable {
    /// The production host.
    public static let productionHost = "firebasedataconnect.googleapis.com"
    /// The production service, `https://firebasedataconnect.googleapis.com:443`.
    public static let production = ServiceEndpoint(host: productionHost, port: 443, sslEnabled: true)

    /// The host name or IP address; IPv6 addresses without brackets.
    public var host: String
    /// The TCP port.
    public var port: Int
    /// Whether to use `https` (production) or plain `http` (the emulator).
    public var sslEnabled: Bool

    /// Creates an endpoint.
    public init(host: String, port: Int, sslEnabled: Bool) {
        self.host = host
        self.port = port
        self.sslEnabled = sslEnabled
    }

    /// The emulator at the configured host and port, over plain HTTP.
    public init(emulator: EmulatorConfiguration) {
        self.init(host: emulator.host, port: emulator.port, sslEnabled: false)
    }

    /// `{scheme}://{host}[:port]`, leaving out the scheme's default port.
    public var baseURL: String {
        let scheme = sslEnabled ? "https" : "http"
        let defaultPort = sslEnabled ? 443 : 80
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return port == defaultPort ? "\(scheme)://\(hostPart)" : "\(scheme)://\(hostPart):\(port)"
    }

    /// Chooses the endpoint: an explicit `useEmulator`, then the environment variable, then the settings.
    ///
    /// `FIREBASE_DATA_CONNECT_EMULATOR_HOST` (`host:port`, `host`, `[::1]:port`, optionally prefixed with
    /// `http://`) is read only when `useEmulator` was not called. A value that does not parse is ignored.
    ///
    /// ```swift
    /// ServiceEndpoint.resolve(settings: .production, emulator: nil,
    ///                         environment: ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": "localhost:9000"])
    /// // http://localhost:9000
    /// ```
    ///
    /// - Parameters:
    ///   - settings: The endpoint from the SDK settings.
    ///   - emulator: The configuration passed to `useEmulator`, if it was called.
    ///   - environment: The process environment, e.g. `ProcessInfo.processInfo.environment`.
    /// - Returns: The endpoint to use.
    public static func resolve(
        settings: ServiceEndpoint, emulator: EmulatorConfiguration?, environment: [String: String]
    ) -> ServiceEndpoint {
        if let emulator { return ServiceEndpoint(emulator: emulator) }
        if let value = environment[EmulatorConfiguration.environmentVariable],
            let fromEnvironment = EmulatorConfiguration(hostAndPort: value)
        {
            return ServiceEndpoint(emulator: fromEnvironment)
        }
        return settings
    }
}

/// The emulator's address, as passed to `useEmulator(host:port:)` or read from the environment.
public struct EmulatorConfiguration: Hashable, Sendable {
    /// `127.0.0.1`.
    public static let defaultHost = "127.0.0.1"
    /// `9399`.
    public static let defaultPort = 9399
    /// `FIREBASE_DATA_CONNECT_EMULATOR_HOST`, read as `host:port` when `useEmulator` was not called.
    public static let environmentVariable = "FIREBASE_DATA_CONNECT_EMULATOR_HOST"

    /// The emulator host.
    public var host: String
    /// The emulator port.
    public var port: Int

    /// Creates a configuration; the defaults are `127.0.0.1:9399`.
    public init(host: String = EmulatorConfiguration.defaultHost, port: Int = EmulatorConfiguration.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`, `host` (default port), `[ipv6]:port` or `[ipv6]`, optionally prefixed with
    /// `http://`; returns nil for an empty host or a port outside 1...65535.
    public init?(hostAndPort: String) {
        var text = Substring(hostAndPort.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("http://") { text = text.dropFirst("http://".count) }
        if text.hasSuffix("/") { text = text.dropLast() }
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else { return nil }
        } else {
            host = text
        }
        guard !host.isEmpty else { return nil }
        var port = EmulatorConfiguration.defaultPort
        if let portText {
            guard let parsed = Int(portText), (1...65535).contains(parsed) else { return nil }
            port = parsed
        }
        self.init(host: String(host), port: port)
    }
}
