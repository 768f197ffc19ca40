import CNGHTTP2
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP/2 side of a running ``HTTPServer``: a few ``HTTP2Loop``s serving the connections that opened with the
/// client preface (round-robin), what they share, and a watchdog thread that hands a loop over when its inline unary
/// call runs long.
final class HTTP2Server: Sendable {
    let shared: HTTP2Shared
    private let loops: [HTTP2Loop]
    private let next = Atomic<UInt>(0)
    private let watchdog: HandoverWatchdog

    /// Starts `threads` loops, and the watchdog when `handOverAfter` is set; nil (having logged why) when the system
    /// refuses.
    init?(threads: Int, shared: HTTP2Shared, handOverAfter: Duration?) {
        self.shared = shared
        var loops: [HTTP2Loop] = []
        for index in 0..<max(1, threads) {
            guard let loop = HTTP2Loop(shared: shared, number: index + 1) else {
                for started in loops { started.stop() }
                return nil
            }
            loops.append(loop)
        }
        self.loops = loops
        self.watchdog = HandoverWatchdog(
            loops: loops.map(\.handover), budget: handOverAfter, owner: "HTTP/2", log: { shared.core.log($0) })
    }

    /// Hands a connection that sent the client preface to the next loop, which owns the socket from now on.
    func adopt(socket: Int32, remoteAddress: String?) {
        let index = Int(next.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(loops.count))
        loops[index].adopt(socket: socket, remoteAddress: remoteAddress)
    }

    /// Starts a graceful stop: GOAWAY to every connection (a notice, then the last stream id), open streaming calls
    /// finished with UNAVAILABLE; unary calls in flight go on.
    func beginDrain() {
        for loop in loops { loop.post(.drain) }
    }

    /// Cancels what is still running, closes every connection and stops the loops and the watchdog; returns once
    /// they are done (a unary call still running keeps its thread, which is no longer a loop's).
    func stop() {
        watchdog.stop()
        for loop in loops { loop.stop() }
    }
}

/// What the loops of one run share: the server's core (responder, limits, lanes), the gRPC service, the timeouts,
/// the threads' shared state (``LoopWorkers``) and the statistics.
final class HTTP2Shared: Sendable {
    let core: ServerCore
    let service: (any GRPCService)?
    /// Inactivity after which an idle connection, or a unary call whose request stays incomplete, is ended; nil
    /// for never.
    let idleTimeout: Duration?
    let counters: GRPCCounters
    /// What the threads of every loop of the run share (the HTTP/1.1 side's too).
    let workers: LoopWorkers
    /// How long the ready calls may run in one round (``HTTPServer/Configuration-swift.struct/http2RoundBudget``).
    let roundBudget: Duration

    init(
        core: ServerCore, idleTimeout: Duration?, counters: GRPCCounters, workers: LoopWorkers, roundBudget: Duration
    ) {
        self.core = core
        self.roundBudget = roundBudget
        self.service = core.responder.grpcService
        self.idleTimeout = idleTimeout
        self.counters = counters
        self.workers = workers
    }
}

/// The counts behind ``GRPCStatistics``, kept by the server over its runs.
final class GRPCCounters: Sendable {
    private let state = Mutex(GRPCStatistics())
    /// HTTP/2 connections served at once; one more gets GOAWAY. 0 for no limit.
    let connectionLimit: Int

    init(connectionLimit: Int) {
        self.connectionLimit = connectionLimit
    }

    /// The counts now.
    var snapshot: GRPCStatistics {
        state.withLock { $0 }
    }

    /// Counts a call whose HEADERS arrived.
    func callStarted() {
        state.withLock { statistics in
            statistics.callsStarted += 1
            statistics.callsInFlight += 1
            statistics.peakCallsInFlight = max(statistics.peakCallsInFlight, statistics.callsInFlight)
        }
    }

    /// Counts a call whose stream closed.
    func callEnded() {
        state.withLock { $0.callsInFlight -= 1 }
    }

    /// Counts a connection in, if under the limit; returns whether it was.
    func connectionOpened() -> Bool {
        state.withLock { statistics in
            guard connectionLimit <= 0 || statistics.http2Connections < connectionLimit else { return false }
            statistics.http2Connections += 1
            return true
        }
    }

    /// Counts a connection out.
    func connectionClosed() {
        state.withLock { $0.http2Connections -= 1 }
    }
}
