import CNGHTTP2
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The state of one ``HTTP2Loop`` that only the thread owning the loop touches: its connections, the calls'
/// deadlines, the unary calls ready to run, nghttp2's callbacks and options, the read buffer; and the loop itself
/// (wait, read, run the ready calls, write, time out).
///
/// Ownership passes from thread to thread (see ``LoopHandover``): the thread that loses the loop is inside a unary
/// method then, and once the method returns it only finishes the call through the stream's thread-safe outbox and
/// leaves; the thread that takes the loop over starts after it lost it, so no two threads ever use this state at once.
final class HTTP2LoopContext: LoopThreadContext {
    /// A unary call whose request is complete, waiting to run on the loop's thread.
    struct ReadyCall {
        let connection: HTTP2Connection
        let stream: HTTP2Stream
        /// Calls the method and finishes the call with its result (on any thread).
        let run: @Sendable () -> Void
    }

    unowned let loop: HTTP2Loop
    let eventLoop: EventLoop
    var shared: HTTP2Shared { loop.shared }
    private(set) var connections: [UInt64: HTTP2Connection] = [:]
    private var nextToken: UInt64 = 1
    /// The owning thread's worker.
    var worker: LaneWorker?
    /// Unary calls collected while reading, run once the reads of the round are done; those before `readyHead` have
    /// run (or are running).
    private var ready: [ReadyCall] = []
    private var readyHead = 0
    private var nextSequence: UInt64 = 1
    /// The call the owning thread is running now: the thread that takes the loop over finds it here.
    private var inlineCall: ReadyCall?
    private var lastSweep = ContinuousClock.now
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

    // MARK: The loop

    /// Serves until the loop stops (`true`) or is taken from this thread while it runs a call (`false`).
    func run() -> Bool {
        var events = EventLoop.Events()
        var commands: [HTTP2Loop.Command] = []
        let workers = shared.workers
        workers.awakeLoops.add(1, ordering: .relaxed)
        defer { workers.awakeLoops.subtract(1, ordering: .relaxed) }
        while !loop.isStopping {
            // After a round that ran long (answers not sent yet, calls left; or calls left by the thread that lost the
            // loop): only a look at the sockets.
            let pending = readyHead < ready.count || !touched.isEmpty
            workers.wait(on: eventLoop, milliseconds: pending ? 0 : waitMilliseconds(), into: &events)
            // Deadlines first: a call whose deadline passed while it ran ends DEADLINE_EXCEEDED even when its answer
            // is among the commands below (the answer is then dropped).
            expireDeadlines(now: ContinuousClock.now)
            for index in 0..<events.count {
                guard let connection = connections[events.tokens[index]] else { continue }
                if events.isReadable(index) {
                    connection.readable()
                } else if events.isWritable(index) {
                    connection.flush()
                }
            }
            loop.takeCommands(into: &commands)
            for command in commands { perform(command) }
            commands.removeAll(keepingCapacity: true)
            // The answers of a round that ran long go out now, after what arrived meanwhile has been read.
            flushTouched()
            // nghttp2 is out of every callback now: the calls the reads completed run, and their answers go out with
            // the round's other frames.
            switch runReadyCalls() {
            case .finished: flushTouched()
            case .ranLong: break
            case .lostTheLoop: return false
            }
            let now = ContinuousClock.now
            if now - lastSweep >= .milliseconds(250) || isDraining {
                lastSweep = now
                sweep(now: now)
            }
        }
        closeAll()
        return true
    }

    private func perform(_ command: HTTP2Loop.Command) {
        switch command {
        case .adopt(let socket, let address):
            adopt(socket: socket, remoteAddress: address)
        case .wake(let token, let stream):
            connections[token]?.service(streamID: stream)
        case .drain:
            beginDrain()
        }
    }

    // MARK: Unary calls

    /// Queues a unary call whose request is complete (from nghttp2's callbacks, which must not run it).
    func callReady(_ call: ReadyCall) {
        ready.append(call)
    }

    /// How a round of ready calls ended.
    private enum RoundOutcome {
        /// Every ready call has run.
        case finished
        /// The round's budget is spent: the answers wait for the next look at the sockets, and so do the calls left.
        case ranLong
        /// The loop was taken from this thread while it ran a call; the new owner runs the rest.
        case lostTheLoop
    }

    /// Runs the ready calls in order, until they are done or the round budget (``HTTP2Shared/roundBudget``) is spent.
    private func runReadyCalls() -> RoundOutcome {
        guard readyHead < ready.count else { return .finished }
        shareReadyCalls()
        let roundEnds = ContinuousClock.now + shared.roundBudget
        var outcome = RoundOutcome.finished
        while readyHead < ready.count {
            let call = ready[readyHead]
            readyHead += 1
            guard runInline(call) else { return .lostTheLoop }
            if ContinuousClock.now >= roundEnds {
                outcome = .ranLong
                break
            }
        }
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: ready.capacity <= 256)
            readyHead = 0
        }
        return outcome
    }

    /// Hands the last of the ready calls to the request lanes when fewer threads run requests than there are fast
    /// workers (one connection carrying many calls, the other loops idle): with `n` workers idle, the calls are cut
    /// into `n + 1` runs in order, the loop keeps the first and each lane thread takes one (a ``LaneBatch``). A call
    /// run on a lane answers through its stream's outbox, which wakes the loop; a lane that stops first ends its
    /// calls UNAVAILABLE; a call that moves to the slow lane sends the calls after it in its batch back to the fast
    /// lane.
    private func shareReadyCalls() {
        let waiting = ready.count - readyHead
        guard waiting >= 2, let lanes = shared.workers.lanes else { return }
        let idle = shared.workers.idleWorkers
        guard idle > 0 else { return }
        let parts = min(idle + 1, waiting)
        let size = waiting / parts
        var end = ready.count
        for _ in 1..<parts {
            let calls = ready[(end - size)..<end].map { LaneBatch.Call(outbox: $0.stream.outbox, run: $0.run) }
            // Refused when the lanes are stopping: the loop keeps the calls.
            guard LaneBatch(calls: calls[...], lanes: lanes, workers: shared.workers).submit() else { break }
            end -= size
        }
        ready.removeSubrange(end...)
    }

    /// Runs one call on this thread, and has its answer sent (with the round's writes) without waking the loop. If the
    /// call runs long, the loop may be taken from this thread meanwhile (``LoopHandover``): the answer then reaches
    /// the loop's new owner through the stream's outbox, and nothing here is touched again.
    private func runInline(_ call: ReadyCall) -> Bool {
        // Reset, failed or past its deadline before its turn came.
        guard call.stream.outbox.isOpen else { return true }
        let sequence = nextSequence
        nextSequence += 1
        call.stream.outbox.holdWakes()
        inlineCall = call
        let worker = self.worker
        let handover = loop.handover
        worker?.sequence.store(sequence, ordering: .relaxed)
        handover.requestStarted(sequence)
        call.run()
        guard handover.requestEnded(sequence) else {
            // Another thread owns the loop now: only the loop's thread-safe parts may be used from here on.
            if let worker { handover.finishBesideTheLoop(worker) }
            return false
        }
        worker?.sequence.store(0, ordering: .relaxed)
        inlineCall = nil
        call.connection.service(call.stream)
        return true
    }

    /// Takes the loop over from a thread held by a call: the stream of that call is looked at now (its answer may be
    /// in the outbox already), and through the outbox's wake-ups from now on.
    func takeOver(as worker: LaneWorker) {
        self.worker = worker
        if let call = inlineCall {
            inlineCall = nil
            call.connection.service(call.stream)
        }
    }

    // MARK: Connections

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
    private func closeAll() {
        ready = []
        readyHead = 0
        inlineCall = nil
        for connection in Array(connections.values) {
            connection.beginDrain()
            connection.sendFinalGoAway()
            connection.flush()
            connection.close()
        }
    }
}

/// A run of ready unary calls an HTTP/2 loop hands to the request lanes (``HTTP2LoopContext``), run in order on one
/// lane thread. It counts in ``LoopWorkers/sharedBatches`` from its making until it ends or its thread leaves the fast
/// lane.
///
/// **The calls after a slow one go back to the fast lane.** When a call of the batch moves to the slow lane
/// (``LaneWorker/enterSlowLane()``), the calls not started yet are taken out of the batch at that moment and handed
/// to the lanes as a new batch, which another fast thread runs; the slow thread finishes its own call and nothing
/// more. The batch's thread and the move (often from the engine's deadline watchdog) take calls from one queue under
/// one lock, so each call is taken once: run once (unless reset or past its deadline by then), or ended UNAVAILABLE
/// once when the lanes stop first.
final class LaneBatch: Sendable {
    /// A call of the batch: its stream's outbox, and what runs it and finishes it with its result.
    struct Call: Sendable {
        let outbox: StreamOutbox
        let run: @Sendable () -> Void
    }

    private struct State {
        /// The calls not taken yet, in order.
        var waiting: ArraySlice<Call>
        /// Whether the batch still counts in ``LoopWorkers/sharedBatches``.
        var counted = true
    }

    private let state: Mutex<State>
    private let lanes: RequestLanes
    private let workers: LoopWorkers

    /// A batch of `calls`, counted in `workers.sharedBatches` from now on; ``submit()`` hands it to `lanes`.
    init(calls: ArraySlice<Call>, lanes: RequestLanes, workers: LoopWorkers) {
        self.state = Mutex(State(waiting: calls))
        self.lanes = lanes
        self.workers = workers
        workers.sharedBatches.add(1, ordering: .relaxed)
    }

    /// Hands the batch to the lanes.
    ///
    /// - Returns: `false` when the lanes are stopping: the batch no longer counts, and its calls have neither run nor
    ///   ended (``abandon()`` ends them).
    func submit() -> Bool {
        let submitted = lanes.submit(
            runOn: { [self] worker in run(on: worker) },
            abandon: { [self] in abandon() })
        if !submitted { uncount() }
        return submitted
    }

    /// Runs the calls in order on a lane thread, until they are done or the thread leaves the fast lane.
    private func run(on worker: LaneWorker) {
        lanes.whileInFastLane(worker, whenLeaving: { [self] in handBack() }) {
            while let call = state.withLock({ $0.waiting.popFirst() }) {
                // Reset, failed or past its deadline before its turn came.
                guard call.outbox.isOpen else { continue }
                call.run()
            }
        }
        uncount()
    }

    /// The batch's thread left the fast lane: the calls it has not started go back to the lanes as a new batch (ended
    /// UNAVAILABLE when the lanes are stopping), and this batch no longer counts.
    private func handBack() {
        let rest = takeWaiting()
        if !rest.isEmpty {
            let batch = LaneBatch(calls: rest, lanes: lanes, workers: workers)
            if !batch.submit() { batch.abandon() }
        }
        uncount()
    }

    /// Ends the calls not started UNAVAILABLE: the lanes are stopping.
    private func abandon() {
        for call in takeWaiting() { call.outbox.finishStopping() }
        uncount()
    }

    private func takeWaiting() -> ArraySlice<Call> {
        state.withLock { state in
            let waiting = state.waiting
            state.waiting = []
            return waiting
        }
    }

    /// Stops counting the batch in ``LoopWorkers/sharedBatches`` (once).
    private func uncount() {
        let counted = state.withLock { state in
            let counted = state.counted
            state.counted = false
            return counted
        }
        if counted { workers.sharedBatches.subtract(1, ordering: .relaxed) }
    }
}
