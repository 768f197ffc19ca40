import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Keeps the sockets of refused requests open after libmicrohttpd closes them, reading and discarding what their
/// clients still send, until each client stops sending: a lingering close.
///
/// The server refuses some requests (a body over the limit, oversized headers, contradictory framing) as soon as their
/// headers are in, and libmicrohttpd then closes the connection without reading the rest. A client still sending the
/// body then meets a reset: the kernel answers data for a closed socket with RST, and clients that check for an
/// answer only between writes (URLSession and libcurl without `Expect: 100-continue`) report "broken pipe" instead of
/// the JSON refusal. Holding a duplicate of the socket keeps the connection open after libmicrohttpd's close:
/// libmicrohttpd still sends its answer and shuts its side down (the client sees the answer and the end of it), and
/// this reader drains the rest until the client closes its side, stays quiet for ``idleLimit``, or ``totalLimit``
/// has passed since the refusal (the limits of nginx's `lingering_timeout` and `lingering_time`).
///
/// One `epoll` set and one thread per run of a server, started for the first refusal.
final class LingeringClose: Sendable {
    /// How long a lingering socket may stay silent before it is closed.
    static let idleLimit: Duration = .seconds(5)
    /// How long a socket may linger in all.
    static let totalLimit: Duration = .seconds(30)
    /// Sockets lingering at once; a refusal beyond this many closes at once, as libmicrohttpd alone would.
    static let capacity = 128
    /// Bytes discarded from one socket per wake-up, so that one fast sender cannot hold up the others.
    private static let readQuantum = 1 << 20

    private let loop: EventLoop
    private let running = Atomic<Bool>(true)
    private let sockets = Mutex<[Int32: Lingering]>([:])
    private let exited = DispatchSemaphore(value: 0)

    private struct Lingering {
        var lastRead: ContinuousClock.Instant
        let closeBy: ContinuousClock.Instant
    }

    /// Creates the `epoll` set and starts the thread; `nil` when the system refuses either.
    init?(log: (String) -> Void) {
        let owner = "lingering close"
        func refused(_ message: String) { log(message + "; refused connections close at once") }
        guard let loop = EventLoop(owner: owner, log: refused) else { return nil }
        self.loop = loop
        // The thread holds the closer until it exits.
        guard loop.start(owner: owner, log: refused, { [self] in run() }) else { return nil }
    }

    /// Takes a duplicate of a connection's socket, to drain it once libmicrohttpd has answered and closed it. Called
    /// on the connection's worker thread before the refusal is queued. Does nothing when stopping or full.
    func adopt(socket: Int32) {
        guard socket >= 0, running.load(ordering: .acquiring) else { return }
        let now = ContinuousClock.now
        let duplicate: Int32? = sockets.withLock { sockets in
            guard sockets.count < Self.capacity else { return nil }
            let duplicate = cmhd_duplicate(socket)
            guard duplicate >= 0 else { return nil }
            sockets[duplicate] = Lingering(lastRead: now, closeBy: now + Self.totalLimit)
            return duplicate
        }
        guard let duplicate else { return }
        if !loop.watch(duplicate, token: UInt64(duplicate), add: true) {
            end(duplicate)
        }
    }

    /// Takes a socket the server's own HTTP/1.1 side has answered and shut down for writing, to drain and then close
    /// it. Closes it at once when stopping or full.
    func adopt(ownedSocket socket: Int32) {
        guard socket >= 0 else { return }
        let now = ContinuousClock.now
        let taken =
            running.load(ordering: .acquiring)
            && sockets.withLock { sockets in
                guard sockets.count < Self.capacity else { return false }
                sockets[socket] = Lingering(lastRead: now, closeBy: now + Self.totalLimit)
                return true
            }
        guard taken else {
            close(socket)
            return
        }
        if !loop.watch(socket, token: UInt64(socket), add: true) {
            end(socket)
        }
    }

    /// Closes every lingering socket and stops the thread; returns once it has exited.
    func stop() {
        running.store(false, ordering: .releasing)
        loop.wake()
        exited.wait()
    }

    private func end(_ socket: Int32) {
        let removed = sockets.withLock { $0.removeValue(forKey: socket) } != nil
        guard removed else { return }
        loop.remove(socket)
        close(socket)
    }

    private func run() {
        var events = EventLoop.Events()
        while running.load(ordering: .acquiring) {
            loop.wait(milliseconds: 500, into: &events)
            let now = ContinuousClock.now
            for index in 0..<events.count {
                let socket = Int32(truncatingIfNeeded: events.tokens[index])
                let discarded = cmhd_discard(socket, Self.readQuantum)
                if discarded < 0 {
                    end(socket)
                } else if discarded > 0 {
                    sockets.withLock { $0[socket]?.lastRead = now }
                }
            }
            let expired = sockets.withLock { sockets in
                sockets.filter { now >= $0.value.closeBy || now - $0.value.lastRead >= Self.idleLimit }.map(\.key)
            }
            for socket in expired { end(socket) }
        }
        let remaining = sockets.withLock { Array($0.keys) }
        for socket in remaining { end(socket) }
        loop.close()
        exited.signal()
    }
}
