import DataConnectWire

/// Sends one connector operation to a Data Connect service and returns its GraphQL response.
///
/// A transport has one job: turn an ``OperationRequest`` into a `GraphQLResponse`. Execution errors that come
/// back with HTTP 200 (a non-empty `errors` array, possibly with partial `data`) are part of the response, not a
/// thrown error; only request-level failures throw.
///
/// ```swift
/// let transport: any Transport = URLSessionTransport(configuration: .init(endpoint: .production))
/// let response = try await transport.execute(request)
/// response.data?["movies"]
/// ```
///
/// ``URLSessionTransport`` talks REST to the service or the emulator; ``RecordingTransport`` records requests and
/// replies with canned responses for unit tests.
public protocol Transport: Sendable {
    /// Executes one query or mutation.
    ///
    /// - Parameter request: The operation to run, with its variables and header context.
    /// - Returns: The response: `data`, `errors` and `extensions`, partial data included.
    /// - Throws: ``TransportError`` when no GraphQL response was received.
    func execute(_ request: OperationRequest) async throws(TransportError) -> GraphQLResponse
}
