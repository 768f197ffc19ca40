import DataConnectTestSupport
import DataConnectWire

/// One subscription on a WebSocket of its own, read as the events its subscriber sees: the hub's responses and the
/// server's pings (the heartbeat).
///
/// Opening it connects to the stream endpoint, sends one `subscribe` request (with `name`, and the token in
/// `headers` when given) and returns once the server has handled it (a round trip on the same socket): the hub has
/// the subscriber, or has refused it, and the connection's heartbeat is registered, as when `:subscribe` answered.
/// Reads answer each ping with a pong and then make sure the server has taken that pong (another round trip), so
/// that the next heartbeat finds the connection alive. Reads wait at most the hang guard.
///
/// ```swift
/// let subscriber = try fixture.subscribe("ListBooks")
/// subscriber.nextData()?.titles    // ["Apples", "Bananas", "Cherries"]
/// ```
final class StreamSubscriber {
    /// What the subscriber sees next.
    enum Event: Equatable {
        /// A response under the subscription's request id (the `result` of a text frame).
        case response(JSONValue)
        /// A WebSocket ping: the hub's heartbeat.
        case ping
        /// Any other text frame (a stream-level error, a response under another request id).
        case other(JSONValue)
    }

    /// The subscription's request id.
    let requestId: String
    /// The socket, for tests that send more on it.
    let client: WebSocketClient
    private var queued: [Event] = []
    private var barriers = 0

    /// Connects and subscribes.
    ///
    /// - Parameters:
    ///   - port: The emulator's port.
    ///   - operation: The query's name.
    ///   - variables: Its variables.
    ///   - token: The caller's `X-Firebase-Auth-Token`, sent in the request's `headers`.
    ///   - requestId: The subscription's request id.
    ///   - dataEtag: The etag of the result the client already holds.
    init(
        port: UInt16, operation: String, variables: JSONObject = [:], token: String? = nil, requestId: String = "1",
        dataEtag: String? = nil
    ) throws {
        self.requestId = requestId
        client = try WebSocketClient(port: port, path: RealtimeFixture.streamPath)
        guard client.status == 101 else { throw TestSetupError("handshake answered \(client.status)") }
        var request = RealtimeFixture.subscribe(requestId, operation, variables, first: true, token: token)
        if let dataEtag, case .object(var object) = request {
            object["dataEtag"] = .string(dataEtag)
            request = .object(object)
        }
        client.send(request)
        guard roundTrip(until: ContinuousClock.now + HangGuard.event) else {
            throw TestSetupError("the stream did not answer after the subscribe request")
        }
    }

    /// Closes the socket without a close frame, as a client that goes away does.
    func close() {
        client.close()
    }

    /// The next event, or `nil` when none arrives within `timeout` or the connection ended.
    func next(timeout: Duration = HangGuard.event) -> Event? {
        if !queued.isEmpty { return queued.removeFirst() }
        return read(until: ContinuousClock.now + timeout)
    }

    /// The next response under the subscription's request id, skipping pings; `nil` on timeout or end.
    func nextData(timeout: Duration = HangGuard.event) -> JSONValue? {
        let deadline = ContinuousClock.now + timeout
        while let event = next(timeout: deadline - ContinuousClock.now) {
            if case .response(let response) = event { return response }
        }
        return nil
    }

    /// Whether the server no longer serves the subscription: a `resume` of its request id is answered NOT_FOUND.
    ///
    /// Responses still on their way are read first (and dropped), so call this after the last one a test expects.
    func ended() -> Bool {
        client.send(["requestId": .string(requestId), "resume": [:]])
        let deadline = ContinuousClock.now + HangGuard.event
        while let event = next(timeout: deadline - ContinuousClock.now) {
            guard case .response(let response) = event else { continue }
            if response.firstErrorCode == "NOT_FOUND" { return true }
            if response["cancelled"] != .bool(true) { return false }
        }
        return false
    }

    /// Reads frames until an event, answering pings on the way.
    private func read(until deadline: ContinuousClock.Instant) -> Event? {
        while let frame = client.readFrame(timeout: deadline - ContinuousClock.now) {
            switch frame.opcode {
            case 1:
                guard let json = frame.json else { continue }
                if let result = json["result"], result["requestId"]?.stringValue == requestId {
                    return .response(result)
                }
                return .other(json)
            case 9:
                client.sendFrame(opcode: 10, payload: frame.payload)
                guard roundTrip(until: deadline) else { return nil }
                return .ping
            case 8:
                return nil
            default:
                continue
            }
        }
        return nil
    }

    /// Sends a request the server answers at once (a `resume` of an unknown id) and reads until its answer, queueing
    /// what arrives meanwhile: frames are handled in order, so whatever was sent before has been taken.
    private func roundTrip(until deadline: ContinuousClock.Instant) -> Bool {
        barriers += 1
        let barrier = "\(requestId)-barrier-\(barriers)"
        client.send(["requestId": .string(barrier), "resume": [:]])
        while let frame = client.readFrame(timeout: deadline - ContinuousClock.now) {
            switch frame.opcode {
            case 1:
                guard let json = frame.json else { continue }
                if json["result"]?["requestId"]?.stringValue == barrier { return true }
                if let result = json["result"], result["requestId"]?.stringValue == requestId {
                    queued.append(.response(result))
                } else {
                    queued.append(.other(json))
                }
            case 9:
                client.sendFrame(opcode: 10, payload: frame.payload)
                queued.append(.ping)
            case 8:
                return false
            default:
                continue
            }
        }
        return false
    }
}
