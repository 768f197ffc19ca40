import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The I/O thread of every upgraded (WebSocket) connection of a server: one `epoll` set, one thread.
///
/// libmicrohttpd hands an upgraded socket over to the application and stops reading it. The reactor reads each
/// socket when it is readable, feeds the bytes to its connection's frame parser, writes buffered frames when a
/// socket becomes writable again, and ends connections whose close handshake finished, whose peer hung up, or whose
/// close handshake took too long. Handlers never run on this thread (each connection has its own queue), so a slow
/// handler does not hold up the other connections.
///
/// Stopping closes every connection with 1001, waits up to a grace period for the close handshakes, then ends what
/// is left: libmicrohttpd must not be stopped while an upgraded connection is still open.
final class WebSocketReactor: Sendable {
    private let loop: EventLoop
    private let running = Atomic<Bool>(true)
    private let connections = Mutex<Registry>(Registry())
    private let exited = DispatchSemaphore(value: 0)
    private let log: @Sendable (String) -> Void

    private struct Registry {
        var next: UInt64 = 1
        var byToken: [UInt64: WebSocketConnection] = [:]
    }

    /// Creates the `epoll` set and starts the thread; `nil` when the system refuses either.
    init?(log: @escaping @Sendable (String) -> Void) {
        self.log = log
        let owner = "WebSocket reactor"
        func refused(_ message: String) { log(message + "; WebSockets are refused") }
        guard let loop = EventLoop(owner: owner, log: refused) else { return nil }
        self.loop = loop
        // The thread holds the reactor until it exits.
        guard loop.start(owner: owner, log: refused, { [self] in run() }) else { return nil }
    }

    /// The number of open connections.
    var count: Int { connections.withLock { $0.byToken.count } }

    /// Takes over a socket libmicrohttpd upgraded: creates its connection, processes the bytes read after the
    /// handshake and starts watching the socket. Hands the socket back to libmicrohttpd at once when the reactor is
    /// stopping.
    func adopt(
        descriptor: Int32, upgrade: OpaquePointer, extra: [UInt8], handler: any WebSocketHandler,
        maximumMessageSize: Int
    ) {
        guard running.load(ordering: .acquiring), cmhd_set_nonblocking(descriptor) == 0 else {
            _ = cmhd_upgrade_close(upgrade)
            return
        }
        // libmicrohttpd keeps an upgraded connection, with its whole memory pool (sized for the largest request
        // head), until it is handed back: take a duplicate of the socket and hand the connection back at once.
        // Should that fail, the connection stays with libmicrohttpd until it ends.
        let detached = cmhd_upgrade_detach(descriptor)
        if detached >= 0 { _ = cmhd_upgrade_close(upgrade) }
        serve(
            descriptor: detached >= 0 ? detached : descriptor, upgrade: detached >= 0 ? nil : upgrade, extra: extra,
            handler: handler, maximumMessageSize: maximumMessageSize)
    }

    /// Takes over a non-blocking socket the server's own HTTP/1.1 side upgraded, after its `101`: the connection owns
    /// and closes it. Closes it at once when the reactor is stopping.
    func adopt(descriptor: Int32, extra: [UInt8], handler: any WebSocketHandler, maximumMessageSize: Int) {
        guard running.load(ordering: .acquiring) else {
            close(descriptor)
            return
        }
        serve(
            descriptor: descriptor, upgrade: nil, extra: extra, handler: handler, maximumMessageSize: maximumMessageSize
        )
    }

    /// Creates the connection of an upgraded socket, processes the bytes read after the handshake and starts watching
    /// the socket.
    private func serve(
        descriptor: Int32, upgrade: OpaquePointer?, extra: [UInt8], handler: any WebSocketHandler,
        maximumMessageSize: Int
    ) {
        let connection = connections.withLock { registry -> WebSocketConnection in
            let token = registry.next
            registry.next += 1
            let connection = WebSocketConnection(
                descriptor: descriptor, upgrade: upgrade, token: token, handler: handler, reactor: self,
                maximumMessageSize: maximumMessageSize)
            registry.byToken[token] = connection
            return connection
        }
        // `webSocketDidOpen` is queued, and the bytes libmicrohttpd read after the handshake are parsed, before the
        // socket joins the epoll set: from then on the reactor's thread reads it, and what it reads must come after
        // both (its messages behind `webSocketDidOpen` on the connection's queue, its bytes after `extra` in the
        // parser). Watching first let a first frame already in the socket reach the handler before
        // `webSocketDidOpen` (where a stream registers its heartbeat) whenever libmicrohttpd's thread, running this,
        // was preempted between the two.
        if connection.open(extra: extra) == .finish {
            end(connection)
            return
        }
        var failure: Int32 = 0
        let watched = connection.startWatching { writable in
            guard loop.watch(connection.descriptor, token: connection.token, writable: writable, add: true) else {
                failure = errno
                return false
            }
            return true
        }
        switch watched {
        case .keep?:
            return
        case .finish?:
            end(connection)
        case nil:
            log("WebSocket reactor: cannot watch a socket (errno \(failure)); closing it")
            end(connection)
        }
    }

    /// Asks for (or stops asking for) writability of a connection's socket. Before the socket has joined the
    /// epoll set this changes nothing; ``WebSocketConnection/startWatching(_:)`` then adds it as the connection asks.
    func watch(_ connection: WebSocketConnection, writable: Bool) {
        _ = loop.watch(connection.descriptor, token: connection.token, writable: writable, add: false)
    }

    /// Makes the thread look at closing connections now rather than at its next timeout.
    func wake() {
        loop.wake()
    }

    /// Closes every connection with 1001, waits up to `grace` for the close handshakes, ends the rest and stops
    /// the thread. Returns once every upgraded socket is back with libmicrohttpd.
    func stop(grace: Duration) {
        let open = connections.withLock { Array($0.byToken.values) }
        for connection in open { connection.closeForStop() }
        let deadline = ContinuousClock.now + grace
        while count > 0 && ContinuousClock.now < deadline {
            usleep(2_000)
        }
        running.store(false, ordering: .releasing)
        wake()
        exited.wait()
    }

    private func end(_ connection: WebSocketConnection) {
        let removed = connections.withLock { $0.byToken.removeValue(forKey: connection.token) } != nil
        guard removed else { return }
        loop.remove(connection.descriptor)
        connection.finish()
    }

    private func run() {
        var events = EventLoop.Events()
        while running.load(ordering: .acquiring) {
            loop.wait(milliseconds: 250, into: &events)
            for index in 0..<events.count {
                guard let connection = connections.withLock({ $0.byToken[events.tokens[index]] }) else { continue }
                var outcome = WebSocketConnection.Outcome.keep
                if events.isWritable(index) { outcome = connection.writable() }
                if outcome == .keep, events.isReadable(index) { outcome = connection.readable() }
                if outcome == .finish { end(connection) }
            }
            if events.woken || events.count == 0 { sweepClosing() }
        }
        let remaining = connections.withLock { Array($0.byToken.values) }
        for connection in remaining { end(connection) }
        loop.close()
        exited.signal()
    }

    /// Ends connections whose socket broke, whose close handshake is complete, or whose close handshake took too long.
    private func sweepClosing() {
        let now = ContinuousClock.now
        let all = connections.withLock { Array($0.byToken.values) }
        for connection in all where connection.writable() == .finish || connection.closingExpired(at: now) {
            end(connection)
        }
    }
}
