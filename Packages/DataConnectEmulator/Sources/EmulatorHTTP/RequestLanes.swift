import CMicroHTTPD
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The worker threads that run the requests a responder marks as heavy (``HTTPResponder/runsInLanes(_:)``) on
/// libmicrohttpd's HTTP/1.1 side, and gRPC calls, in two lanes, so that slow requests cannot take every thread cheap
/// ones need. The native HTTP/1.1 side runs its requests on its own threads, and its slow requests take places in
/// the same slow lane.
///
/// Every request starts in the **fast lane**, which keeps ``Configuration-swift.struct/fastWorkers`` threads. A
/// request that runs past its short budget is moved to the **slow lane** (``LaneWorker/enterSlowLane()``, which the
/// emulator's engine calls from its deadline watchdog): its thread leaves the fast lane, which starts another thread
/// in its place, and gets a lower scheduling priority (nice 10) so that cheap requests get the cores first. At most ``Configuration-swift.struct/slowLaneCapacity``
/// requests run in the slow lane at once; one more is refused (its code stops it), rather than waiting while it
/// holds a database connection cheap requests need. A thread that served in the slow lane ends with its request. A
/// job that runs several requests in turn can have the ones it has not started go back to the fast lane at the
/// moment its thread leaves it (``whileInFastLane(_:whenLeaving:_:)``).
///
/// ```swift
/// let lanes = RequestLanes(configuration: .init(fastWorkers: 2, slowLaneCapacity: 2))
/// lanes.submit(run: { answer(request) }, abandon: { answerStopping(request) })
/// ```
public final class RequestLanes: @unchecked Sendable {
    /// The lanes' sizes.
    public struct Configuration: Sendable, Hashable {
        /// The threads that run requests that are not (yet) slow; on the native HTTP/1.1 side, also the most threads
        /// finishing a long request beside their loop outside the slow lane.
        public var fastWorkers: Int
        /// How many slow requests may run at once.
        public var slowLaneCapacity: Int

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - fastWorkers: The fast lane's threads (at least 1); the number of online cores by default.
        ///   - slowLaneCapacity: The slow lane's bound (at least 1); half the online cores, at least 1, by default.
        public init(
            fastWorkers: Int = HTTPServer.Configuration.onlineCoreCount,
            slowLaneCapacity: Int = max(1, HTTPServer.Configuration.onlineCoreCount / 2)
        ) {
            self.fastWorkers = max(1, fastWorkers)
            self.slowLaneCapacity = max(1, slowLaneCapacity)
        }
    }

    /// What the lanes are doing now.
    public struct Snapshot: Sendable, Hashable {
        /// Fast-lane threads (idle or running a request).
        public var fastThreads: Int
        /// Fast-lane threads waiting for work.
        public var idleFastThreads: Int
        /// Requests submitted and not yet started.
        public var queued: Int
        /// Requests running in the slow lane.
        public var slowRunning: Int
        /// Requests refused because the slow lane was full, since the lanes started.
        public var refusedSlowRequests: Int
    }

    private struct Job {
        let run: @Sendable (LaneWorker) -> Void
        let abandon: @Sendable () -> Void
    }

    /// The lanes' sizes.
    public let configuration: Configuration
    private let threadStarted: (@Sendable (LaneWorker) -> Void)?
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var queueHead = 0
    private var fastThreads = 0
    private var idleFastThreads = 0
    private var slowRunning = 0
    private var refusedSlowRequests = 0
    /// Requests running (started and not ended), in either lane.
    private var running = 0
    private var stopping = false
    private var workerNumber = 0

    /// Creates lanes; threads start with the first request.
    ///
    /// - Parameters:
    ///   - configuration: The lanes' sizes.
    ///   - threadStarted: Called on each new worker thread before its first request, e.g. to register the
    ///     worker with the code that decides when a request is slow.
    public init(configuration: Configuration = Configuration(), threadStarted: (@Sendable (LaneWorker) -> Void)? = nil)
    {
        self.configuration = configuration
        self.threadStarted = threadStarted
    }

    /// Runs `run` on a fast-lane thread, in the order submitted; `abandon` instead when the lanes stop first.
    ///
    /// - Returns: `false` when the lanes are stopping; neither closure is called then.
    @discardableResult
    public func submit(run: @escaping @Sendable () -> Void, abandon: @escaping @Sendable () -> Void) -> Bool {
        submit(runOn: { _ in run() }, abandon: abandon)
    }

    /// Runs `run` on a fast-lane thread, in the order submitted, with the worker running it (for
    /// ``whileInFastLane(_:whenLeaving:_:)``); `abandon` instead when the lanes stop first.
    ///
    /// - Returns: `false` when the lanes are stopping; neither closure is called then.
    @discardableResult
    func submit(runOn run: @escaping @Sendable (LaneWorker) -> Void, abandon: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        queue.append(Job(run: run, abandon: abandon))
        if idleFastThreads > 0 {
            condition.signal()
        } else if fastThreads < configuration.fastWorkers {
            startFastThread()
        }
        return true
    }

    /// The lanes' state now.
    public var snapshot: Snapshot {
        condition.lock()
        defer { condition.unlock() }
        return Snapshot(
            fastThreads: fastThreads, idleFastThreads: idleFastThreads, queued: queue.count - queueHead,
            slowRunning: slowRunning, refusedSlowRequests: refusedSlowRequests)
    }

    /// Stops taking requests, abandons the ones not started, and waits up to `grace` for the running ones.
    ///
    /// - Returns: Whether every running request ended within `grace`.
    @discardableResult
    public func stop(grace: Duration) -> Bool {
        condition.lock()
        stopping = true
        let abandoned = queue[queueHead...]
        queue = []
        queueHead = 0
        condition.broadcast()
        condition.unlock()
        for job in abandoned { job.abandon() }
        let (seconds, attoseconds) = grace.components
        let limit = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18)
        condition.lock()
        defer { condition.unlock() }
        while running > 0 {
            if !condition.wait(until: limit) { return running == 0 }
        }
        return true
    }

    // MARK: Workers

    /// Starts a fast-lane thread (with the lock held).
    private func startFastThread() {
        fastThreads += 1
        workerNumber += 1
        let worker = LaneWorker(owner: .lanes(self))
        let thread = Thread { [self] in
            threadStarted?(worker)
            serve(worker)
        }
        thread.name = "request-lane-\(workerNumber)"
        thread.start()
    }

    private func serve(_ worker: LaneWorker) {
        condition.lock()
        worker.threadID = cmhd_thread_id()
        while true {
            guard !worker.isSlow else { break }
            if queueHead < queue.count {
                let job = queue[queueHead]
                queueHead += 1
                if queueHead == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    queueHead = 0
                }
                running += 1
                condition.unlock()
                job.run(worker)
                condition.lock()
                running -= 1
                if running == 0 && stopping { condition.broadcast() }
                continue
            }
            if stopping {
                fastThreads -= 1
                break
            }
            idleFastThreads += 1
            condition.wait()
            idleFastThreads -= 1
        }
        if worker.holdsSlowSlot {
            worker.holdsSlowSlot = false
            slowRunning -= 1
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Runs `body`, part of the job `worker` runs (on the worker's thread), with `leaving` as what the worker's move
    /// to the slow lane does meanwhile: ``enterSlowLane(_:)`` calls it once, on the thread that asks for the move,
    /// after the lanes' lock is released. If the worker has left the fast lane already, `leaving` is called at once,
    /// before `body`. Once `body` has returned, no move calls it any more (one that took it just before may still be
    /// calling it: what `leaving` and `body` share needs a lock of its own).
    func whileInFastLane(
        _ worker: LaneWorker, whenLeaving leaving: @escaping @Sendable () -> Void, _ body: () -> Void
    ) {
        condition.lock()
        let alreadySlow = worker.isSlow
        if !alreadySlow { worker.leavingFastLane = leaving }
        condition.unlock()
        if alreadySlow { leaving() }
        body()
        condition.lock()
        worker.leavingFastLane = nil
        condition.unlock()
    }

    /// Moves `worker`'s request to the slow lane (from any thread), and calls what the worker's job asked to be called
    /// then (``whileInFastLane(_:whenLeaving:_:)``).
    func enterSlowLane(_ worker: LaneWorker) -> Bool {
        condition.lock()
        if worker.isSlow {
            let admitted = worker.holdsSlowSlot
            condition.unlock()
            return admitted
        }
        worker.isSlow = true
        let leaving = worker.leavingFastLane
        worker.leavingFastLane = nil
        fastThreads -= 1
        if queueHead < queue.count && idleFastThreads == 0 && !stopping {
            startFastThread()
        }
        let admitted = slowRunning < configuration.slowLaneCapacity
        if admitted {
            slowRunning += 1
            worker.holdsSlowSlot = true
        } else {
            refusedSlowRequests += 1
        }
        let threadID = worker.threadID
        condition.unlock()
        leaving?()
        if admitted { Self.lowerPriority(ofThread: threadID) }
        return admitted
    }

    /// Admits a request running on a thread of the server's own (an HTTP/1.1 connection thread that handed its
    /// connections over) to the slow lane, under the same bound as the lanes' own requests.
    ///
    /// - Returns: `false` when the slow lane is full (the refusal is counted); the request should stop.
    func admitSlowRequest(threadID: Int32) -> Bool {
        condition.lock()
        let admitted = slowRunning < configuration.slowLaneCapacity
        if admitted {
            slowRunning += 1
        } else {
            refusedSlowRequests += 1
        }
        condition.unlock()
        if admitted { Self.lowerPriority(ofThread: threadID) }
        return admitted
    }

    /// Gives back the place of a request admitted with ``admitSlowRequest(threadID:)``, once it has ended.
    func releaseSlowRequest() {
        condition.lock()
        slowRunning -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Nice 10 for one thread alone (Linux schedules threads as tasks of their own): cheap requests on the fast
    /// lane's threads get the cores first. The thread ends with its request, since without privileges a priority
    /// cannot be raised again.
    private static func lowerPriority(ofThread threadID: Int32) {
        #if canImport(Glibc)
        guard threadID > 0 else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(threadID), 10)
        #endif
    }
}
