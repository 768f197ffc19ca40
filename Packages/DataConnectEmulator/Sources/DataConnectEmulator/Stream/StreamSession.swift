import DataConnectEncoding
import DataConnectWire
import EmulatorHTTP

/// One WebSocket of the realtime stream (`ConnectorStreamService.Connect`): the requests of one client,
/// multiplexed by request id, served by ``StreamRequests``.
///
/// Each text frame is one ``StreamRequest``; each response is a text frame `{"result": <StreamResponse>}`.
/// - `name` (`projects/{p}/locations/{l}/services/{s}/connectors/{c}`) names the connector; it is required before
///   the first `subscribe` or `execute`, and a later one switches the connector for later requests.
/// - `headers` with `X-Firebase-Auth-Token` (or `authToken`) sets the caller for later requests. When the token
///   names another user than before (or none), the live subscriptions made as another user end with
///   `cancelled: true`: a stream speaks for one user at a time. A refreshed token of the same user is checked
///   against each live subscription as a new subscription would be: one the caller may no longer read ends with
///   `cancelled: true` and the error a new request would get (PERMISSION_DENIED when a claim its `@auth(expr:)`
///   needs is gone); the others are computed with the new claims from then on.
/// - `subscribe` adds a subscriber to the hub under the request id; `execute` runs a query or mutation once
///   (mutations reach the hub as REST ones do); `resume` asks for a live subscription's current result;
///   `cancel` ends a subscription silently (the client has forgotten the id already).
/// - A request the emulator refuses gets one response with an error under its id (`extensions.code` is the
///   status, as REST's error body says it); a refused `subscribe` carries `cancelled: true`. The connection stays.
/// - A frame that is not a request at all (not JSON, no `requestId` for a request that needs one) is answered
///   with the production error body `{"error": {"code", "message", "status"}}`, since no request id can carry it.
final class StreamSession: WebSocketHandler {
    private let requests: StreamRequests

    init(responder: EmulatorResponder, route: StreamRoute, request: HTTPRequest) {
        requests = StreamRequests(
            responder: responder, pathService: route.service, remoteAddress: request.remoteAddress,
            authToken: request.headers["x-firebase-auth-token"])
    }

    // MARK: WebSocketHandler

    func webSocketDidOpen(_ connection: WebSocketConnection) {
        requests.opened { [weak connection] in connection?.heartbeat() }
    }

    func webSocket(_ connection: WebSocketConnection, didReceive message: WebSocketMessage) {
        let output = WebSocketStreamOutput(connection: connection)
        let bytes: [UInt8]
        switch message {
        case .text(let text): bytes = Array(text.utf8)
        case .binary(let data): bytes = data
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            return output.sendStreamError(
                RequestError(status: .invalidArgument, message: "the frame is not JSON: \(error.message)"))
        }
        let request: StreamRequest
        do {
            request = try StreamRequest(json: json)
        } catch {
            if let requestId = json["requestId"]?.stringValue {
                // A `subscribe` that cannot be read is refused, and a refused subscription ends.
                return output.send(
                    StreamResponse(
                        requestId: requestId, errors: [GraphQLError(message: error.message, code: .invalidArgument)],
                        cancelled: json["subscribe"] != nil))
            }
            return output.sendStreamError(RequestError(status: .invalidArgument, message: error.message))
        }
        requests.handle(request, via: output)
    }

    func webSocketDidClose(_ connection: WebSocketConnection, code: WebSocketCloseCode) {
        requests.closed()
    }
}
