import EmulatorHTTP
import Synchronization

/// Records the requests a responder saw, so tests can assert on them.
final class RequestRecorder: Sendable {
    private let storage = Mutex<[HTTPRequest]>([])

    func record(_ request: HTTPRequest) {
        storage.withLock { $0.append(request) }
    }

    var requests: [HTTPRequest] {
        storage.withLock { $0 }
    }
}

/// Starts a server on a free port with a responder closure; stops it when the test's scope ends.
func withServer<Result>(
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
    _ body: (HTTPServer) async throws -> Result
) async throws -> Result {
    let server = HTTPServer(port: 0, configuration: configuration, respond: respond)
    try server.start()
    defer { server.stop() }
    return try await body(server)
}

/// A responder that records each request and echoes its body as JSON.
func echoResponder(recorder: RequestRecorder) -> @Sendable (HTTPRequest) -> HTTPResponse {
    { request in
        recorder.record(request)
        return .json(request.body)
    }
}
