import DataConnectWire
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One message of a realtime subscription: a `StreamResponse` of the stream protocol.
public struct StreamMessage: Hashable, Sendable {
    /// The request id the server echoes.
    public var requestID: String
    /// The result: `data`, `errors` and `extensions`, as for `:executeQuery`.
    public var response: GraphQLResponse
    /// The fingerprint of the result's bytes; sent back on reconnect so an unchanged result is not resent.
    public var dataEtag: String?
    /// Whether the server stopped serving the subscription (the operation changed, access was revoked, or the
    /// server is stopping); no message follows.
    public var cancelled: Bool

    /// Creates a message.
    public init(requestID: String, response: GraphQLResponse, dataEtag: String? = nil, cancelled: Bool = false) {
        self.requestID = requestID
        self.response = response
        self.dataEtag = dataEtag
        self.cancelled = cancelled
    }

    /// Reads a `StreamResponse` JSON object.
    ///
    /// - Throws: ``TransportError/malformedResponse(_:)`` when it is not one.
    init(json: JSONValue) throws(TransportError) {
        guard case .object(let object) = json else { throw .malformedResponse("a stream event is not an object") }
        do {
            response = try GraphQLResponse(json: json)
        } catch {
            throw .malformedResponse("a stream event: \(error)")
        }
        requestID = object["requestId"]?.stringValue ?? ""
        dataEtag = object["dataEtag"]?.stringValue
        cancelled = object["cancelled"]?.boolValue ?? false
    }
}

/// Opens realtime subscriptions: one long-lived stream of results per subscribed query.
///
/// ```swift
/// for try await message in transport.subscribe(request, dataEtag: nil) { print(message.response.data ?? .null) }
/// ```
public protocol SubscriptionTransport: Sendable {
    /// Subscribes to a query; the stream yields the current result, then every change, until the server ends
    /// it (it then finishes), the connection fails (it throws a ``TransportError``) or the consumer stops.
    ///
    /// - Parameters:
    ///   - request: The query, its variables and header context (the auth token included).
    ///   - dataEtag: The etag of the result the caller already has, so an unchanged first result is skipped.
    func subscribe(_ request: OperationRequest, dataEtag: String?) -> AsyncThrowingStream<StreamMessage, any Error>
}

/// Realtime subscriptions over server-sent events on HTTP/1.1.
///
/// `POST {base}/v1/{connector}:subscribe` with the `:executeQuery` body (plus `dataEtag`) and headers, answered
/// by `text/event-stream` whose events each carry one `StreamResponse` (see `docs/realtime.md`). A stream that
/// sends nothing, not even its `: ping` heartbeat, for ``idleTimeout`` seconds is treated as dead and fails,
/// rather than going quiet.
public final class ServerSentEventsTransport: SubscriptionTransport {
    /// Where the service or emulator is.
    public let endpoint: ServiceEndpoint
    /// Seconds without a byte before a stream counts as dead (three missed 15-second heartbeats by default).
    public let idleTimeout: TimeInterval
    private let versions = ClientVersions.current

    /// Creates the transport.
    public init(endpoint: ServiceEndpoint, idleTimeout: TimeInterval = 45) {
        self.endpoint = endpoint
        self.idleTimeout = idleTimeout
    }

    public func subscribe(
        _ request: OperationRequest, dataEtag: String?
    ) -> AsyncThrowingStream<
        StreamMessage, any Error
    > {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamMessage.self, throwing: (any Error).self)
        var urlRequest: URLRequest
        do {
            urlRequest = try URLSessionTransport.makeURLRequest(
                for: request, authToken: request.metadata.authToken, endpoint: endpoint, timeout: idleTimeout,
                versions: versions, method: "subscribe")
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        urlRequest.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if let dataEtag {
            var body = request.body.toJSON()
            if case .object(var object) = body {
                object["dataEtag"] = .string(dataEtag)
                body = .object(object)
            }
            urlRequest.httpBody = Data(body.serialized())
        }
        let delegate = StreamDelegate(continuation: continuation)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.timeoutIntervalForResource = .infinity
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest)
        let idleTimeout = idleTimeout
        let watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(min(idleTimeout / 3, 5)))
                if delegate.secondsSinceActivity > idleTimeout {
                    delegate.fail(.connection("no data or heartbeat for \(Int(idleTimeout)) s", code: -1001))
                    task.cancel()
                    return
                }
            }
        }
        continuation.onTermination = { _ in
            watchdog.cancel()
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        return stream
    }
}

/// Feeds one data task's bytes through the event parser into the stream.
private final class StreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct State {
        var parser = ServerSentEventParser()
        var status = 0
        var errorBody: [UInt8] = []
        var lastActivity = ContinuousClock.now
        var finished = false
    }

    private let continuation: AsyncThrowingStream<StreamMessage, any Error>.Continuation
    private let state = Mutex(State())

    init(continuation: AsyncThrowingStream<StreamMessage, any Error>.Continuation) {
        self.continuation = continuation
    }

    var secondsSinceActivity: TimeInterval {
        let elapsed = ContinuousClock.now - state.withLock { $0.lastActivity }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    func fail(_ error: TransportError) {
        let first = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        if first { continuation.finish(throwing: error) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        state.withLock {
            $0.status = status
            $0.lastActivity = .now
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let items = state.withLock { state -> [ServerSentEventParser.Item] in
            state.lastActivity = .now
            guard state.status == 200 else {
                state.errorBody.append(contentsOf: data.prefix(65_536 - state.errorBody.count))
                return []
            }
            return state.parser.feed(data)
        }
        for item in items {
            guard case .event(let text) = item else { continue }
            do {
                let message = try StreamMessage(json: try JSONValue(parsing: Array(text.utf8)))
                continuation.yield(message)
            } catch let error as TransportError {
                fail(error)
            } catch {
                fail(.malformedResponse("a stream event is not JSON: \(error)"))
            }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (status, body) = state.withLock { ($0.status, $0.errorBody) }
        if let error {
            let code = (error as NSError).code
            fail(code == NSURLErrorCancelled ? .cancelled : .connection(error.localizedDescription, code: code))
        } else if status != 200 {
            do throws(TransportError) {
                _ = try URLSessionTransport.decode(URLSessionTransport.HTTPReply(status: status, body: Data(body)))
                fail(.malformedResponse("unexpected HTTP status \(status) for a subscription"))
            } catch {
                fail(error)
            }
        } else {
            let first = state.withLock { state -> Bool in
                defer { state.finished = true }
                return !state.finished
            }
            if first { continuation.finish() }
        }
        session.finishTasksAndInvalidate()
    }
}
