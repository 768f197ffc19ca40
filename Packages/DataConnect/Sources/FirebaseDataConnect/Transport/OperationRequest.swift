import DataConnectWire

/// The resource name of a connector: `projects/{project}/locations/{location}/services/{service}/connectors/{id}`.
///
/// ```swift
/// let connector = ConnectorResourceName(projectID: "demo", location: "us-central1", serviceID: "movies",
///                                       connectorID: "movies")
/// connector.path  // projects/demo/locations/us-central1/services/movies/connectors/movies
/// ```
public struct ConnectorResourceName: Hashable, Sendable {
    /// The Firebase project id.
    public var projectID: String
    /// The service's region, e.g. `us-central1`.
    public var location: String
    /// The service id from `dataconnect.yaml`.
    public var serviceID: String
    /// The connector id from `connector.yaml`.
    public var connectorID: String

    /// Creates a connector resource name.
    public init(projectID: String, location: String, serviceID: String, connectorID: String) {
        self.projectID = projectID
        self.location = location
        self.serviceID = serviceID
        self.connectorID = connectorID
    }

    /// `projects/{project}/locations/{location}/services/{service}/connectors/{connector}`.
    public var path: String {
        "projects/\(projectID)/locations/\(location)/services/\(serviceID)/connectors/\(connectorID)"
    }

    /// The value of `x-firebase-sqlconnect-affinity`: project id and service id with no separator.
    public var affinity: String {
        projectID + serviceID
    }
}

/// The header context sent with an operation: who calls, as which app, with which credentials.
public struct RequestMetadata: Hashable, Sendable {
    /// The Firebase app id (`googleAppID`), sent as `x-firebase-gmpid` when set.
    public var appID: String?
    /// The API key, sent as `?key=` when set.
    public var apiKey: String?
    /// A Firebase ID token for `X-Firebase-Auth-Token` (no `Bearer`).
    ///
    /// When nil, ``URLSessionTransport`` asks its token provider, if it has one; when there is no token the
    /// header is omitted.
    public var authToken: String?
    /// An App Check token for `X-Firebase-AppCheck`, when configured.
    public var appCheckToken: String?
    /// Whether the caller is generated connector code; adds ` swift/gen` to `X-Goog-Api-Client`.
    public var isGeneratedCaller: Bool

    /// Creates a header context.
    public init(
        appID: String? = nil, apiKey: String? = nil, authToken: String? = nil, appCheckToken: String? = nil,
        isGeneratedCaller: Bool = false
    ) {
        self.appID = appID
        self.apiKey = apiKey
        self.authToken = authToken
        self.appCheckToken = appCheckToken
        self.isGeneratedCaller = isGeneratedCaller
    }
}

/// One operation to run: which connector, query or mutation, which operation, with which variables and headers.
///
/// ```swift
/// let request = OperationRequest(connector: connector, kind: .query, operationName: "listMoviesByGenre",
///                                variables: ["genre": "Drama"])
/// ```
///
/// Unset optional variables are absent from `variables`; an explicit null is `.null`. The body always carries
/// `variables`, as `{}` when empty.
public struct OperationRequest: Hashable, Sendable {
    /// Whether an operation reads or writes; chooses `:executeQuery` or `:executeMutation`.
    public enum Kind: String, Hashable, Sendable {
        /// A query, sent to `:executeQuery`; safe to retry.
        case query
        /// A mutation, sent to `:executeMutation`; never retried silently.
        case mutation

        /// The REST method name: `executeQuery` or `executeMutation`.
        public var methodName: String {
            switch self {
            case .query: "executeQuery"
            case .mutation: "executeMutation"
            }
        }
    }

    /// The connector the operation belongs to.
    public var connector: ConnectorResourceName
    /// Query or mutation.
    public var kind: Kind
    /// The deployed operation's name.
    public var operationName: String
    /// The operation's variables.
    public var variables: JSONObject
    /// The header context.
    public var metadata: RequestMetadata

    /// Creates an operation request.
    public init(
        connector: ConnectorResourceName, kind: Kind, operationName: String, variables: JSONObject = [:],
        metadata: RequestMetadata = RequestMetadata()
    ) {
        self.connector = connector
        self.kind = kind
        self.operationName = operationName
        self.variables = variables
        self.metadata = metadata
    }

    /// The wire body: `{"name", "operationName", "variables"}`.
    public var body: GraphQLRequest {
        GraphQLRequest(name: connector.path, operationName: operationName, variables: variables)
    }
}
