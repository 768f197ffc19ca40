import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What the threads of the server's own loops that run requests themselves (``HTTP1Loop``, ``HTTP2Loop``) share over
/// one run: the lanes whose slow lane their long requests join, the hook every thread gets before it serves, and the
/// count of threads finishing a long request beside their loop.
final class LoopWorkers: Sendable {
    /// The run's lanes: their slow lane bounds the loops' slow requests too.
    let lanes: RequestLanes?
    /// Called on every thread of a loop before it serves.
    let threadStarted: (@Sendable (LaneWorker) -> Void)?
    /// How many threads may run requests beside their loops (handed over for having run long) at once, over both
    /// sides.
    let fastWorkers: Int
    /// Threads running a request beside their loop, not in the slow lane.
    let besideTheLoop = Atomic<Int>(0)
    /// Loop threads of either side not waiting for events.
    let awakeLoops = Atomic<Int>(0)
    /// Batches of ready gRPC calls an HTTP/2 loop handed to the lanes (``HTTP2LoopContext``), not yet ended.
    let sharedBatches = Atomic<Int>(0)
    let log: @Sendable (String) -> Void

    init(
        lanes: RequestLanes?, threadStarted: (@Sendable (LaneWorker) -> Void)?, fastWorkers: Int,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.lanes = lanes
        self.threadStarted = threadStarted
        self.fastWorkers = max(1, fastWorkers)
        self.log = log
    }

    /// How many more threads could run requests now without taking a core from one already running: the fast
    /// workers (as many as cores by default) less the loop threads awake, the batches handed to the lanes and the
    /// threads finishing a request beside their loop. A moment's estimate, read without a lock.
    var idleWorkers: Int {
        fastWorkers - awakeLoops.load(ordering: .relaxed) - sharedBatches.load(ordering: .relaxed)
            - besideTheLoop.load(ordering: .relaxed)
    }

    /// Waits for `eventLoop`'s events as a loop thread, not counted awake while it may sleep.
    func wait(on eventLoop: EventLoop, milliseconds: Int32, into events: inout EventLoop.Events) {
        guard milliseconds != 0 else {
            eventLoop.wait(milliseconds: 0, into: &events)
            return
        }
        awakeLoops.subtract(1, ordering: .relaxed)
        eventLoop.wait(milliseconds: milliseconds, into: &events)
        awakeLoops.add(1, ordering: .relaxed)
    }
}

/// Who serves one of the server's own event loops that run requests on their own thread (``HTTP1Loop``,
/// ``HTTP2Loop``), and the thread ready to take the loop over when a request runs long.
///
/// The loop's thread is a fast-lane worker (``LaneWorker``): the code running a request sees it as it sees a thread
/// of ``RequestLanes``.
///
/// **A long request gives the loop away.** When the request's slow-lane move is asked for
/// (``LaneWorker/enterSlowLane()``, from the engine's watchdog), or when the request has run past
/// ``HTTPServer/Configuration-swift.struct/handOverConnectionsAfter`` (checked by a ``HandoverWatchdog``), the loop
/// is handed over to a standby thread, which goes on serving the loop's other connections at once. The old thread
/// finishes the request (in the slow lane: at nice 10, within the slow lane's capacity, as ``RequestLanes`` runs its
/// own), gives the answer to the loop through the loop's thread-safe side, and ends. One atomic decides the handover:
/// the number of the request running inline, which the owning thread swaps back to 0 when its request ends
/// (``requestEnded(_:)``) and the handover swaps to 0 when it takes the loop; whichever swap comes first wins, so a
/// request is either answered inline or handed over, never both.
///
/// The loop's own state passes from thread to thread with the loop: the thread that loses it touches none of it
/// once its request has ended, and the thread that takes it over starts after the loss (a semaphore orders the two).
final class LoopHandover: @unchecked Sendable {
    let workers: LoopWorkers
    private let name: String
    /// The number of the request the owner runs inline, 0 when none.
    private let running = Atomic<UInt64>(0)
    /// When that request started (monotonic nanoseconds).
    private let startedAt = Atomic<Int64>(0)
    private let state = Mutex<State>(State())
    private let exited = DispatchSemaphore(value: 0)

    /// Who serves the loop, and who is ready to take over.
    private struct State {
        var owner: LaneWorker?
        var standby: Standby?
        var loop: Loop?
        var stopped = false
        var standbyFailureLogged = false
    }

    /// What a thread does with the loop once it owns it (set by ``start(serve:close:)``, dropped once the loop has
    /// stopped).
    private struct Loop: Sendable {
        let serve: @Sendable (LaneWorker, _ resuming: Bool) -> Bool
        let close: @Sendable () -> Void
    }

    /// A parked thread, ready to take the loop over.
    private final class Standby: Sendable {
        let worker: LaneWorker
        let go = DispatchSemaphore(value: 0)
        let cancelled = Atomic<Bool>(false)

        init(worker: LaneWorker) {
            self.worker = worker
        }

        func cancel() {
            cancelled.store(true, ordering: .releasing)
            go.signal()
        }
    }

    /// Creates the handover of the loop called `name` in log messages.
    init(name: String, workers: LoopWorkers) {
        self.name = name
        self.workers = workers
    }

    // MARK: The loop's threads

    /// Starts the loop's first thread; `false` when the system refuses.
    ///
    /// - Parameters:
    ///   - serve: What each thread that owns the loop does, with its worker and whether it took the loop from another
    ///     thread: serve until the loop stops (`true`) or is taken from it (`false`).
    ///   - close: What the last owner does once the loop has stopped (close its inbox and `epoll` set).
    func start(
        serve: @escaping @Sendable (LaneWorker, _ resuming: Bool) -> Bool, close: @escaping @Sendable () -> Void
    ) -> Bool {
        let worker = LaneWorker(owner: .loop(self))
        state.withLock { state in
            state.owner = worker
            state.loop = Loop(serve: serve, close: close)
        }
        let started = EventLoop.startThread { [self] in
            begin(worker)
            own(as: worker, resuming: false)
        }
        if !started {
            state.withLock { state in
                state.owner = nil
                state.loop = nil
            }
        }
        return started
    }

    /// What a thread that owns the loop does: serve it until it stops (then close it, and no one serves it again) or
    /// is taken from this thread.
    private func own(as worker: LaneWorker, resuming: Bool) {
        guard let loop = state.withLock({ $0.loop }) else { return }
        prepareStandby()
        guard loop.serve(worker, resuming) else { return }
        loop.close()
        let standby = state.withLock { state in
            state.stopped = true
            state.owner = nil
            state.loop = nil
            defer { state.standby = nil }
            return state.standby
        }
        standby?.cancel()
        exited.signal()
    }

    /// Gets a thread ready to take the loop over, if none is (called by the owner).
    func prepareStandby() {
        let needed = state.withLock { !$0.stopped && $0.standby == nil }
        guard needed else { return }
        let standby = Standby(worker: LaneWorker(owner: .loop(self)))
        let started = EventLoop.startThread { [self] in
            begin(standby.worker)
            standby.go.wait()
            guard !standby.cancelled.load(ordering: .acquiring) else { return }
            own(as: standby.worker, resuming: true)
        }
        let logFailure = state.withLock { state -> Bool in
            guard started else {
                defer { state.standbyFailureLogged = true }
                return !state.standbyFailureLogged
            }
            if state.stopped {
                standby.cancel()
            } else {
                state.standby = standby
            }
            return false
        }
        if logFailure {
            workers.log("\(name): cannot start a standby thread; long requests hold up this loop's connections")
        }
    }

    /// What every thread of the loop does first: note its kernel id, and let the server's hook see it.
    private func begin(_ worker: LaneWorker) {
        worker.threadID = cmhd_thread_id()
        workers.threadStarted?(worker)
    }

    /// Returns once the owner has stopped the loop (it has been asked to). An owner held by a request loses the loop
    /// to the standby, which stops it: a request still running inline keeps its thread, which is no longer the
    /// loop's.
    func waitUntilStopped() {
        while exited.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            state.withLock { state in
                let sequence = running.load(ordering: .acquiring)
                guard sequence != 0, let owner = state.owner, !owner.handedOver,
                    owner.sequence.load(ordering: .relaxed) == sequence, handOver(&state, sequence)
                else { return }
                owner.handedOver = true
            }
        }
    }

    // MARK: Inline requests

    /// Marks request `sequence` as running inline on the owner.
    func requestStarted(_ sequence: UInt64) {
        startedAt.store(Self.monotonicNanoseconds(), ordering: .relaxed)
        running.store(sequence, ordering: .releasing)
    }

    /// Marks request `sequence` as ended; `false` when the loop was handed over while it ran (the caller no longer
    /// owns the loop).
    func requestEnded(_ sequence: UInt64) -> Bool {
        running.compareExchange(expected: sequence, desired: 0, ordering: .acquiringAndReleasing).exchanged
    }

    /// Gives the loop to the standby if request `sequence` still runs inline (with the state's lock held).
    private func handOver(_ state: inout State, _ sequence: UInt64) -> Bool {
        guard let standby = state.standby,
            running.compareExchange(expected: sequence, desired: 0, ordering: .acquiringAndReleasing).exchanged
        else { return false }
        state.standby = nil
        state.owner = standby.worker
        standby.go.signal()
        return true
    }

    /// ``LaneWorker/enterSlowLane()`` for a thread of this loop: the loop goes to another thread (unless it already
    /// has), and the request asks the slow lane for a place.
    func enterSlowLane(_ worker: LaneWorker) -> Bool {
        state.withLock { state in
            if worker.finished { return true }
            if let answer = worker.slowLaneAnswer { return answer }
            if worker.handedOver {
                if worker.runsBesideTheLoop {
                    worker.runsBesideTheLoop = false
                    workers.besideTheLoop.subtract(1, ordering: .relaxed)
                }
            } else {
                let sequence = worker.sequence.load(ordering: .relaxed)
                // Between requests: nothing to move (a late call for a request that has ended).
                guard sequence != 0 else { return true }
                guard handOver(&state, sequence) else {
                    // Ended meanwhile, or no standby thread: a request that cannot leave the loop is refused, so
                    // that it stops rather than hold up the loop's connections.
                    if running.load(ordering: .acquiring) != sequence { return true }
                    worker.slowLaneAnswer = false
                    return false
                }
                worker.handedOver = true
            }
            let admitted = workers.lanes?.admitSlowRequest(threadID: worker.threadID) ?? false
            worker.slowLaneAnswer = admitted
            return admitted
        }
    }

    /// Hands the loop over when its inline request has run `budget` nanoseconds or more (a watchdog asks), as long
    /// as fewer than the fast lane's threads run beside their loops already.
    func handOverIfStalled(now: Int64, budget: Int64) {
        let sequence = running.load(ordering: .acquiring)
        guard sequence != 0, now - startedAt.load(ordering: .relaxed) >= budget,
            workers.besideTheLoop.load(ordering: .relaxed) < workers.fastWorkers
        else { return }
        state.withLock { state in
            guard let owner = state.owner, !owner.handedOver, owner.sequence.load(ordering: .relaxed) == sequence,
                handOver(&state, sequence)
            else { return }
            owner.handedOver = true
            owner.runsBesideTheLoop = true
            workers.besideTheLoop.add(1, ordering: .relaxed)
        }
    }

    /// The request of a thread that lost the loop has ended (its answer is on its way to the loop): its places are
    /// given back.
    func finishBesideTheLoop(_ worker: LaneWorker) {
        let holdsSlowPlace = state.withLock { _ -> Bool in
            worker.finished = true
            if worker.runsBesideTheLoop {
                worker.runsBesideTheLoop = false
                workers.besideTheLoop.subtract(1, ordering: .relaxed)
            }
            return worker.slowLaneAnswer == true
        }
        if holdsSlowPlace { workers.lanes?.releaseSlowRequest() }
    }

    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

/// A thread that hands a loop over when its inline request has run past a budget: it looks at the loops four times
/// per budget, so a loop is handed over between one and one and a quarter budgets.
final class HandoverWatchdog: Sendable {
    private let stopSignal = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let runs: Bool

    /// Starts watching `loops` when `budget` is set (and positive); logs, prefixed with `owner`, when the system
    /// refuses the thread (only slow-lane moves hand loops over then).
    init(loops: [LoopHandover], budget: Duration?, owner: String, log: (String) -> Void) {
        guard let budget, budget > .zero else {
            runs = false
            return
        }
        let (seconds, attoseconds) = budget.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        let period = DispatchTimeInterval.nanoseconds(Int(max(1_000_000, nanoseconds / 4)))
        let stop = stopSignal
        let exited = exited
        runs = EventLoop.startThread {
            while stop.wait(timeout: .now() + period) == .timedOut {
                let now = LoopHandover.monotonicNanoseconds()
                for loop in loops { loop.handOverIfStalled(now: now, budget: nanoseconds) }
            }
            exited.signal()
        }
        if !runs {
            log("\(owner) watchdog: cannot start a thread; only slow-lane moves hand loops over")
        }
    }

    /// Stops the thread; returns once it has exited.
    func stop() {
        guard runs else { return }
        stopSignal.signal()
        exited.wait()
    }
}

/// The state of a loop that passes from thread to thread with its ownership (``HTTP1LoopContext``,
/// ``HTTP2LoopContext``): what ``LoopHandover`` needs to start serving on a thread.
protocol LoopThreadContext: AnyObject {
    /// The owning thread's worker.
    var worker: LaneWorker? { get set }
    /// Takes the loop over from a thread held by a request.
    func takeOver(as worker: LaneWorker)
    /// Serves until the loop stops (`true`) or is taken from this thread while it runs a request (`false`).
    func run() -> Bool
}

extension LoopThreadContext {
    /// Serves the loop on `worker`'s thread, the loop's first owner or (`resuming`) one that took it over, until it
    /// stops (`true`) or is taken from this thread (`false`).
    func serve(_ worker: LaneWorker, resuming: Bool) -> Bool {
        if resuming {
            takeOver(as: worker)
        } else {
            self.worker = worker
        }
        return run()
    }
}
