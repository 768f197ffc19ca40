/// Names one connector of a Data Connect service: the service id, its region and the connector id.
///
/// ```swift
/// let config = ConnectorConfig(serviceId: "movies", location: "us-central1", connector: "movies")
/// ```
public struct ConnectorConfig: Hashable, Equatable, Sendable {
    /// The service id from `dataconnect.yaml`.
    public let serviceId: String
    /// The service's region, e.g. `us-central1`.
    public let location: String
    /// The connector id from `connector.yaml`.
    public let connector: String

    /// Creates a connector configuration.
    ///
    /// - Parameters:
    ///   - serviceId: The service id.
    ///   - location: The service's region.
    ///   - connector: The connector id.
    public init(serviceId: String, location: String, connector: String) {
        self.serviceId = serviceId
        self.location = location
        self.connector = connector
    }
}
