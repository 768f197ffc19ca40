import CMicroHTTPD
import DataConnectEncoding
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One open WebSocket: an upgraded libmicrohttpd connection whose socket the server's ``WebSocketReactor`` reads.
///
/// Sending is safe from any thread and never blocks: a frame is written at once when the socket takes it, and
/// otherwise buffered (without a bound) and written when the socket becomes writable.
/// Frames go out whole and in the order they were sent.
///
/// The server answers pings with pongs, echoes the client's close frame, and fails the connection (a close frame
/// with 1002, 1007 or 1009, then the end of the connection) on a protocol violation. ``heartbeat()`` sends a ping
/// and closes a connection whose previous ping went unanswered; the application decides how often.
///
/// ```swift
/// connection.send(.text(#"{"result":{"requestId":"1"}}"#))
/// connection.close(code: .normal, reason: "done")
/// ```
public final class WebSocketConnection: Sendable {
    private enum Phase {
        case open
        /// A close frame was sent or received; no more messages are delivered or sent.
        case closing
        case finished
    }

    private struct State {
        var parser: WebSocketFrameParser
        var outbound: [UInt8] = []
        var outboundOffset = 0
        var watchingWritable = false
        var phase = Phase.open
        var closeSent = false
        var closeReceived = false
        var writeShutDown = false
        var broken = false
        var closeCode = WebSocketCloseCode.abnormalClosure
        var closingDeadline: ContinuousClock.Instant?
        var awaitingPong = false
    }

    /// What the reactor must do after handling an event.
    enum Outcome {
        case keep
        case finish
    }

    /// How long a connection may take to finish the close handshake once a close frame is sent.
    static let closingTimeout: Duration = .seconds(5)

    let descriptor: Int32
    let token: UInt64
    /// libmicrohttpd's handle while it still holds the connection; `nil` once the socket is the connection's own.
    private let upgrade: UpgradeHandle?
    private let handler: any WebSocketHandler
    private let queue: DispatchQueue
    private let reactor: WebSocketReactor
    private let state: Mutex<State>

    init(
        descriptor: Int32, upgrade: OpaquePointer?, token: UInt64, handler: any WebSocketHandler,
        reactor: WebSocketReactor, maximumMessageSize: Int
    ) {
        self.descriptor = descriptor
        self.upgrade = upgrade.map(UpgradeHandle.init(pointer:))
        self.token = token
        self.handler = handler
        self.reactor = reactor
        self.queue = DispatchQueue(label: "WebSocketConnection", target: .global())
        self.state = Mutex(State(parser: WebSocketFrameParser(maximumMessageSize: maximumMessageSize)))
    }

    // MARK: Application side

    /// Whether messages can still be sent: no close frame was sent or received yet.
    public var isOpen: Bool { state.withLock { $0.phase == .open } }

    /// The number of bytes sent but not yet taken by the socket.
    public var bufferedByteCount: Int { state.withLock { $0.outbound.count - $0.outboundOffset } }

    /// Sends a message as one frame.
    ///
    /// - Returns: `false` when the connection is closing or closed (the message is dropped).
    @discardableResult
    public func send(_ message: WebSocketMessage) -> Bool {
        switch message {
        case .text(let text): return sendFrame(WebSocketFrame.encode(.text, payload: Array(text.utf8)))
        case .binary(let bytes): return sendFrame(WebSocketFrame.encode(.binary, payload: bytes))
        }
    }

    /// Sends UTF-8 bytes as one text frame, without copying them through a `String`.
    ///
    /// - Parameter utf8: The text; the caller guarantees it is UTF-8.
    /// - Returns: `false` when the connection is closing or closed.
    @discardableResult
    public func sendText(utf8: [UInt8]) -> Bool {
        sendText(utf8Parts: [utf8])
    }

    /// Sends UTF-8 bytes given in parts as one text frame: the parts are copied once, into the outgoing buffer,
    /// behind the frame's header.
    ///
    /// - Parameter parts: The text's parts, in order; the caller guarantees their concatenation is UTF-8.
    /// - Returns: `false` when the connection is closing or closed.
    @discardableResult
    public func sendText(utf8Parts parts: [[UInt8]]) -> Bool {
        let count = parts.reduce(0) { $0 + $1.count }
        return state.withLock { state in
            guard state.phase == .open else { return false }
            state.outbound.reserveCapacity(state.outbound.count + count + 10)
            WebSocketFrame.appendHeader(.text, payloadCount: count, to: &state.outbound)
            for part in parts { state.outbound += part }
            flush(&state)
            return true
        }
    }

    /// Starts the close handshake: sends a close frame, then ends the connection once the client answers (or
    /// after a few seconds). Does nothing when a close frame was already sent or received.
    public func close(code: WebSocketCloseCode = .normal, reason: String = "") {
        state.withLock { state in
            guard state.phase == .open else { return }
            startClosing(&state, code: code, reason: reason)
            flush(&state)
        }
        reactor.wake()
    }

    /// Sends a ping; when the previous ping is still unanswered, closes with 1001 instead.
    ///
    /// Call it once per heartbeat interval: a client that does not answer within one interval is gone.
    ///
    /// - Returns: Whether the connection is still open.
    @discardableResult
    public func heartbeat() -> Bool {
        let open = state.withLock { state -> Bool in
            guard state.phase == .open else { return false }
            if state.awaitingPong {
                startClosing(&state, code: .goingAway, reason: "no pong to the last ping")
                flush(&state)
                return false
            }
            state.awaitingPong = true
            state.outbound += WebSocketFrame.encode(.ping, payload: [UInt8]())
            flush(&state)
            return true
        }
        if !open { reactor.wake() }
        return open
    }

    private func sendFrame(_ frame: [UInt8]) -> Bool {
        state.withLock { state in
            guard state.phase == .open else { return false }
            state.outbound += frame
            flush(&state)
            return true
        }
    }

    // MARK: Reactor side

    /// Delivers `didOpen`, then processes bytes libmicrohttpd read after the handshake. Runs before the socket
    /// joins the reactor's epoll set, so that nothing the reactor reads can overtake either.
    func open(extra: [UInt8]) -> Outcome {
        queue.async { [self] in handler.webSocketDidOpen(self) }
        return extra.isEmpty ? .keep : receive(extra)
    }

    /// Adds the socket to the reactor's epoll set with `add`, which is given whether a send is waiting for
    /// writability (a send that had to buffer before the socket joined the set found nothing to change).
    ///
    /// `add` runs under the connection's lock, which every writability change and ``finish()`` take too: no change
    /// can fall between reading the flag and the socket joining the set, and the descriptor is still open.
    /// - Returns: `.keep` once added; `.finish`, without adding, when the connection broke or ended meanwhile (a
    ///   handler may send from `webSocketDidOpen` on); `nil` when `add` failed.
    func startWatching(_ add: (_ writable: Bool) -> Bool) -> Outcome? {
        state.withLock { state in
            guard state.phase != .finished, !state.broken else { return .finish }
            return add(state.watchingWritable) ? .keep : nil
        }
    }

    /// Reads what the socket has (the reactor saw it readable or hung up).
    func readable() -> Outcome {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<16 {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                if receive(chunk[..<count]) == .finish { return .finish }
                continue
            }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .keep }
            if count < 0 && errno == EINTR { continue }
            return .finish
        }
        return .keep
    }

    /// Writes what is buffered (the reactor saw the socket writable).
    func writable() -> Outcome {
        state.withLock { state in
            flush(&state)
            return outcome(state)
        }
    }

    /// Whether the close handshake has been waited for long enough.
    func closingExpired(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in state.closingDeadline.map { now >= $0 } ?? false }
    }

    /// Sends a close frame when none was sent (for a server that stops).
    func closeForStop() {
        close(code: .goingAway, reason: "the server is stopping")
    }

    /// Ends the connection: closes the socket (or hands it back to libmicrohttpd to close), and tells the handler. Runs on the
    /// reactor's thread, once the socket has left the epoll set.
    func finish() {
        let code = state.withLock { state -> WebSocketCloseCode? in
            guard state.phase != .finished else { return nil }
            state.phase = .finished
            state.outbound = []
            state.outboundOffset = 0
            return state.closeCode
        }
        guard let code else { return }
        if let upgrade {
            _ = cmhd_upgrade_close(upgrade.pointer)
        } else {
            Glibc.close(descriptor)
        }
        queue.async { [self] in handler.webSocketDidClose(self, code: code) }
    }

    private func receive(_ bytes: some Collection<UInt8>) -> Outcome {
        let (messages, result) = state.withLock { state -> ([WebSocketMessage], Outcome) in
            guard state.phase != .finished else { return ([], .finish) }
            var messages: [WebSocketMessage] = []
            for event in state.parser.consume(bytes) {
                switch event {
                case .message(let message):
                    if state.phase == .open { messages.append(message) }
                case .ping(let payload):
                    if !state.closeSent { state.outbound += WebSocketFrame.encode(.pong, payload: payload) }
                case .pong:
                    state.awaitingPong = false
                case .close(let code, _):
                    state.closeReceived = true
                    if !state.closeSent {
                        state.closeCode = code ?? .noStatusReceived
                        state.outbound +=
                            code.map { WebSocketFrame.close(code: $0, reason: "") }
                            ?? WebSocketFrame.encode(.close, payload: [UInt8]())
                        state.closeSent = true
                        state.phase = .closing
                        state.closingDeadline = ContinuousClock.now + Self.closingTimeout
                    }
                case .failure(let code, let reason):
                    if !state.closeSent { startClosing(&state, code: code, reason: reason) }
                }
            }
            flush(&state)
            return (messages, outcome(state))
        }
        if !messages.isEmpty {
            queue.async { [self] in
                for message in messages { handler.webSocket(self, didReceive: message) }
            }
        }
        return result
    }

    private func startClosing(_ state: inout State, code: WebSocketCloseCode, reason: String) {
        state.outbound += WebSocketFrame.close(code: code, reason: reason)
        state.closeSent = true
        state.closeCode = code
        state.phase = .closing
        state.closingDeadline = ContinuousClock.now + Self.closingTimeout
    }

    /// Whether the connection can end: the socket broke, or both close frames went and ours was written.
    private func outcome(_ state: State) -> Outcome {
        if state.broken { return .finish }
        if state.closeSent && state.closeReceived && state.outboundOffset == state.outbound.count { return .finish }
        return .keep
    }

    /// Writes buffered bytes until the socket would block; asks the reactor for writability when it does. Once a
    /// close frame has been written, shuts down the sending side, so the client sees the end of the stream.
    private func flush(_ state: inout State) {
        guard state.phase != .finished, !state.broken else { return }
        while state.outboundOffset < state.outbound.count {
            let offset = state.outboundOffset
            let sent = state.outbound.withUnsafeBytes { bytes in
                Glibc.send(
                    descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                state.outboundOffset += sent
                continue
            }
            if sent < 0 && errno == EINTR { continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if !state.watchingWritable {
                    state.watchingWritable = true
                    reactor.watch(self, writable: true)
                }
                return
            }
            // The peer is gone; the reactor sees the socket hung up and ends the connection.
            state.broken = true
            state.outbound = []
            state.outboundOffset = 0
            reactor.wake()
            return
        }
        state.outbound.removeAll(keepingCapacity: state.outbound.capacity <= 4_096)
        state.outboundOffset = 0
        if state.watchingWritable {
            state.watchingWritable = false
            reactor.watch(self, writable: false)
        }
        if state.closeSent && !state.writeShutDown {
            state.writeShutDown = true
            shutdown(descriptor, Int32(SHUT_WR))
        }
    }
}

/// libmicrohttpd's handle of an upgraded connection, which it allows to be used from any thread.
struct UpgradeHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
