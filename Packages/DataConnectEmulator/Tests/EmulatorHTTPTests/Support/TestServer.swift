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

/// The HTTP/1.1 implementations; the HTTP/1.1 suites run against each.
typealias HTTP1Implementation = HTTPServer.Configuration.HTTP1Implementation

extension HTTPServer.Configuration {
    /// This configuration with `implementation` serving HTTP/1.1.
    func serving(_ implementation: HTTP1Implementation) -> HTTPServer.Configuration {
        var configuration = self
        configuration.http1Implementation = implementation
        return configuration
    }
}

/// Starts a server on a free port with a responder closure, its HTTP/1.1 side in `http1` (by default the
/// configuration's); stops it when the test's scope ends.
func withServer<Result>(
    _ http1: HTTP1Implementation? = nil,
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
    _ body: (HTTPServer) async throws -> Result
) async throws -> Result {
    let configuration = http1.map { configuration.serving($0) } ?? configuration
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
