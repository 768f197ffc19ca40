import DataConnectEncoding
import DataConnectTestSupport
import Foundation

/// A minimal client of the emulator's realtime stream: a WebSocket on a loopback connection that sends JSON requests
/// as masked text frames and reads the server's messages as JSON, answering pings on the way.
///
/// Enough for tests that subscribe from this process to a `dataconnect emulator` process; the frame-level client
/// with every protocol corner lives in the emulator package's tests.
final class StreamClient {
    /// Why the stream could not be opened.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let connection: LoopbackConnection
    private var parser = WebSocketFrameParser(role: .client, maximumMessageSize: 1 << 24)
    private var pending: [WebSocketFrameParser.Event] = []

    /// Connects to `127.0.0.1:port` and completes the opening handshake on the stream path of `service`.
    ///
    /// - Throws: ``Failure`` when the connection or the handshake fails (the answer is not `101`).
    init(port: UInt16, service: String, timeout: Duration = HangGuard.process) throws {
        do {
            connection = try LoopbackConnection(port: Int(port))
        } catch {
            throw Failure(description: error.description)
        }
        let path = "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/\(service)"
        try? connection.send(
            Array(
                ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        while RawHTTP.headEnd(in: received) == nil {
            guard case .bytes(let bytes) = connection.receive(until: deadline) else {
                throw Failure(description: "no handshake response")
            }
            received += bytes
        }
        let end = RawHTTP.headEnd(in: received)!
        let head = String(decoding: received[..<end], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "handshake answered: \(head)") }
        pending = parser.consume(received[(end + 4)...])
    }

    /// Closes the socket.
    func close() {
        connection.close()
    }

    /// Sends one request as a masked text frame.
    func send(_ request: [String: Any]) throws {
        let payload = try JSONSerialization.data(withJSONObject: request)
        try? connection.send(WebSocketFrame.encode(.text, payload: payload, maskingKey: .random()))
    }

    /// The `result` of the next text message, answering pings on the way; `nil` on timeout, close, a protocol
    /// violation or end of stream.
    func nextResult(timeout: Duration = HangGuard.process) -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            while !pending.isEmpty {
                switch pending.removeFirst() {
                case .message(.text(let text)):
                    let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
                    return json?["result"] as? [String: Any]
                case .ping(let payload):
                    try? connection.send(WebSocketFrame.encode(.pong, payload: payload, maskingKey: .random()))
                case .close, .failure:
                    return nil
                case .message(.binary), .pong:
                    continue
                }
            }
            guard case .bytes(let bytes) = connection.receive(until: deadline) else { return nil }
            pending = parser.consume(bytes)
        }
    }
}
