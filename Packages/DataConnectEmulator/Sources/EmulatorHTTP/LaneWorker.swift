import Synchronization

/// One thread that runs requests, as the code running a request sees it: a worker of ``RequestLanes``, or a thread
/// of one of the server's own loops, which run their requests themselves (HTTP/1.1 requests, unary gRPC calls).
///
/// A request that runs past its short budget leaves the fast lane through ``enterSlowLane()``: a lane worker's
/// thread is replaced in the fast lane; a loop's thread hands its other connections to a new thread and goes on
/// with the slow request alone. Either way the request then runs in the slow lane, at a lower priority, within the
/// slow lane's capacity.
public final class LaneWorker: @unchecked Sendable {
    /// What the worker's thread serves.
    enum Owner {
        /// A fast-lane thread of these lanes.
        case lanes(RequestLanes)
        /// A thread of the loop with this handover (HTTP/1.1 or HTTP/2).
        case loop(LoopHandover)
    }

    let owner: Owner

    // MARK: State of a lane worker, guarded by the lanes' lock

    /// Whether the thread left the fast lane.
    var isSlow = false
    /// Whether its request holds a place in the slow lane.
    var holdsSlowSlot = false
    /// The thread's kernel id, for its scheduling priority (set by the thread itself before its first request).
    var threadID: Int32 = 0
    /// What the move to the slow lane calls, set by the job running
    /// (``RequestLanes/whileInFastLane(_:whenLeaving:_:)``); the move takes it, so it is called at most once.
    var leavingFastLane: (@Sendable () -> Void)?

    // MARK: State of a loop's thread

    /// The number of the request the thread runs now, 0 between requests (written by the thread, read by whoever
    /// hands its connections over).
    let sequence = Atomic<UInt64>(0)
    /// Whether the thread's connections went to another thread while its request ran (guarded by the loop's
    /// handover lock).
    var handedOver = false
    /// Whether it was handed over for having run long (not by ``enterSlowLane()``) and has not entered the slow lane
    /// since: it counts against the fast lane's threads (guarded by the loop's handover lock).
    var runsBesideTheLoop = false
    /// The slow lane's answer, once asked (guarded by the loop's handover lock).
    var slowLaneAnswer: Bool?
    /// Whether its request has ended (guarded by the loop's handover lock).
    var finished = false

    init(owner: Owner) {
        self.owner = owner
    }

    /// Moves the request this worker runs into the slow lane, once it has run past its short budget; callable from
    /// any thread (the emulator's engine calls it from its deadline watchdog) while the request runs. Either way
    /// the worker leaves the fast lane: a lane worker's place is taken by another thread (and the requests its job
    /// has not started yet, such as the rest of a batch of gRPC calls, go back to the fast lane), a loop thread's
    /// other connections go to another thread. Calling it again for the same request returns the first answer.
    ///
    /// - Returns: `false` when the slow lane is full: the caller should stop the request (it holds resources, a
    ///   database connection above all, that waiting would keep from everyone else).
    public func enterSlowLane() -> Bool {
        switch owner {
        case .lanes(let lanes): lanes.enterSlowLane(self)
        case .loop(let loop): loop.enterSlowLane(self)
        }
    }
}
