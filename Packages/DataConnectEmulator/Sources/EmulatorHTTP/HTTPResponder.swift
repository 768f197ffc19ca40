/// The seam between the HTTP server and the application: one request in, one response out.
///
/// The server calls `respond(to:)` synchronously on one of its worker threads once a request has been
/// received in full, and sends whatever it returns. Several requests are answered at the same time on
/// different threads, so a responder must be safe to call concurrently (`Sendable`, with shared state
/// immutable or lock-guarded).
///
/// The call is synchronous on purpose: the emulator's engine is synchronous (SQLite calls), and answering
/// on the server thread avoids a hop through the Swift concurrency pool for every request. A responder
/// should not block for long: a worker thread that waits serves no other connection until it hands its
/// connections over to another thread, which costs a thread start and happens only once the request has run for a
/// while (``HTTPServer/Configuration-swift.struct/handOverConnectionsAfter``).
/// Long-lived, event-driven exchanges upgrade to a WebSocket instead (``HTTPResponse/webSocket(for:handler:)``),
/// whose handler is called from the server's WebSocket reactor.
///
/// ```swift
/// struct Hello: HTTPResponder {
///     func respond(to request: HTTPRequest) -> HTTPResponse {
///         .json(#"{"hello":"\#(request.path)"}"#)
///     }
/// }
/// ```
public protocol HTTPResponder: Sendable {
    /// Answers one request.
    ///
    /// - Parameter request: The request, with its body received in full.
    /// - Returns: The response to send.
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// Whether the request may run long (database work), so that it must never hold up the other connections of
    /// its thread: `false` by default. The native HTTP/1.1 side runs every request on its connection's thread and
    /// hands the thread's other connections over when one runs long, so it does not ask; libmicrohttpd's side runs
    /// these on the server's request lanes (``RequestLanes``), calling this on the connection's thread before
    /// ``respond(to:)``, so it must be cheap.
    func runsInLanes(_ request: HTTPRequest) -> Bool

    /// The responder's gRPC services, served on HTTP/2 connections (plaintext, prior knowledge) on the same port;
    /// nil (the default) answers every gRPC call UNIMPLEMENTED. Read once per run of the server, when it starts.
    var grpcService: (any GRPCService)? { get }

    /// A companion for one loop of the native HTTP/1.1 side (``LoopCompanion``), made once per loop when the server
    /// starts; `nil` (the default) for none: every request is then answered by ``respond(to:)``.
    func makeLoopCompanion() -> (any LoopCompanion)?

    /// Answers one request on a loop that has a companion: now, or later through the companion. The default answers
    /// now with ``respond(to:)``.
    func respond(to request: HTTPRequest, companion: any LoopCompanion) -> HTTPAnswer
}

extension HTTPResponder {
    /// Every request is answered on the connection's thread.
    public func runsInLanes(_ request: HTTPRequest) -> Bool { false }

    /// No gRPC services.
    public var grpcService: (any GRPCService)? { nil }

    /// No companions.
    public func makeLoopCompanion() -> (any LoopCompanion)? { nil }

    /// Answers now.
    public func respond(to request: HTTPRequest, companion: any LoopCompanion) -> HTTPAnswer {
        .now(respond(to: request))
    }
}

/// An ``HTTPResponder`` made from a closure, for small servers and tests.
///
/// ```swift
/// let responder = HTTPClosureResponder { request in .text("you asked for \(request.path)") }
/// ```
public struct HTTPClosureResponder: HTTPResponder {
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse

    /// Creates a responder that calls `handler` for every request.
    public init(_ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.handler = handler
    }

    /// Calls the closure.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        handler(request)
    }
}
