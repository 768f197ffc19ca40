import DataConnectTestSupport
import Dispatch
import EmulatorHTTP
import Synchronization

/// A responder serving plain HTTP answers and a table of gRPC methods, for the HTTP/2 tests.
struct GRPCTestResponder: HTTPResponder, GRPCService {
    let methods: [String: GRPCMethod]

    func respond(to request: HTTPRequest) -> HTTPResponse {
        .text("plain \(request.path)")
    }

    var grpcService: (any GRPCService)? { self }

    func method(for path: String) -> GRPCMethod? {
        methods[path]
    }
}

/// Starts a server on a free port serving `methods` over HTTP/2; stops it when the test's scope ends.
func withGRPCServer<Result>(
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    methods: [String: GRPCMethod],
    _ body: (HTTPServer) async throws -> Result
) async throws -> Result {
    let server = HTTPServer(port: 0, configuration: configuration, responder: GRPCTestResponder(methods: methods))
    try server.start()
    defer { server.stop() }
    return try await body(server)
}

/// `/test.Echo/Unary`: answers each message with itself.
let unaryEcho = GRPCMethod.unary { call in .ok(call.message) }

/// A flag set from one thread and read from another.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

extension GRPCCancellation {
    /// Blocks until the cancellation fires (or the hang guard passes); returns whether it fired.
    func waitUntilCancelled() -> Bool {
        let fired = DispatchSemaphore(value: 0)
        let registration = onCancel { fired.signal() }
        defer { remove(registration) }
        return fired.wait(timeout: .now() + HangGuard.eventSeconds) == .success
    }
}
