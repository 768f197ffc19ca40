/// Where a ``DataConnect`` instance sends requests, and its cache settings.
///
/// Two settings are equal when host, port and TLS agree; ``cacheSettings`` is not compared, as upstream.
///
/// ```swift
/// let local = DataConnectSettings(host: "127.0.0.1", port: 9399, sslEnabled: false)
/// ```
public struct DataConnectSettings: Hashable, Equatable, Sendable {
    /// The service host.
    public let host: String
    /// The service port.
    public let port: Int
    /// Whether requests use HTTPS.
    public let sslEnabled: Bool
    /// The client cache settings, if any.
    public let cacheSettings: CacheSettings?

    /// Creates settings; the defaults address the production service.
    ///
    /// - Parameters:
    ///   - host: The service host; `firebasedataconnect.googleapis.com` by default.
    ///   - port: The service port; 443 by default.
    ///   - sslEnabled: Whether to use HTTPS; true by default.
    ///   - cacheSettings: The client cache settings; none by default.
    public init(
        host: String = ServiceEndpoint.productionHost, port: Int = 443, sslEnabled: Bool = true,
        cacheSettings: CacheSettings? = nil
    ) {
        self.host = host
        self.port = port
        self.sslEnabled = sslEnabled
        self.cacheSettings = cacheSettings
    }

    /// Compares host, port and TLS, ignoring ``cacheSettings``.
    public static func == (lhs: DataConnectSettings, rhs: DataConnectSettings) -> Bool {
        lhs.host == rhs.host && lhs.port == rhs.port && lhs.sslEnabled == rhs.sslEnabled
    }

    /// Hashes host, port and TLS, ignoring ``cacheSettings``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(sslEnabled)
    }

    /// The settings as a transport endpoint.
    var endpoint: ServiceEndpoint {
        ServiceEndpoint(host: host, port: port, sslEnabled: sslEnabled)
    }
}
