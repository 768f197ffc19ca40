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
    private let watchdog: HandoverWatchdog

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
        self.loops = started
        self.watchdog = HandoverWatchdog(
            loops: started.map(\.handover), budget: handOverAfter, owner: "HTTP/1.1", log: { shared.core.log($0) })
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
        watchdog.stop()
        for loop in loops { loop.stop() }
    }
}

/// What the loops of one run share: the server's core (responder, limits, log), the timeouts, the threads' shared
/// state (``LoopWorkers``: the slow lane their long requests join), and the count of connections.
final class HTTP1Shared: Sendable {
    let core: ServerCore
    let limits: HTTP1HeadLimits
    /// Inactivity after which a connection is closed; `nil` for never.
    let idleTimeout: Duration?
    /// The most HTTP/1.1 connections open at once; 0 for no limit.
    let connectionLimit: Int
    /// What the threads of every loop of the run share (the HTTP/2 side's too).
    let workers: LoopWorkers
    /// HTTP/1.1 connections open now.
    let connections = Atomic<Int>(0)

    init(
        core: ServerCore, idleTimeout: Duration?, connectionLimit: Int, workers: LoopWorkers
    ) {
        self.core = core
        self.limits = HTTP1HeadLimits(target: core.limits.uri, header: core.limits.header, body: core.limits.body)
        self.idleTimeout = idleTimeout
        self.connectionLimit = connectionLimit
        self.workers = workers
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
