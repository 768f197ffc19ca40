import DataConnectWire
import EmulatorHTTP
import FirebaseDataConnect
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``FirebaseDataConnect/Transport`` that hands each request to an emulator's responder in this process.
///
/// No socket, no `URLSession`: each operation becomes the `HTTPRequest` the live transport would send (same
/// path, query, headers and body), the responder answers it on the calling thread, and its reply is read as the
/// live transport reads one (so partial errors, HTTP errors and `extensions` behave the same). Tests of app code
/// run faster and cannot collide on ports; tests whose subject is HTTP keep a live ``TestEmulator``.
///
/// Only queries and mutations go through a `Transport`. Realtime subscriptions go through a
/// `SubscriptionTransport`: ``InProcessSubscriptionTransport`` for an in-process emulator, the WebSocket stream
/// (`StreamTransport`) for a live one.
///
/// ```swift
/// let emulator = try TestEmulator.inProcess(backend: "Backend/movies")
/// let transport = InProcessTransport(responder: emulator.responder)
/// let response = try await transport.execute(request)
/// ```
public struct InProcessTransport: Transport {
    /// The address written into each request's URL and `Host`; nothing connects to it.
    public static let endpoint = ServiceEndpoint(host: "127.0.0.1", port: 9399, sslEnabled: false)

    /// Answers the requests.
    public let responder: any HTTPResponder
    private let rest: URLSessionTransport

    /// Creates a transport answering from `responder`.
    ///
    /// - Parameters:
    ///   - responder: Usually ``TestEmulator/responder``.
    ///   - authTokenProvider: Supplies `X-Firebase-Auth-Token` for requests that carry no token of their own
    ///     (`DataConnect` puts its provider's token on each request itself).
    public init(responder: any HTTPResponder, authTokenProvider: (any AuthTokenProvider)? = nil) {
        self.responder = responder
        rest = URLSessionTransport(
            configuration: .init(endpoint: Self.endpoint, authTokenProvider: authTokenProvider)
        ) { request in
            let response = responder.respond(to: Self.httpRequest(from: request))
            guard let body = response.bodyBytes else {
                throw StreamedReply(path: request.url?.path ?? "")
            }
            return (status: response.status.code, body: Data(body))
        }
    }

    /// Sends the operation to the responder.
    ///
    /// - Parameter request: The operation, its variables and header context.
    /// - Returns: The response, with partial data and execution errors kept.
    /// - Throws: `TransportError`, as the live transport does for the same reply.
    public func execute(_ request: OperationRequest) async throws(TransportError) -> GraphQLResponse {
        try await rest.execute(request)
    }

    /// The request the server would hand the responder for `request`.
    static func httpRequest(from request: URLRequest) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let url = request.url, let host = url.host {
            headers.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
        }
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.add(name: name, value: value)
        }
        // The SDK's requests carry a query only with an API key.
        let components = request.url.flatMap {
            $0.query == nil ? nil : URLComponents(url: $0, resolvingAgainstBaseURL: false)
        }
        return HTTPRequest(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), path: request.url?.path ?? "/",
            query: (components?.queryItems ?? []).map { HTTPRequest.QueryItem(name: $0.name, value: $0.value) },
            headers: headers, body: [UInt8](request.httpBody ?? Data()), remoteAddress: "127.0.0.1")
    }

    /// The responder answered with a streamed body, which only a socket can carry.
    struct StreamedReply: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) answered with a streamed body; use a live TestEmulator" }
    }
}
