import DataConnectWire
import Synchronization

/// A transport for unit tests: records every request and replies from a queue or a closure.
///
/// ```swift
/// let transport = RecordingTransport()
/// transport.enqueue(GraphQLResponse(data: ["movies": []]))
/// transport.enqueue(failure: .server(RequestError(status: .unauthenticated, message: "sign in"), httpStatus: 401))
/// // … run the code under test …
/// transport.requests.map(\.operationName)  // ["listMovies", "addReview"]
/// ```
///
/// Queued replies are used first, in order; then the handler, if any. With neither, `execute` throws
/// ``TransportError/invalidRequest(_:)`` naming the operation.
public final class RecordingTransport: Transport {
    /// Produces a reply for a request when the queue is empty.
    public typealias Handler = @Sendable (OperationRequest) async throws(TransportError) -> GraphQLResponse

    private struct State {
        var requests: [OperationRequest] = []
        var replies: [Result<GraphQLResponse, TransportError>] = []
    }

    private let state = Mutex(State())
    private let handler: Handler?

    /// Creates a transport replying with `replies` in order, then with `handler`.
    ///
    /// - Parameters:
    ///   - replies: Responses or failures, used once each.
    ///   - handler: Called when no queued reply is left.
    public init(replies: [Result<GraphQLResponse, TransportError>] = [], handler: Handler? = nil) {
        self.handler = handler
        state.withLock { $0.replies = replies }
    }

    /// Every request executed so far, oldest first.
    public var requests: [OperationRequest] {
        state.withLock { $0.requests }
    }

    /// Queues a response.
    public func enqueue(_ response: GraphQLResponse) {
        state.withLock { $0.replies.append(.success(response)) }
    }

    /// Queues a failure.
    public func enqueue(failure: TransportError) {
        state.withLock { $0.replies.append(.failure(failure)) }
    }

    /// Forgets the recorded requests.
    public func clearRequests() {
        state.withLock { $0.requests.removeAll() }
    }

    /// Records the request and replies with the next queued reply or the handler's.
    public func execute(_ request: OperationRequest) async throws(TransportError) -> GraphQLResponse {
        let queued = state.withLock { state -> Result<GraphQLResponse, TransportError>? in
            state.requests.append(request)
            return state.replies.isEmpty ? nil : state.replies.removeFirst()
        }
        if let queued { return try queued.get() }
        guard let handler else {
            throw .invalidRequest("RecordingTransport has no reply for \(request.operationName)")
        }
        return try await handler(request)
    }
}
