/// Where the Data Connect emulator listens: `host:port`.
///
/// ```swift
/// EmulatorAddress("127.0.0.1:9399")       // host "127.0.0.1", port 9399
/// EmulatorAddress.resolve(nil, environment: ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": "localhost:9000"])
/// ```
public struct EmulatorAddress: Equatable, Sendable, CustomStringConvertible {
    /// The environment variable that names the emulator when `--emulator` is not given.
    public static let environmentVariable = "FIREBASE_DATA_CONNECT_EMULATOR_HOST"
    /// `127.0.0.1:9399`, the emulator's default address.
    public static let standard = EmulatorAddress(host: "127.0.0.1", port: 9399)

    /// The host name or IP address; IPv6 addresses are given in brackets (`[::1]:9399`) and kept without them.
    public var host: String
    /// The TCP port.
    public var port: Int

    /// Creates an address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port` (or `[ipv6]:port`); `nil` when either part is missing or the port is not 1 to 65535.
    ///
    /// - Parameter text: The address text.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        self.init(host: host, port: port)
    }

    /// `host:port`, with an IPv6 host in brackets.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The address to use: the explicit one, else the environment's, else ``standard``.
    ///
    /// - Parameters:
    ///   - explicit: The address from `--emulator`, if given.
    ///   - environment: The process environment; ``environmentVariable`` is read from it.
    /// - Returns: The address.
    /// - Throws: ``InvalidEnvironmentValue`` when the environment variable is set but is not `host:port`.
    public static func resolve(
        _ explicit: EmulatorAddress?, environment: [String: String]
    ) throws(InvalidEnvironmentValue) -> EmulatorAddress {
        if let explicit { return explicit }
        guard let text = environment[environmentVariable], !text.isEmpty else { return standard }
        guard let address = EmulatorAddress(text) else { throw InvalidEnvironmentValue(value: text) }
        return address
    }

    /// ``environmentVariable`` is set, but not to `host:port`; each app reports it as a usage error.
    public struct InvalidEnvironmentValue: Error, Hashable, Sendable, CustomStringConvertible {
        /// The variable's value.
        public var value: String

        /// Creates the error for a value.
        public init(value: String) {
            self.value = value
        }

        /// `FIREBASE_DATA_CONNECT_EMULATOR_HOST must be HOST:PORT, got "<value>"`.
        public var description: String {
            "\(EmulatorAddress.environmentVariable) must be HOST:PORT, got \"\(value)\""
        }
    }
}
