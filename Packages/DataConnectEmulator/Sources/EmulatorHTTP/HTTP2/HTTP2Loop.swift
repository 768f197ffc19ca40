import CNGHTTP2
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/2 I/O thread: an `epoll` set of connections, each an nghttp2 server session, and an inbox through which
/// other threads hand it sockets, wake streams that have something to send, and ask it to drain or stop.
///
/// Everything nghttp2 does for a connection happens on this thread; gRPC methods and other threads only reach a
/// stream through its ``StreamOutbox``, whose changes post the stream here.
final class HTTP2Loop: Sendable {
    /// What other threads ask of the loop.
    enum Command: Sendable {
        /// A new connection (the client preface is waiting in the socket).
        case adopt(Int32, String?)
        /// A stream's outbox changed.
        case wake(connection: UInt64, stream: Int32)
        /// Begin a graceful stop.
        case drain
    }

    let shared: HTTP2Shared
    private let loop: EventLoop
    private let inbox = Mutex<[Command]>([])
    private let running = Atomic<Bool>(true)
    private let exited = DispatchSemaphore(value: 0)

    /// Creates the `epoll` set and starts the thread; nil (having logged why) when the system refuses.
    init?(shared: HTTP2Shared, number: Int) {
        self.shared = shared
        let owner = "HTTP/2 loop \(number)"
        guard let loop = EventLoop(owner: owner, log: { shared.core.log($0) }) else { return nil }
        self.loop = loop
        // The thread holds the loop until it exits.
        guard loop.start(owner: owner, log: { shared.core.log($0) }, { [self] in run() }) else { return nil }
    }

    /// Hands the loop a connection.
    func adopt(socket: Int32, remoteAddress: String?) {
        post(.adopt(socket, remoteAddress))
    }

    /// Queues a command and wakes the thread.
    func post(_ command: Command) {
        let first = inbox.withLock { inbox in
            inbox.append(command)
            return inbox.count == 1
        }
        if first { loop.wake() }
    }

    /// Cancels every call, closes every connection and stops the thread; returns once it has exited.
    func stop() {
        running.store(false, ordering: .releasing)
        loop.wake()
        exited.wait()
    }

    // MARK: The thread

    private func run() {
        let context = HTTP2LoopContext(loop: self, eventLoop: loop)
        var events = EventLoop.Events()
        var commands: [Command] = []
        var lastSweep = ContinuousClock.now
        while running.load(ordering: .acquiring) {
            loop.wait(milliseconds: context.waitMilliseconds(), into: &events)
            // Deadlines first: a call whose deadline passed while it ran ends DEADLINE_EXCEEDED even when its answer
            // is among the commands below (the answer is then dropped).
            context.expireDeadlines(now: ContinuousClock.now)
            for index in 0..<events.count {
                guard let connection = context.connections[events.tokens[index]] else { continue }
                if events.isReadable(index) {
                    connection.readable()
                } else if events.isWritable(index) {
                    connection.flush()
                }
            }
            inbox.withLock { swap(&commands, &$0) }
            for command in commands { perform(command, context: context) }
            commands.removeAll(keepingCapacity: true)
            context.flushTouched()
            let now = ContinuousClock.now
            if now - lastSweep >= .milliseconds(250) || context.isDraining {
                lastSweep = now
                context.sweep(now: now)
            }
        }
        context.closeAll()
        loop.close()
        exited.signal()
    }

    private func perform(_ command: Command, context: HTTP2LoopContext) {
        switch command {
        case .adopt(let socket, let address):
            context.adopt(socket: socket, remoteAddress: address)
        case .wake(let token, let stream):
            context.connections[token]?.service(streamID: stream)
        case .drain:
            context.beginDrain()
        }
    }
}

/// The loop thread's own state: its connections, the calls' deadlines, nghttp2's callbacks and options, the read
/// buffer. Never touched from another thread.
final class HTTP2LoopContext {
    unowned let loop: HTTP2Loop
    let eventLoop: EventLoop
    var shared: HTTP2Shared { loop.shared }
    private(set) var connections: [UInt64: HTTP2Connection] = [:]
    private var nextToken: UInt64 = 1
    /// Calls with a deadline: when, and which stream.
    private var deadlines: [(at: ContinuousClock.Instant, connection: UInt64, stream: Int32)] = []
    /// Connections with frames to write after this round.
    private var touched: [HTTP2Connection] = []
    private(set) var isDraining = false
    private var drainStarted = ContinuousClock.now
    let callbacks: OpaquePointer
    let options: OpaquePointer
    /// Where sockets are read into.
    let readBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 65_536)

    init(loop: HTTP2Loop, eventLoop: EventLoop) {
        self.loop = loop
        self.eventLoop = eventLoop
        self.callbacks = HTTP2Connection.makeCallbacks()
        var options: OpaquePointer?
        nghttp2_option_new(&options)
        self.options = options!
        // Flood protections: SETTINGS per frame and unanswered SETTINGS, queued ACKs (PING, SETTINGS), RST_STREAM
        // rate, CONTINUATION frames; a HEADERS block over the limit is refused in the header callback.
        nghttp2_option_set_max_settings(self.options, 64)
        nghttp2_option_set_max_outbound_ack(self.options, 1_000)
        nghttp2_option_set_max_send_header_block_length(self.options, 256 * 1024)
        nghttp2_option_set_max_deflate_dynamic_table_size(self.options, 4_096)
        nghttp2_option_set_stream_reset_rate_limit(self.options, 1_000, 33)
        // Legitimate blocks up to the header limit (80 KiB by default) fit in 16 KiB frames with room to spare.
        nghttp2_option_set_max_continuations(self.options, max(8, loop.shared.core.limits.header / 16_384 + 4))
    }

    deinit {
        nghttp2_session_callbacks_del(callbacks)
        nghttp2_option_del(options)
        readBuffer.deallocate()
    }

    /// How long the next wait may last: until the nearest deadline, at most 250 ms (20 ms while draining).
    func waitMilliseconds() -> Int32 {
        var limit: Int64 = isDraining ? 20 : 250
        if let nearest = deadlines.lazy.map(\.at).min() {
            let remaining = nearest - ContinuousClock.now
            let (seconds, attoseconds) = remaining.components
            let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1
            limit = max(0, min(limit, milliseconds))
        }
        return Int32(limit)
    }

    func adopt(socket: Int32, remoteAddress: String?) {
        let token = nextToken
        nextToken += 1
        guard shared.counters.connectionOpened() else {
            // Over the limit: a session only to say GOAWAY (REFUSED_STREAM), then the connection closes.
            HTTP2Connection.refuse(socket: socket, context: self)
            return
        }
        guard
            let connection = HTTP2Connection(socket: socket, token: token, context: self, remoteAddress: remoteAddress)
        else {
            shared.counters.connectionClosed()
            close(socket)
            return
        }
        connections[token] = connection
        guard eventLoop.watch(socket, token: token, add: true) else {
            connection.close()
            return
        }
        if isDraining { connection.beginDrain() }
        // The preface (and more) is already waiting.
        connection.readable()
    }

    /// Notes that a connection has frames to write once the current round is over.
    func touch(_ connection: HTTP2Connection) {
        if !connection.isTouched {
            connection.isTouched = true
            touched.append(connection)
        }
    }

    func flushTouched() {
        guard !touched.isEmpty else { return }
        let flushing = touched
        touched.removeAll(keepingCapacity: true)
        for connection in flushing {
            connection.isTouched = false
            connection.flush()
        }
    }

    /// Forgets a closed connection (called by the connection).
    func remove(_ connection: HTTP2Connection) {
        connections[connection.token] = nil
        eventLoop.remove(connection.socket)
        shared.counters.connectionClosed()
    }

    func addDeadline(_ deadline: ContinuousClock.Instant, connection: UInt64, stream: Int32) {
        deadlines.append((deadline, connection, stream))
    }

    func expireDeadlines(now: ContinuousClock.Instant) {
        guard !deadlines.isEmpty, deadlines.contains(where: { $0.at <= now }) else { return }
        let expired = deadlines.filter { $0.at <= now }
        deadlines.removeAll { $0.at <= now }
        for entry in expired {
            connections[entry.connection]?.deadlinePassed(streamID: entry.stream)
        }
        flushTouched()
    }

    func beginDrain() {
        isDraining = true
        drainStarted = .now
        for connection in Array(connections.values) { connection.beginDrain() }
        flushTouched()
    }

    /// Idle connections and stalled requests; while draining, the final GOAWAY once the notice has had its time.
    func sweep(now: ContinuousClock.Instant) {
        let finalGoAway = isDraining && now - drainStarted >= .milliseconds(20)
        for connection in Array(connections.values) {
            if finalGoAway { connection.sendFinalGoAway() }
            if let timeout = shared.idleTimeout { connection.sweep(now: now, timeout: timeout) }
        }
        flushTouched()
    }

    /// Cancels every call and closes every connection (the server stopping past its grace).
    func closeAll() {
        for connection in Array(connections.values) {
            connection.beginDrain()
            connection.sendFinalGoAway()
            connection.flush()
            connection.close()
        }
    }
}
