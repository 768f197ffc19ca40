import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server that hands every request to an ``HTTPResponder``, with gRPC over HTTP/2 (libnghttp2) on the
/// same port.
///
/// The server listens on one socket; a dispatcher thread accepts each connection and peeks at its first bytes: a
/// connection that opens with the HTTP/2 client preface (plaintext, prior knowledge) is served as HTTP/2 by a few
/// event loops of the server's own, where requests with content type `application/grpc` are calls of the
/// responder's ``HTTPResponder/grpcService`` (other requests are answered 505, use HTTP/1.1): unary calls run on the
/// loop's thread, handing the loop's other connections to another thread when they run long, as HTTP/1.1 requests
/// do below. Every other connection goes to the HTTP/1.1 side.
///
/// The HTTP/1.1 side is the server's own by default (``Configuration-swift.struct/HTTP1Implementation/native``):
/// one `epoll` loop per worker thread, which parses each request, receives its body in full (up to
/// ``Configuration-swift.struct/maximumBodySize``), calls the responder on its own thread and writes the response.
/// A request that runs long, past ``Configuration-swift.struct/handOverConnectionsAfter`` or into the slow lane
/// (``LaneWorker/enterSlowLane()``), leaves the loop's other connections to another thread. Connections are kept
/// alive between requests, and pipelined requests are answered in order. libmicrohttpd serves HTTP/1.1 instead when
/// configured (``Configuration-swift.struct/HTTP1Implementation/libmicrohttpd``), with the same answers.
///
/// Requests over the server's limits never reach the responder: the server answers them itself with the
/// JSON error body `{"error":{"code":N,"message":"…","status":"…"}}` (413 for the body, 414 for the request
/// target, 431 for the header section, 400 for contradictory framing headers, 501 for a transfer coding other
/// than `chunked`) as soon as the headers are in, then closes the connection, reading and discarding what the
/// client still sends (for up to 30 s, and until it pauses for 5 s) so that it reads the answer rather than a
/// reset. Requests that cannot be parsed (a malformed request line or header line, an HTTP version other than 1.x,
/// a `Content-Length` that is not a number, broken chunked encoding) are refused the same way, with 400 (505 for
/// the version); libmicrohttpd answers those with its own short HTML body instead, which it offers no way to
/// replace.
///
/// ```swift
/// let server = HTTPServer(port: 0, responder: HTTPClosureResponder { _ in .json(#"{"ok":true}"#) })
/// try server.start()
/// print("listening on http://127.0.0.1:\(server.port)")
/// // ...
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    /// Tuning and limits of an ``HTTPServer``.
    public struct Configuration: Sendable {
        /// Worker threads, each running its own event loop; defaults to the number of online cores. libmicrohttpd
        /// has this many daemons; the server's own HTTP/1.1 side and its HTTP/2 side have this many loops each, or
        /// as many as the fast lane's workers (``RequestLanes/Configuration-swift.struct/fastWorkers``) when more.
        public var threadPoolSize: Int
        /// Whether libmicrohttpd's workers poll with `epoll` (the default) rather than `poll`; the server's own
        /// loops always use `epoll`.
        public var usesEpoll: Bool
        /// Inactivity after which a connection is closed (default 60 s); zero disables the timeout.
        ///
        /// A connection whose request the responder is still answering does not time out; upgraded (WebSocket)
        /// connections leave the HTTP/1.1 side and do not time out.
        public var connectionTimeout: Duration
        /// The most connections served at once (default 10,000), and separately the most open WebSockets.
        ///
        /// The native HTTP/1.1 side admits this many connections in all (libmicrohttpd this many per worker thread,
        /// each being its own daemon); one more is closed unanswered. The HTTP/2 side admits this many connections
        /// (one more gets GOAWAY), and the dispatcher this many connections waiting for their first bytes. An
        /// upgraded connection leaves the HTTP/1.1 side once its 101 response is sent and counts against the
        /// WebSocket limit instead: one more upgrade is answered with 503. The process's open-file limit
        /// (`ulimit -n`) also caps connections.
        public var connectionLimit: Int
        /// The largest request body accepted, in bytes (default 8 MiB).
        ///
        /// A request announcing a larger `Content-Length`, or a chunked upload growing past it, is answered
        /// with 413 and a JSON error, and the responder is not called.
        public var maximumBodySize: Int
        /// The longest request target (path and query string, as sent) accepted, in bytes (default 8 KiB).
        ///
        /// A longer one is answered with 414 and a JSON error, and the responder is not called.
        public var maximumURILength: Int
        /// The largest header section (the request line and every header field, line ends included) accepted,
        /// in bytes (default 80 KiB: room for a 64 KiB auth token).
        ///
        /// A larger one is answered with 431 and a JSON error, and the responder is not called.
        public var maximumHeaderSize: Int
        /// libmicrohttpd's memory per connection for the request line, headers and I/O buffers, in bytes (default
        /// 128 KiB); the native HTTP/1.1 side does not use it (a connection's buffer grows with the request it
        /// reads, up to the limits above, and is empty between requests).
        ///
        /// libmicrohttpd answers a request whose header section does not fit (about this size, less 64 bytes
        /// per header field) with its own HTML 431, or 414 when the request line alone does not fit, so keep it
        /// well above ``maximumHeaderSize`` and ``maximumURILength`` (the defaults leave 48 KiB): then oversized
        /// requests up to this size get the JSON answers above. Each connection reserves this much address
        /// space and commits what libmicrohttpd touches: about half of it once a response is under way (it
        /// clears the read buffer's unused half), all of it once a request has completed (it clears the pool
        /// for the next one). An idle kept-alive connection holds this much memory; a WebSocket does not, as its
        /// connection is handed back to libmicrohttpd, which frees the pool, as soon as the upgrade is done.
        public var connectionMemoryLimit: Int
        /// Receives libmicrohttpd's error messages and the server's own warnings; `nil` drops them.
        public var logHandler: (@Sendable (String) -> Void)?
        /// The largest WebSocket message accepted, in bytes, fragments included (default 1 MiB); a larger one closes
        /// the connection with 1009.
        public var maximumWebSocketMessageSize: Int = 1 << 20
        /// How long ``HTTPServer/stop()`` waits for open WebSockets to finish their close handshake (default 1 s).
        public var webSocketCloseGracePeriod: Duration = .seconds(1)
        /// How long ``HTTPServer/stop()`` waits for requests in progress to be answered before it closes their
        /// connections (default 5 s).
        public var stopGracePeriod: Duration = .seconds(5)
        /// The sizes of the lanes that answer the requests a responder marks as heavy
        /// (``HTTPResponder/runsInLanes(_:)``): as many fast workers as cores, a slow lane for half as many.
        public var requestLanes = RequestLanes.Configuration()
        /// Called on each new lane thread before its first request (``RequestLanes/init(configuration:threadStarted:)``),
        /// and on each thread of the native HTTP/1.1 side and of the HTTP/2 side, which run their requests (unary
        /// gRPC calls on HTTP/2) themselves.
        public var laneThreadStarted: (@Sendable (LaneWorker) -> Void)?
        /// Which implementation serves HTTP/1.1 (by default the server's own, ``HTTP1Implementation/default``).
        public var http1Implementation = HTTP1Implementation.default
        /// How long a request may run on a loop's thread (a request of the native HTTP/1.1 side, a unary gRPC
        /// call) before the thread's other connections go to another thread (default 50 ms); `nil` hands them over
        /// only when the request moves to the slow lane (``LaneWorker/enterSlowLane()``). Requests still run where
        /// they started.
        public var handOverConnectionsAfter: Duration? = .milliseconds(50)
        /// Called by ``HTTPServer/stop()`` once the listener is closed and both sides have begun to drain, before it
        /// waits for the requests in progress: an event tests wait on.
        var stopBegan: (@Sendable () -> Void)?
        /// How long the unary gRPC calls an HTTP/2 loop read together may run before it reads its sockets again (resets,
        /// deadlines, new calls) and sends their answers; zero reads between every two calls.
        var http2RoundBudget: Duration = .milliseconds(2)

        /// The implementations of the server's HTTP/1.1 side.
        ///
        /// Both give the same answers to the same requests, within the same limits, and call the responder with the
        /// same ``HTTPRequest``; they differ in cost and in what they answer to requests they cannot parse.
        public enum HTTP1Implementation: String, Sendable, Hashable, CaseIterable {
            /// The server's own: event loops of its own (as the HTTP/2 side's), each running its requests on its
            /// thread, with a small per-connection buffer that grows only as a request needs it. Every refusal,
            /// unparsable requests included, is a JSON error.
            case native
            /// libmicrohttpd 0.9.75: one daemon per worker thread, requests the responder marks as heavy
            /// (``HTTPResponder/runsInLanes(_:)``) suspended and run on the ``RequestLanes``, a memory pool of
            /// ``HTTPServer/Configuration-swift.struct/connectionMemoryLimit`` per connection; unparsable requests
            /// get libmicrohttpd's own HTML answers. Kept for comparisons and as a fallback.
            case libmicrohttpd

            /// ``native``, unless the environment variable `EMULATOR_HTTP1` says `libmicrohttpd` (for a process whose
            /// code cannot be changed, such as the `dataconnect` command).
            public static var `default`: HTTP1Implementation {
                guard let text = getenv("EMULATOR_HTTP1") else { return .native }
                return HTTP1Implementation(rawValue: String(cString: text)) ?? .native
            }
        }

        /// Creates a configuration; every argument has the documented default.
        public init(
            threadPoolSize: Int = Configuration.onlineCoreCount,
            usesEpoll: Bool = true,
            connectionTimeout: Duration = .seconds(60),
            connectionLimit: Int = 10_000,
            maximumBodySize: Int = 8 * 1024 * 1024,
            maximumURILength: Int = 8 * 1024,
            maximumHeaderSize: Int = 80 * 1024,
            connectionMemoryLimit: Int = 128 * 1024,
            logHandler: (@Sendable (String) -> Void)? = nil
        ) {
            self.threadPoolSize = threadPoolSize
            self.usesEpoll = usesEpoll
            self.connectionTimeout = connectionTimeout
            self.connectionLimit = connectionLimit
            self.maximumBodySize = maximumBodySize
            self.maximumURILength = maximumURILength
            self.maximumHeaderSize = maximumHeaderSize
            self.connectionMemoryLimit = connectionMemoryLimit
            self.logHandler = logHandler
        }

        /// The number of online cores, at least 1.
        public static var onlineCoreCount: Int {
            max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        }
    }

    /// The address the server listens on, as given.
    public let host: String
    /// The configuration the server was created with.
    public let configuration: Configuration

    private let requestedPort: UInt16
    private let core: ServerCore
    private let daemon = Mutex<Running?>(nil)
    private let counters: GRPCCounters
    private let boundPort: Atomic<UInt16>
    private let running = Atomic<Bool>(false)

    /// What a running server is made of.
    private struct Running: Sendable {
        /// The listening socket's thread, which hands each connection to one side or the other.
        let dispatcher: ConnectionDispatcher
        /// The HTTP/1.1 side.
        let http1: HTTP1Side
        /// The HTTP/2 (gRPC) side.
        let http2: HTTP2Server
    }

    /// The HTTP/1.1 side of a run, in the configured implementation.
    private enum HTTP1Side: Sendable {
        case native(HTTP1Server)
        case libmicrohttpd(HTTP1Daemons)

        func add(socket: Int32, address: sockaddr_in) {
            switch self {
            case .native(let server): server.adopt(socket: socket, address: address)
            case .libmicrohttpd(let daemons): daemons.add(socket: socket, address: address)
            }
        }

        func beginDrain() {
            if case .native(let server) = self { server.beginDrain() }
        }

        func stop() {
            switch self {
            case .native(let server): server.stop()
            case .libmicrohttpd(let daemons): daemons.stop()
            }
        }
    }

    /// Creates a stopped server.
    ///
    /// - Parameters:
    ///   - host: An IPv4 address to listen on (default `127.0.0.1`; `localhost` means the same,
    ///     `0.0.0.0` every interface).
    ///   - port: The TCP port; 0 lets the system pick a free one, readable from ``port`` after ``start()``.
    ///   - configuration: Threads, limits and timeouts.
    ///   - responder: Answers every request; called concurrently on the worker threads.
    public init(
        host: String = "127.0.0.1",
        port: UInt16,
        configuration: Configuration = Configuration(),
        responder: some HTTPResponder
    ) {
        self.host = host
        self.requestedPort = port
        self.configuration = configuration
        self.boundPort = Atomic(port)
        self.counters = GRPCCounters(connectionLimit: max(0, configuration.connectionLimit))
        self.core = ServerCore(
            responder: responder,
            limits: ServerCore.Limits(
                body: max(0, configuration.maximumBodySize), uri: max(0, configuration.maximumURILength),
                header: max(0, configuration.maximumHeaderSize),
                webSocketMessage: max(0, configuration.maximumWebSocketMessageSize),
                webSockets: max(0, configuration.connectionLimit)),
            logHandler: configuration.logHandler)
    }

    deinit {
        stop()
    }

    /// The port the server listens on: after ``start()`` the bound port (the chosen one when created with
    /// port 0), before it the requested port.
    public var port: UInt16 {
        boundPort.load(ordering: .acquiring)
    }

    /// What the request lanes are doing, while the server runs.
    public var requestLanes: RequestLanes.Snapshot? {
        core.laneSnapshot
    }

    /// What the gRPC side is doing: calls in flight (HEADERS received, stream not yet closed) and their peak, calls
    /// started, HTTP/2 connections open. Counted since the server was created, over every run.
    public var grpcStatistics: GRPCStatistics {
        counters.snapshot
    }

    /// Whether the server is listening.
    public var isRunning: Bool {
        running.load(ordering: .acquiring)
    }

    /// Starts listening and serving.
    ///
    /// Returns once the socket is bound; requests are served on the worker threads.
    ///
    /// - Throws: ``HTTPServerError/invalidHost(_:)`` for an address that is not IPv4,
    ///   ``HTTPServerError/alreadyRunning(host:port:)`` if started twice, and
    ///   ``HTTPServerError/cannotListen(host:port:reason:)`` when the port is in use or cannot be bound.
    public func start() throws(HTTPServerError) {
        try daemon.withLock { (daemon: inout Running?) throws(HTTPServerError) in
            if daemon != nil {
                throw .alreadyRunning(host: host, port: port)
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = requestedPort.bigEndian
            let hostToParse = host == "localhost" ? "127.0.0.1" : host
            guard inet_pton(AF_INET, hostToParse, &address.sin_addr) == 1 else {
                throw .invalidHost(host)
            }
            let listener: Int32
            switch ConnectionDispatcher.listen(on: address) {
            case .success(let socket): listener = socket
            case .failure(let failure): throw .cannotListen(host: host, port: requestedPort, reason: failure.reason)
            }
            core.acceptWebSockets()
            core.startLanes(configuration.requestLanes, threadStarted: configuration.laneThreadStarted)
            _ = core.takeLastLogMessage()

            let workers = LoopWorkers(
                lanes: core.currentLanes, threadStarted: configuration.laneThreadStarted,
                fastWorkers: configuration.requestLanes.fastWorkers, log: { [core] in core.log($0) })
            let http1: HTTP1Side
            switch startHTTP1(workers: workers) {
            case .success(let started): http1 = started
            case .failure(let failure):
                close(listener)
                core.stopLanes(grace: .zero)
                throw .cannotListen(host: host, port: requestedPort, reason: failure.reason)
            }
            let bound = ConnectionDispatcher.boundPort(of: listener)
            let timeout = configuration.connectionTimeout
            let shared = HTTP2Shared(
                core: core, idleTimeout: timeout > .zero ? timeout : nil, counters: counters, workers: workers,
                roundBudget: configuration.http2RoundBudget)
            guard
                let http2 = HTTP2Server(
                    threads: loopCount, shared: shared, handOverAfter: configuration.handOverConnectionsAfter)
            else {
                close(listener)
                http1.stop()
                core.stopLanes(grace: .zero)
                let reason = core.takeLastLogMessage() ?? "cannot start the HTTP/2 threads"
                throw .cannotListen(host: host, port: requestedPort, reason: reason)
            }
            let destinations = ConnectionDispatcher.Destinations(
                http1: { socket, address in http1.add(socket: socket, address: address) },
                http2: { socket, address in http2.adopt(socket: socket, remoteAddress: address) })
            guard
                let dispatcher = ConnectionDispatcher(
                    listener: listener, timeout: timeout > .zero ? timeout : nil,
                    pendingLimit: max(1, configuration.connectionLimit), destinations: destinations,
                    log: { [core] in core.log($0) })
            else {
                http2.stop()
                http1.stop()
                core.stopLanes(grace: .zero)
                let reason = core.takeLastLogMessage() ?? "cannot start the connection dispatcher"
                throw .cannotListen(host: host, port: requestedPort, reason: reason)
            }
            daemon = Running(dispatcher: dispatcher, http1: http1, http2: http2)
            boundPort.store(bound, ordering: .releasing)
            running.store(true, ordering: .releasing)
        }
    }

    /// How many loops each of the server's own sides runs. A loop runs its requests itself: as many loops as
    /// requests may run at once, so that on a database server (the fast lane sized to its pool) a request waiting for
    /// its answer does not leave a connection of the pool, and a core, idle.
    private var loopCount: Int {
        max(1, configuration.threadPoolSize, configuration.requestLanes.fastWorkers)
    }

    /// Starts the configured HTTP/1.1 side (after the lanes).
    private func startHTTP1(workers: LoopWorkers) -> Result<HTTP1Side, HTTP1Daemons.StartFailure> {
        switch configuration.http1Implementation {
        case .libmicrohttpd:
            let threads = max(1, configuration.threadPoolSize)
            return HTTP1Daemons.start(count: threads, core: core, configuration: configuration).map {
                .libmicrohttpd($0)
            }
        case .native:
            let timeout = configuration.connectionTimeout
            let shared = HTTP1Shared(
                core: core, idleTimeout: timeout > .zero ? timeout : nil,
                connectionLimit: max(0, configuration.connectionLimit), workers: workers)
            guard
                let server = HTTP1Server(
                    threads: loopCount, shared: shared, handOverAfter: configuration.handOverConnectionsAfter)
            else {
                let reason = core.takeLastLogMessage() ?? "cannot start the HTTP/1.1 threads"
                return .failure(HTTP1Daemons.StartFailure(reason: reason))
            }
            return .success(.native(server))
        }
    }

    /// Stops listening, closes every connection and joins the worker threads.
    ///
    /// WebSockets still open are closed with 1001 (going away). Requests in progress are given up to ``Configuration-swift.struct/stopGracePeriod`` to be
    /// answered and sent, so a responder that returns promptly once asked to stop still gets its answer to the
    /// client; then every connection is closed. Returns once every worker thread has exited. Calling `stop()` on
    /// a stopped server does nothing; a stopped server can be started again.
    ///
    /// Because it joins the worker threads, `stop()` must not be called from a responder or a WebSocket handler
    /// (nor may the last reference to the server be released there).
    public func stop() {
        daemon.withLock { daemon in
            guard let stopping = daemon else { return }
            daemon = nil
            running.store(false, ordering: .releasing)
            stopping.dispatcher.stop()
            stopping.http1.beginDrain()
            stopping.http2.beginDrain()
            configuration.stopBegan?()
            core.closeWebSockets(grace: configuration.webSocketCloseGracePeriod)
            let deadline = ContinuousClock.now + configuration.stopGracePeriod
            // Requests on the lanes end (or are answered 503, or UNAVAILABLE, when not started) and resume their
            // connections: libmicrohttpd must not stop with a connection suspended. The native side's requests run
            // on its own threads and are counted in progress like libmicrohttpd's.
            core.stopLanes(grace: configuration.stopGracePeriod)
            while core.inProgressCount > 0 || grpcStatistics.callsInFlight > 0, ContinuousClock.now < deadline {
                usleep(2_000)
            }
            // Past the grace period: the calls still open are cancelled and their connections closed.
            stopping.http2.stop()
            stopping.http1.stop()
            core.closeLingeringConnections()
        }
    }
}

extension HTTPServer {
    /// Creates a stopped server that answers every request with `respond`.
    ///
    /// - Parameters:
    ///   - host: An IPv4 address to listen on (default `127.0.0.1`).
    ///   - port: The TCP port; 0 lets the system pick a free one.
    ///   - configuration: Threads, limits and timeouts.
    ///   - respond: Answers every request; called concurrently on the worker threads.
    public convenience init(
        host: String = "127.0.0.1",
        port: UInt16,
        configuration: Configuration = Configuration(),
        respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        self.init(host: host, port: port, configuration: configuration, responder: HTTPClosureResponder(respond))
    }
}
