import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The server's own HTTP/1.1 side (``HTTPServer/Configuration-swift.struct/HTTP1Implementation/native``): a few
/// ``HTTP1Loop``s serving the connections the ``ConnectionDispatcher`` classifies as HTTP/1 (round-robin), and a
/// watchdog thread that hands a loop over when its inline request runs long.
final class HTTP1Server: Sendable {
    let shared: HTTP1Shared
    private let loops: [HTTP1Loop]
    private let next = Atomic<UInt>(0)
    private let watchdogStop = DispatchSemaphore(value: 0)
    private let watchdogExited = DispatchSemaphore(value: 0)
    private let watchdogRuns: Bool

    /// Starts `threads` loops, and the watchdog when `handOverAfter` is set; `nil` (having logged why) when the system
    /// refuses.
    init?(threads: Int, shared: HTTP1Shared, handOverAfter: Duration?) {
        self.shared = shared
        var started: [HTTP1Loop] = []
        for index in 0..<max(1, threads) {
            guard let loop = HTTP1Loop(shared: shared, number: index + 1) else {
                for running in started { running.stop() }
                return nil
            }
            started.append(loop)
        }
        let loops = started
        self.loops = loops
        guard let handOverAfter, handOverAfter > .zero else {
            watchdogRuns = false
            return
        }
        let (seconds, attoseconds) = handOverAfter.components
        let budget = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        // Checked four times per budget: a loop is handed over between one and one and a quarter budgets.
        let period = DispatchTimeInterval.nanoseconds(Int(max(1_000_000, budget / 4)))
        let stop = watchdogStop
        let exited = watchdogExited
        watchdogRuns = EventLoop.startThread {
            while stop.wait(timeout: .now() + period) == .timedOut {
                let now = HTTP1Loop.monotonicNanoseconds()
                for loop in loops { loop.handOverIfStalled(now: now, budget: budget) }
            }
            exited.signal()
        }
        if !watchdogRuns {
            shared.core.log("HTTP/1.1 watchdog: cannot start a thread; only slow-lane moves hand loops over")
        }
    }

    /// Hands an accepted connection to the next loop, which owns the socket from now on.
    func adopt(socket: Int32, address: sockaddr_in) {
        let index = Int(next.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(loops.count))
        loops[index].adopt(socket: socket, address: address)
    }

    /// Starts a graceful stop: idle connections close now, the others once their request is answered.
    func beginDrain() {
        for loop in loops { loop.beginDrain() }
    }

    /// Closes every connection and stops the loops and the watchdog; returns once they are done.
    func stop() {
        if watchdogRuns {
            watchdogStop.signal()
            watchdogExited.wait()
        }
        for loop in loops { loop.stop() }
    }
}

/// What the loops of one run share: the server's core (responder, limits, log), the timeouts, the lanes whose slow
/// lane their long requests join, and the counts.
final class HTTP1Shared: Sendable {
    let core: ServerCore
    let limits: HTTP1HeadLimits
    /// Inactivity after which a connection is closed; `nil` for never.
    let idleTimeout: Duration?
    /// The most HTTP/1.1 connections open at once; 0 for no limit.
    let connectionLimit: Int
    /// The run's lanes: their slow lane bounds the slow requests of the loops too.
    let lanes: RequestLanes?
    /// Called on every thread of a loop before it serves.
    let threadStarted: (@Sendable (LaneWorker) -> Void)?
    /// How many threads may run requests beside their loops (handed over for having run long) at once.
    let fastWorkers: Int
    /// HTTP/1.1 connections open now.
    let connections = Atomic<Int>(0)
    /// Threads running a request beside their loop, not in the slow lane.
    let besideTheLoop = Atomic<Int>(0)

    init(
        core: ServerCore, idleTimeout: Duration?, connectionLimit: Int, lanes: RequestLanes?,
        threadStarted: (@Sendable (LaneWorker) -> Void)?, fastWorkers: Int
    ) {
        self.core = core
        self.limits = HTTP1HeadLimits(target: core.limits.uri, header: core.limits.header, body: core.limits.body)
        self.idleTimeout = idleTimeout
        self.connectionLimit = connectionLimit
        self.lanes = lanes
        self.threadStarted = threadStarted
        self.fastWorkers = max(1, fastWorkers)
    }

    /// Counts a connection in, if under the limit; returns whether it was.
    func openConnection() -> Bool {
        let count = connections.wrappingAdd(1, ordering: .relaxed).newValue
        guard connectionLimit <= 0 || count <= connectionLimit else {
            connections.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Counts a connection out (closed, or handed to the WebSocket reactor or the lingering close).
    func closeConnection() {
        connections.wrappingSubtract(1, ordering: .relaxed)
    }
}
