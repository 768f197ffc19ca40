import CMicroHTTPD
import CNGHTTP2

#if canImport(Glibc)
import Glibc
#endif

/// The loop of one of the server's own I/O threads (``WebSocketReactor``, ``LingeringClose``, the HTTP/1.1 and
/// HTTP/2 loops): a level-triggered `epoll` set of sockets, each known by a token, and an `eventfd` (token 0) that
/// wakes a wait from another thread.
///
/// The loop's thread is the only one that waits on it and the last to use it: it ends with ``close()``.
struct EventLoop: Sendable {
    /// What a wait found: each ready socket's token and readiness, in ``tokens`` and ``readiness``.
    struct Events: ~Copyable {
        fileprivate(set) var tokens = [UInt64](repeating: 0, count: 64)
        fileprivate(set) var readiness = [UInt32](repeating: 0, count: 64)
        fileprivate(set) var count = 0
        /// Whether the wait was ended by ``EventLoop/wake()``.
        fileprivate(set) var woken = false

        /// Whether the socket at `index` is readable or hung up.
        func isReadable(_ index: Int) -> Bool { readiness[index] & 1 != 0 }
        /// Whether the socket at `index` is writable.
        func isWritable(_ index: Int) -> Bool { readiness[index] & 2 != 0 }
    }

    private let epoll: Int32
    private let wakeDescriptor: Int32

    /// Creates the set and its wake descriptor; `nil` (having logged why, prefixed with `owner`) when the system
    /// refuses either.
    init?(owner: String, log: (String) -> Void) {
        let epoll = cmhd_reactor_create()
        let wakeDescriptor = cmhd_wake_create()
        guard epoll >= 0, wakeDescriptor >= 0, cmhd_reactor_watch(epoll, wakeDescriptor, 0, 0, 1) == 0 else {
            log("\(owner): cannot create its epoll set (errno \(errno))")
            if epoll >= 0 { Glibc.close(epoll) }
            if wakeDescriptor >= 0 { Glibc.close(wakeDescriptor) }
            return nil
        }
        self.epoll = epoll
        self.wakeDescriptor = wakeDescriptor
    }

    /// Starts the loop's thread, detached, running `body`; `false` (having logged why) when the system refuses, and
    /// the set is closed.
    func start(owner: String, log: (String) -> Void, _ body: @escaping @Sendable () -> Void) -> Bool {
        guard Self.startThread(body) else {
            close()
            log("\(owner): cannot start a thread")
            return false
        }
        return true
    }

    /// Starts a detached thread running `body`; `false` when the system refuses.
    static func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        final class Body: Sendable {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// Adds a socket (`add`) or changes its interest: always readable and hang-ups, writable when asked.
    func watch(_ socket: Int32, token: UInt64, writable: Bool = false, add: Bool) -> Bool {
        cmhd_reactor_watch(epoll, socket, token, writable ? 1 : 0, add ? 1 : 0) == 0
    }

    /// Adds a socket (`add`) or changes its interest to exactly this: readable (and hang-ups) when `reading`, writable
    /// when `writing`; errors and full hang-ups are reported whatever the interest.
    func setInterest(_ socket: Int32, token: UInt64, reading: Bool, writing: Bool, add: Bool) -> Bool {
        var event = epoll_event()
        event.events =
            (reading ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0) | (writing ? EPOLLOUT.rawValue : 0)
        event.data.u64 = token
        return epoll_ctl(epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, socket, &event) == 0
    }

    /// Switches a socket already in the set to edge-triggered reading: reported again only when more bytes arrive
    /// (for a socket whose bytes are peeked at and left in place).
    func watchEdgeTriggered(_ socket: Int32, token: UInt64) -> Bool {
        cnh2_watch_edge(epoll, socket, token) == 0
    }

    /// Takes a socket out of the set (before it is closed: a duplicate would keep it in).
    func remove(_ socket: Int32) {
        _ = cmhd_reactor_remove(epoll, socket)
    }

    /// Ends the loop's current or next wait early.
    func wake() {
        cmhd_wake_signal(wakeDescriptor)
    }

    /// Waits up to `milliseconds` and puts what is ready into `events`, wake-ups left out (and consumed).
    func wait(milliseconds: Int32, into events: inout Events) {
        let count = Int(
            events.tokens.withUnsafeMutableBufferPointer { tokens in
                events.readiness.withUnsafeMutableBufferPointer { readiness in
                    cmhd_reactor_wait(epoll, tokens.baseAddress, readiness.baseAddress, 64, milliseconds)
                }
            })
        var kept = 0
        events.woken = false
        for index in 0..<count {
            if events.tokens[index] == 0 {
                cmhd_wake_drain(wakeDescriptor)
                events.woken = true
                continue
            }
            events.tokens[kept] = events.tokens[index]
            events.readiness[kept] = events.readiness[index]
            kept += 1
        }
        events.count = kept
    }

    /// Closes the set and its wake descriptor; called by the loop's thread as it exits.
    func close() {
        Glibc.close(epoll)
        Glibc.close(wakeDescriptor)
    }
}
