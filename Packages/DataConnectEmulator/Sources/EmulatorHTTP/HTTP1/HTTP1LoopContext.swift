import CNGHTTP2
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The state of one ``HTTP1Loop`` that only the thread owning the loop touches: its connections, its buffers, and the
/// loop itself (wait, dispatch the events, run the commands other threads posted, time idle connections out).
///
/// Ownership passes from thread to thread (see ``LoopHandover``): the thread that loses the loop is inside the
/// responder then, and once the responder returns it only posts the answer and leaves; the thread that takes the
/// loop over starts after it lost it (a semaphore orders the two), so no two threads ever use this state at once.
final class HTTP1LoopContext: LoopThreadContext {
    unowned let loop: HTTP1Loop
    let eventLoop: EventLoop
    let core: ServerCore
    let limits: HTTP1HeadLimits
    private(set) var connections: [UInt64: HTTP1Connection] = [:]
    private var nextToken: UInt64 = 1
    private var nextSequence: UInt64 = 1
    /// The connection whose request the owning thread is running now: the thread that takes the loop over finds it
    /// here.
    private var inlineConnection: HTTP1Connection?
    /// The owning thread's worker.
    var worker: LaneWorker?
    private(set) var isDraining = false
    /// Where sockets are read into.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    /// Where an answer's head is composed.
    private(set) var headBuffer: [UInt8] = []
    private var date = HTTPDate()
    private var lastSweep = ContinuousClock.now
    /// What the responder keeps beside this loop to answer requests later, if anything.
    private let companion: (any LoopCompanion)?
    /// The companion's socket in the epoll set.
    private var companionWatch: LoopSocket?
    /// Answers the companion gave and the loop has not sent yet, by connection token.
    private var deliveries: [(token: UInt64, response: HTTPResponse)] = []
    /// Whether work went to the companion since its last flush.
    private var companionHasWork = false
    /// The token of the companion's socket.
    private static let companionToken = UInt64.max

    init(loop: HTTP1Loop, eventLoop: EventLoop, shared: HTTP1Shared) {
        self.loop = loop
        self.eventLoop = eventLoop
        self.core = shared.core
        self.limits = shared.limits
        self.companion = shared.core.responder.makeLoopCompanion()
        headBuffer.reserveCapacity(1_024)
    }

    deinit {
        readBuffer.deallocate()
    }

    // MARK: The loop

    /// Serves until the loop stops (`true`) or is taken from this thread while it runs a request (`false`).
    func run() -> Bool {
        var events = EventLoop.Events()
        let workers = loop.shared.workers
        workers.awakeLoops.add(1, ordering: .relaxed)
        defer { workers.awakeLoops.subtract(1, ordering: .relaxed) }
        while true {
            if loop.isStopping {
                closeAll()
                return true
            }
            workers.wait(on: eventLoop, milliseconds: waitMilliseconds(), into: &events)
            for index in 0..<events.count {
                if events.tokens[index] == Self.companionToken {
                    companion?.socketReady()
                    continue
                }
                guard let connection = connections[events.tokens[index]] else { continue }
                let outcome: HTTP1Connection.Outcome =
                    events.isWritable(index) ? connection.writable() : connection.readable()
                if !handle(outcome, of: connection) { return false }
            }
            while let command = loop.nextCommand() {
                if !perform(command) { return false }
            }
            if companionHasWork || companionWatch != nil || !deliveries.isEmpty, !serveCompanion() { return false }
            let now = ContinuousClock.now
            if now - lastSweep >= .milliseconds(250) {
                lastSweep = now
                sweep(now: now)
            }
        }
    }

    /// Sends what the round's requests left to the companion, watches its socket while work is out, and sends the
    /// answers it gave; `false` once the loop is no longer this thread's.
    private func serveCompanion() -> Bool {
        guard let companion else { return true }
        while true {
            companionHasWork = false
            companion.flush()
            watchCompanion(companion.watchedSocket)
            guard !deliveries.isEmpty else { return true }
            // Sending an answer may run the connection's next request, which may leave more work and answers, or run
            // long and lose the loop: each answer leaves the list before it is sent, so that the rest stay for whoever
            // owns the loop then.
            while !deliveries.isEmpty {
                let (token, response) = deliveries.removeFirst()
                guard let connection = connections[token] else { continue }
                if !handle(connection.answerArrived(response), of: connection) { return false }
            }
        }
    }

    /// Puts the companion's socket in the epoll set as `wanted` says (out of it for `nil`).
    private func watchCompanion(_ wanted: LoopSocket?) {
        if let current = companionWatch, wanted?.socket != current.socket || wanted?.generation != current.generation {
            eventLoop.remove(current.socket)
            companionWatch = nil
        }
        guard let wanted, wanted != companionWatch else { return }
        if eventLoop.setInterest(
            wanted.socket, token: Self.companionToken, reading: true, writing: wanted.writable,
            add: companionWatch == nil)
        {
            companionWatch = wanted
        }
    }

    /// Carries out what a connection's event asked for; `false` once the loop is no longer this thread's.
    private func handle(_ outcome: HTTP1Connection.Outcome, of connection: HTTP1Connection) -> Bool {
        switch outcome {
        case .keep, .gone: return true
        case .close:
            close(connection)
            return true
        case .handedOver:
            return false
        }
    }

    private func perform(_ command: HTTP1Loop.Command) -> Bool {
        switch command {
        case .adopt(let socket, let address):
            return adopt(socket: socket, address: address)
        case .answer(let token, let response):
            guard let connection = connections[token] else { return true }
            return handle(connection.answerArrived(response), of: connection)
        case .drain:
            isDraining = true
            for connection in Array(connections.values) where connection.drain() == .close {
                close(connection)
            }
            return true
        }
    }

    private func waitMilliseconds() -> Int32 {
        connections.isEmpty || loop.shared.idleTimeout == nil ? 1_000 : 250
    }

    /// Closes connections idle past the timeout, and gets a thread ready to take the loop over if none is.
    private func sweep(now: ContinuousClock.Instant) {
        loop.handover.prepareStandby()
        guard let timeout = loop.shared.idleTimeout else { return }
        for connection in Array(connections.values)
        where connection.canTimeOut && now - connection.lastActivity >= timeout {
            close(connection)
        }
    }

    // MARK: Connections

    /// Takes a new connection in; its first bytes are usually there already, so it is read at once.
    private func adopt(socket: Int32, address: sockaddr_in) -> Bool {
        guard !isDraining, loop.shared.openConnection() else {
            Glibc.close(socket)
            return true
        }
        cnh2_set_nodelay(socket)
        let token = nextToken
        nextToken += 1
        let connection = HTTP1Connection(
            socket: socket, token: token, remoteAddress: Self.addressText(address), context: self)
        connections[token] = connection
        guard connection.setInterest(.read) else {
            close(connection)
            return true
        }
        return handle(connection.readable(), of: connection)
    }

    /// Forgets a connection whose socket someone else owns now (the WebSocket reactor, the lingering close).
    func detach(_ connection: HTTP1Connection) {
        guard connections.removeValue(forKey: connection.token) != nil else { return }
        connection.unregister()
        loop.shared.closeConnection()
    }

    private func close(_ connection: HTTP1Connection) {
        guard connections.removeValue(forKey: connection.token) != nil else { return }
        connection.unregister()
        Glibc.close(connection.socket)
        loop.shared.closeConnection()
    }

    /// Closes every connection (the loop is stopping), and ends the companion's work.
    private func closeAll() {
        for connection in Array(connections.values) { close(connection) }
        inlineConnection = nil
        companion?.stop()
        watchCompanion(nil)
        deliveries = []
    }

    private static func addressText(_ address: sockaddr_in) -> String? {
        var address = address
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard cnh2_address_text(&address, buffer.baseAddress, 64) == 0 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
    }

    // MARK: Requests

    /// How a request run on the loop's thread ended.
    enum InlineResult {
        case answered(HTTPResponse)
        /// The loop went to another thread while the request ran; the answer was posted to it.
        case handedOver
        /// The loop's companion answers later (the connection waits, its socket still watched).
        case deferred
    }

    /// Calls the responder on this thread. If the request runs long, the loop may be taken from this thread
    /// meanwhile (``LoopHandover/enterSlowLane(_:)``): the answer then goes to the loop's new owner as a command, and
    /// nothing here is touched again.
    func runInline(_ request: HTTPRequest, for connection: HTTP1Connection) -> InlineResult {
        let sequence = nextSequence
        nextSequence += 1
        inlineConnection = connection
        let worker = self.worker
        let token = connection.token
        let loop = self.loop
        worker?.sequence.store(sequence, ordering: .relaxed)
        loop.handover.requestStarted(sequence)
        let answer: HTTPAnswer =
            if let companion { core.responder.respond(to: request, companion: companion) } else {
                .now(core.responder.respond(to: request))
            }
        guard loop.handover.requestEnded(sequence) else {
            // Another thread owns the loop now (and its companion): only the loop's thread-safe parts may be used
            // from here on.
            switch answer {
            case .now(let response): loop.post(.answer(token, response))
            case .later(let work): loop.post(.answer(token, work.runHere()))
            }
            if let worker { loop.handover.finishBesideTheLoop(worker) }
            return .handedOver
        }
        worker?.sequence.store(0, ordering: .relaxed)
        inlineConnection = nil
        switch answer {
        case .now(let response):
            return .answered(response)
        case .later(let work):
            guard let companion,
                work.start(on: companion, answer: { [unowned self] in deliveries.append((token, $0)) })
            else { return .answered(work.runHere()) }
            companionHasWork = true
            return .deferred
        }
    }

    /// Takes the loop over from a thread held by a request: that request's connection waits for its answer.
    func takeOver(as worker: LaneWorker) {
        self.worker = worker
        if let connection = inlineConnection {
            inlineConnection = nil
            connection.awaitAnswerElsewhere()
        }
    }

    // MARK: Output

    /// Composes an answer's head into ``headBuffer``.
    func composeHead(
        status: Int, headers: HTTPHeaders, contentLength: Int?, connection: HTTP1ResponseHead.ConnectionField
    ) {
        headBuffer.removeAll(keepingCapacity: true)
        HTTP1ResponseHead.append(
            status: status, headers: headers, contentLength: contentLength, connection: connection,
            date: headers.contains(name: "Date") ? nil : date.current(), to: &headBuffer, log: { core.log($0) })
    }
}
