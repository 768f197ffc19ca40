import DataConnectProtobuf
import DataConnectWire
import EmulatorHTTP

/// One `ConnectorStreamService/Connect` call: the realtime stream over gRPC, served by ``StreamRequests`` on the
/// same hub as the WebSocket stream, so a mutation over REST, WebSocket or gRPC reaches subscribers on all three.
///
/// Each request message is a protobuf `StreamRequest`, each answer a `StreamResponse`. The call's metadata is the
/// stream's first headers (`x-firebase-auth-token`); a message's `headers` replace them for later requests (the iOS
/// SDK refreshes its token so, in a message holding only `headers`). A message with `name` and `request_id` but no
/// kind only names the connector. `execute` runs on the server's request lanes, so a slow operation never holds up
/// the connection's other streams. A message that is not a `StreamRequest` ends the call with `INVALID_ARGUMENT`;
/// when the client half-closes, the call ends `OK` once its subscriptions are dropped; when it resets the stream or
/// the connection goes, its subscriptions end.
final class GRPCStreamSession: GRPCStreamHandler {
    private let requests: StreamRequests
    private let output: GRPCStreamOutput

    init(responder: EmulatorResponder, head: GRPCCallHead, stream: GRPCServerStream) {
        requests = StreamRequests(
            responder: responder, pathService: nil, remoteAddress: head.remoteAddress,
            authToken: head.metadata["x-firebase-auth-token"])
        output = GRPCStreamOutput(stream: stream)
        // HTTP/2 has its own keep-alive (PING); the hub's heartbeat has nothing to add on a gRPC stream.
    }

    func received(_ message: [UInt8]) {
        let request: StreamRequest
        do {
            request = try StreamRequest(protobuf: message)
        } catch {
            requests.closed()
            output.stream.finish(
                GRPCStatus(code: .invalidArgument, message: "the message is not a StreamRequest: \(error)"))
            return
        }
        requests.handle(request, via: output)
    }

    func clientFinished() {
        requests.closed()
        output.stream.finish(GRPCStatus(code: .ok, message: ""))
    }

    func cancelled() {
        requests.closed()
    }
}

/// The gRPC side of a realtime stream: responses are protobuf `StreamResponse` messages; `execute` runs on the
/// server's request lanes.
struct GRPCStreamOutput: StreamOutput {
    let stream: GRPCServerStream

    func send(response: [UInt8]) {
        do {
            send(try StreamResponse(json: JSONValue(parsing: response)))
        } catch {
            stream.finish(GRPCStatus(code: .internal, message: "a response could not be encoded: \(error)"))
        }
    }

    func send(_ response: StreamResponse) {
        do {
            stream.send(try response.protobufBytes())
        } catch {
            stream.finish(GRPCStatus(code: .internal, message: "a response could not be encoded: \(error)"))
        }
    }

    func sendStreamError(_ error: RequestError) {
        // No request id can carry it: a response under the empty id, and the stream goes on.
        send(StreamResponse(requestId: "", errors: [GraphQLError(message: error.message, code: error.status)]))
    }

    func makeSink(requestId: String, ended: @escaping @Sendable () -> Void) -> any SubscriptionSink {
        GRPCSubscriptionSink(stream: stream, requestId: requestId, ended: ended)
    }

    func run(_ work: @escaping @Sendable () -> Void) {
        stream.submit(work)
    }
}

/// A subscriber that is one request on a gRPC stream.
///
/// The hub hands every subscriber of a group the same ``HubResult``. A protobuf message is the concatenation of its
/// fields, so the result's fields are transcoded once per result (kept in the ``HubResult``) and each subscriber's
/// `StreamResponse` is its own `request_id` field followed by those bytes.
final class GRPCSubscriptionSink: SubscriptionSink {
    let stream: GRPCServerStream
    /// The encoded `request_id` field.
    let requestIdField: [UInt8]
    let ended: @Sendable () -> Void

    init(stream: GRPCServerStream, requestId: String, ended: @escaping @Sendable () -> Void) {
        self.stream = stream
        var writer = ProtobufWriter(capacity: requestId.utf8.count + 8)
        if !requestId.isEmpty { writer.writeString(1, requestId) }
        self.requestIdField = writer.bytes
        self.ended = ended
    }

    func send(_ response: [UInt8]) {
        GRPCStreamOutput(stream: stream).send(response: response)
    }

    func send(_ result: HubResult, prefix: [UInt8]) {
        do {
            let parts = try result.encoded { () throws(ProtobufError) -> StreamResponseParts in
                try ResponseTranscoder.streamResponseParts(
                    json: result.body ?? Self.emptyResult, dataEtag: result.etag, cancelled: false)
            }
            stream.send(parts: [requestIdField, parts.sharedFields])
        } catch {
            stream.finish(GRPCStatus(code: .internal, message: "a response could not be encoded: \(error)"))
        }
    }

    /// The body of a result that only carries its etag.
    private static let emptyResult = Array("{}".utf8)

    func finish(with response: [UInt8]) {
        send(response)
        ended()
    }

    func whenEnded(_ handler: @escaping @Sendable () -> Void) {
        // Queued on the stream in order; the server sends it before it closes the connection.
        handler()
    }
}
