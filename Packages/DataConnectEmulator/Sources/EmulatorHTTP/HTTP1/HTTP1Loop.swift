import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One event loop of the server's own HTTP/1.1 side: an `epoll` set of connections, served by one thread at a time,
/// which runs each request's responder itself.
///
/// **Requests run on the loop's thread.** Parsing, the responder and the answer happen in one go, with no hop to
/// another thread and back. The loop's thread is a fast-lane worker (``LaneWorker``): the code running a request
/// sees it as it sees a thread of ``RequestLanes``.
///
/// **A long request gives the loop away.** When the request's slow-lane move is asked for
/// (``LaneWorker/enterSlowLane()``, from the engine's watchdog), or when the request has run past
/// ``HTTPServer/Configuration-swift.struct/handOverConnectionsAfter`` (checked by the server's watchdog thread),
/// the loop is handed over to a standby thread, which goes on serving the loop's other connections at once. The old
/// thread finishes the request (in the slow lane: at nice 10, within the slow lane's capacity, as ``RequestLanes``
/// runs its own), posts the answer to the loop's inbox, and ends. One atomic decides the handover: the number of the
/// request running inline, which the owning thread swaps back to 0 when its request ends and the handover swaps to 0
/// when it takes the loop; whichever swap comes first wins, so a request is either answered inline or handed over,
/// never both.
///
/// Other threads reach the loop through its inbox (new connections, answers, drain) and its wake descriptor.
final class HTTP1Loop: @unchecked Sendable {
    /// What other threads ask of the loop.
    enum Command: Sendable {
        /// A new connection, with the peer's address.
        case adopt(Int32, sockaddr_in)
        /// The answer of a request whose thread lost the loop, for the connection with this token.
        case answer(UInt64, HTTPResponse)
        /// Begin a graceful stop.
        case drain
    }

    let shared: HTTP1Shared
    private let eventLoop: EventLoop
    /// The owner's state; set once, right after the loop is made.
    private var context: HTTP1LoopContext!
    private let inbox = Mutex<Inbox>(Inbox())
    /// The number of the request the owner runs inline, 0 when none.
    private let running = Atomic<UInt64>(0)
    /// When that request started (monotonic nanoseconds).
    private let startedAt = Atomic<Int64>(0)
    private let handover = Mutex<Handover>(Handover())
    private let stopping = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)
    private let owner: String

    private struct Inbox {
        var commands: [Command] = []
        var head = 0
        var closed = false
    }

    /// Who serves the loop, and who is ready to take over.
    private struct Handover {
        var owner: LaneWorker?
        var standby: Standby?
        var stopped = false
        var standbyFailureLogged = false
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

    /// Creates the `epoll` set and starts the loop's thread; `nil` (having logged why) when the system refuses.
    init?(shared: HTTP1Shared, number: Int) {
        self.shared = shared
        self.owner = "HTTP/1.1 loop \(number)"
        guard let eventLoop = EventLoop(owner: owner, log: { shared.core.log($0) }) else { return nil }
        self.eventLoop = eventLoop
        self.context = HTTP1LoopContext(loop: self, eventLoop: eventLoop, shared: shared)
        let worker = LaneWorker(owner: .loop(self))
        handover.withLock { $0.owner = worker }
        guard
            EventLoop.startThread({ [self] in
                begin(worker)
                serve(worker, resuming: false)
            })
        else {
            shared.core.log("\(owner): cannot start a thread")
            eventLoop.close()
            return nil
        }
    }

    // MARK: From other threads

    /// Hands the loop a connection, which it owns from now on.
    func adopt(socket: Int32, address: sockaddr_in) {
        if !post(.adopt(socket, address)) { close(socket) }
    }

    /// Starts a graceful stop: idle connections close, the others after their answer.
    func beginDrain() {
        post(.drain)
    }

    /// Closes every connection and stops the loop; returns once its owner is done. A request still running inline
    /// keeps its thread, which is no longer the loop's.
    func stop() {
        stopping.store(true, ordering: .releasing)
        inbox.withLock { inbox in
            if !inbox.closed { eventLoop.wake() }
        }
        while exited.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            // The owner may be held by a request: the standby takes the loop and stops it.
            handover.withLock { handover in
                let sequence = running.load(ordering: .acquiring)
                guard sequence != 0, let owner = handover.owner, !owner.handedOver,
                    owner.sequence.load(ordering: .relaxed) == sequence, handOver(&handover, sequence)
                else { return }
                owner.handedOver = true
            }
        }
    }

    /// Queues a command and wakes the owner; `false` when the loop has stopped.
    @discardableResult
    func post(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.commands.append(command)
            if inbox.commands.count - inbox.head == 1 { eventLoop.wake() }
            return true
        }
    }

    // MARK: The owner's side

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// The next command posted, if any.
    func nextCommand() -> Command? {
        inbox.withLock { inbox in
            guard inbox.head < inbox.commands.count else { return nil }
            let command = inbox.commands[inbox.head]
            inbox.head += 1
            if inbox.head == inbox.commands.count {
                inbox.commands.removeAll(keepingCapacity: inbox.commands.capacity <= 64)
                inbox.head = 0
            }
            return command
        }
    }

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

    /// Gets a thread ready to take the loop over, if none is (called by the owner).
    func prepareStandby() {
        let needed = handover.withLock { !$0.stopped && $0.standby == nil }
        guard needed else { return }
        let standby = Standby(worker: LaneWorker(owner: .loop(self)))
        let started = EventLoop.startThread { [self] in
            begin(standby.worker)
            standby.go.wait()
            guard !standby.cancelled.load(ordering: .acquiring) else { return }
            serve(standby.worker, resuming: true)
        }
        let logFailure = handover.withLock { handover -> Bool in
            guard started else {
                defer { handover.standbyFailureLogged = true }
                return !handover.standbyFailureLogged
            }
            if handover.stopped {
                standby.cancel()
            } else {
                handover.standby = standby
            }
            return false
        }
        if logFailure {
            shared.core.log("\(owner): cannot start a standby thread; long requests hold up this loop's connections")
        }
    }

    // MARK: Threads

    /// What every thread of the loop does first: note its kernel id, and let the server's hook see it.
    private func begin(_ worker: LaneWorker) {
        worker.threadID = cmhd_thread_id()
        shared.threadStarted?(worker)
    }

    /// Serves the loop until it stops or is taken from this thread.
    private func serve(_ worker: LaneWorker, resuming: Bool) {
        if resuming {
            context.takeOver(as: worker)
        } else {
            context.worker = worker
        }
        prepareStandby()
        guard context.run() else { return }
        inbox.withLock { inbox in
            inbox.closed = true
            inbox.commands = []
            inbox.head = 0
            eventLoop.close()
        }
        let standby = handover.withLock { handover in
            handover.stopped = true
            handover.owner = nil
            defer { handover.standby = nil }
            return handover.standby
        }
        standby?.cancel()
        exited.signal()
    }

    // MARK: Handovers

    /// Gives the loop to the standby if request `sequence` still runs inline (with the handover lock held).
    private func handOver(_ handover: inout Handover, _ sequence: UInt64) -> Bool {
        guard let standby = handover.standby,
            running.compareExchange(expected: sequence, desired: 0, ordering: .acquiringAndReleasing).exchanged
        else { return false }
        handover.standby = nil
        handover.owner = standby.worker
        standby.go.signal()
        return true
    }

    /// ``LaneWorker/enterSlowLane()`` for a thread of this loop: the loop goes to another thread (unless it already
    /// has), and the request asks the slow lane for a place.
    func enterSlowLane(_ worker: LaneWorker) -> Bool {
        handover.withLock { handover in
            if worker.finished { return true }
            if let answer = worker.slowLaneAnswer { return answer }
            if worker.handedOver {
                if worker.runsBesideTheLoop {
                    worker.runsBesideTheLoop = false
                    shared.besideTheLoop.subtract(1, ordering: .relaxed)
                }
            } else {
                let sequence = worker.sequence.load(ordering: .relaxed)
                // Between requests: nothing to move (a late call for a request that has ended).
                guard sequence != 0 else { return true }
                guard handOver(&handover, sequence) else {
                    // Ended meanwhile, or no standby thread: a request that cannot leave the loop is refused, so
                    // that it stops rather than hold up the loop's connections.
                    if running.load(ordering: .acquiring) != sequence { return true }
                    worker.slowLaneAnswer = false
                    return false
                }
                worker.handedOver = true
            }
            let admitted = shared.lanes?.admitSlowRequest(threadID: worker.threadID) ?? false
            worker.slowLaneAnswer = admitted
            return admitted
        }
    }

    /// Hands the loop over when its inline request has run `budget` nanoseconds or more (the server's watchdog asks),
    /// as long as fewer than the fast lane's threads run beside their loops already.
    func handOverIfStalled(now: Int64, budget: Int64) {
        let sequence = running.load(ordering: .acquiring)
        guard sequence != 0, now - startedAt.load(ordering: .relaxed) >= budget,
            shared.besideTheLoop.load(ordering: .relaxed) < shared.fastWorkers
        else { return }
        handover.withLock { handover in
            guard let owner = handover.owner, !owner.handedOver, owner.sequence.load(ordering: .relaxed) == sequence,
                handOver(&handover, sequence)
            else { return }
            owner.handedOver = true
            owner.runsBesideTheLoop = true
            shared.besideTheLoop.add(1, ordering: .relaxed)
        }
    }

    /// The request of a thread that lost the loop has ended (its answer is posted): its places are given back.
    func finishBesideTheLoop(_ worker: LaneWorker) {
        let holdsSlowPlace = handover.withLock { _ -> Bool in
            worker.finished = true
            if worker.runsBesideTheLoop {
                worker.runsBesideTheLoop = false
                shared.besideTheLoop.subtract(1, ordering: .relaxed)
            }
            return worker.slowLaneAnswer == true
        }
        if holdsSlowPlace { shared.lanes?.releaseSlowRequest() }
    }

    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
