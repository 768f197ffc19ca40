import CNGHTTP2
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The server's one listening socket and the thread that accepts its connections and tells HTTP/2 from HTTP/1.1.
///
/// Each accepted connection waits in the dispatcher's `epoll` set until its first bytes arrive, which the thread
/// peeks at (`MSG_PEEK`, so that they stay in the socket): as soon as they differ from the HTTP/2 client preface
/// (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, prior knowledge) the connection goes to ``Destinations/http1`` (a
/// libmicrohttpd daemon), and once all 24 bytes match, to ``Destinations/http2``. A connection whose first bytes
/// match a prefix of the preface waits, edge-triggered, for more. One that sends nothing for the connection timeout
/// is closed. The dispatcher costs one `accept`, one `epoll` registration and one peek per connection, nothing per
/// request.
final class ConnectionDispatcher: Sendable {
    /// Where classified connections go; both take ownership of the socket.
    struct Destinations: Sendable {
        /// An HTTP/1.1 connection (or anything that is not HTTP/2), with the peer's address.
        let http1: @Sendable (Int32, sockaddr_in) -> Void
        /// A connection that opened with the HTTP/2 client preface, with the peer's address as text.
        let http2: @Sendable (Int32, String?) -> Void
    }

    /// The HTTP/2 client preface (RFC 9113 §3.4).
    static let preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// The token of the listening socket in the `epoll` set (0 is the loop's wake descriptor).
    private static let listenerToken: UInt64 = 1

    private let loop: EventLoop
    private let listener: Int32
    private let destinations: Destinations
    private let timeout: Duration?
    private let pendingLimit: Int
    private let running = Atomic<Bool>(true)
    private let exited = DispatchSemaphore(value: 0)
    private let log: @Sendable (String) -> Void

    /// Binds `address` and listens; throws the system's reason when it cannot (the port in use, above all).
    static func listen(on address: sockaddr_in) -> Result<Int32, ListenFailure> {
        var address = address
        var error: Int32 = 0
        let socket = cnh2_listen(&address, 1024, &error)
        guard socket >= 0 else { return .failure(ListenFailure(reason: String(cString: strerror(error)))) }
        return .success(socket)
    }

    /// Why the listening socket could not be opened.
    struct ListenFailure: Error {
        let reason: String
    }

    /// The port `socket` is bound to.
    static func boundPort(of socket: Int32) -> UInt16 {
        cnh2_bound_port(socket)
    }

    /// Starts the accepting thread on a listening socket, which it owns from now on (and closes when stopped).
    ///
    /// - Parameters:
    ///   - listener: A bound, listening, non-blocking socket.
    ///   - timeout: How long a connection may stay silent before its first bytes; `nil` waits for ever.
    ///   - pendingLimit: Connections waiting for their first bytes at once; more are closed as they arrive.
    init?(
        listener: Int32, timeout: Duration?, pendingLimit: Int, destinations: Destinations,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.listener = listener
        self.timeout = timeout
        self.pendingLimit = max(1, pendingLimit)
        self.destinations = destinations
        self.log = log
        let owner = "connection dispatcher"
        guard let loop = EventLoop(owner: owner, log: log) else {
            close(listener)
            return nil
        }
        self.loop = loop
        guard loop.watch(listener, token: Self.listenerToken, add: true) else {
            log("\(owner): cannot watch the listening socket (errno \(errno))")
            loop.close()
            close(listener)
            return nil
        }
        // The thread holds the dispatcher until it exits.
        guard loop.start(owner: owner, log: log, { [self] in run() }) else {
            close(listener)
            return nil
        }
    }

    /// Stops accepting: closes the listening socket and the connections not yet classified; returns once the
    /// thread has exited.
    func stop() {
        running.store(false, ordering: .releasing)
        loop.wake()
        exited.wait()
    }

    /// A connection accepted and not yet classified (the thread's own state).
    private struct Pending {
        let address: sockaddr_in
        let acceptedAt: ContinuousClock.Instant
        var edgeTriggered = false
    }

    private func run() {
        var events = EventLoop.Events()
        var pending: [Int32: Pending] = [:]
        var lastSweep = ContinuousClock.now
        while running.load(ordering: .acquiring) {
            loop.wait(milliseconds: pending.isEmpty ? 1_000 : 100, into: &events)
            for index in 0..<events.count {
                if events.tokens[index] == Self.listenerToken {
                    acceptWaiting(into: &pending)
                } else {
                    let socket = Int32(truncatingIfNeeded: events.tokens[index] - 2)
                    classify(socket, pending: &pending)
                }
            }
            let now = ContinuousClock.now
            if let timeout, !pending.isEmpty, now - lastSweep >= .milliseconds(100) {
                lastSweep = now
                for (socket, waiting) in pending where now - waiting.acceptedAt >= timeout {
                    pending[socket] = nil
                    drop(socket)
                }
            }
        }
        loop.remove(listener)
        close(listener)
        for socket in pending.keys { drop(socket) }
        loop.close()
        exited.signal()
    }

    /// Accepts what the listening socket holds (a bounded batch, so that classification keeps up).
    private func acceptWaiting(into pending: inout [Int32: Pending]) {
        for _ in 0..<64 {
            var address = sockaddr_in()
            var error: Int32 = 0
            let socket = cnh2_accept(listener, &address, &error)
            if socket == -1 { return }
            if socket < 0 {
                log("connection dispatcher: accept failed (errno \(error))")
                // Out of descriptors, say: back off briefly rather than spin on a listener that stays readable.
                usleep(10_000)
                return
            }
            guard pending.count < pendingLimit else {
                close(socket)
                continue
            }
            pending[socket] = Pending(address: address, acceptedAt: .now)
            // The first bytes are often already there (the request follows the handshake's last ACK).
            if classify(socket, pending: &pending, registered: false) { continue }
            // A prefix of the preface already there: classify registered it, edge-triggered.
            if pending[socket]?.edgeTriggered == true { continue }
            if !loop.watch(socket, token: UInt64(socket) + 2, add: true) {
                pending[socket] = nil
                close(socket)
            }
        }
    }

    /// Peeks at a waiting connection's first bytes and hands it over once they decide; returns whether the socket
    /// left the waiting set (handed over or closed).
    @discardableResult
    private func classify(_ socket: Int32, pending: inout [Int32: Pending], registered: Bool = true) -> Bool {
        guard let waiting = pending[socket] else { return true }
        var bytes = (UInt64(0), UInt64(0), UInt64(0))
        let count = withUnsafeMutableBytes(of: &bytes) { buffer in
            cnh2_peek(socket, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), 24)
        }
        if count == -1 { return false }
        let matches =
            count > 0
            && withUnsafeBytes(of: &bytes) { buffer in (0..<count).allSatisfy { buffer[$0] == Self.preface[$0] } }
        if count > 0 && matches && count < 24 {
            // A prefix of the preface: wait for more, reported (edge-triggered) only when more arrives.
            if waiting.edgeTriggered { return false }
            let added = registered || loop.watch(socket, token: UInt64(socket) + 2, add: true)
            if added && loop.watchEdgeTriggered(socket, token: UInt64(socket) + 2) {
                pending[socket]?.edgeTriggered = true
                return false
            }
            pending[socket] = nil
            drop(socket)
            return true
        }
        pending[socket] = nil
        if registered { loop.remove(socket) }
        if count <= 0 {
            close(socket)
        } else if !matches {
            destinations.http1(socket, waiting.address)
        } else {
            destinations.http2(socket, Self.addressText(waiting.address))
        }
        return true
    }

    private func drop(_ socket: Int32) {
        loop.remove(socket)
        close(socket)
    }

    private static func addressText(_ address: sockaddr_in) -> String? {
        var address = address
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard cnh2_address_text(&address, buffer.baseAddress, 64) == 0 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
    }
}
