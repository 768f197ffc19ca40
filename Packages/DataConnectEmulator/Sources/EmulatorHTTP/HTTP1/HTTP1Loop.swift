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
/// **A long request gives the loop away** (``LoopHandover``): when it moves to the slow lane or runs past
/// ``HTTPServer/Configuration-swift.struct/handOverConnectionsAfter``, a standby thread takes the loop and goes on
/// serving its other connections at once; the old thread finishes the request, posts the answer to the loop's inbox
/// (``Command/answer(_:_:)``), and ends.
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
    /// Who serves the loop, and who takes it over.
    let handover: LoopHandover
    private let eventLoop: EventLoop
    /// The owner's state; set once, right after the loop is made.
    private var context: HTTP1LoopContext!
    private let inbox = Mutex<Inbox>(Inbox())
    private let stopping = Atomic<Bool>(false)
    private let owner: String

    private struct Inbox {
        var commands: [Command] = []
        var head = 0
        var closed = false
    }

    /// Creates the `epoll` set and starts the loop's thread; `nil` (having logged why) when the system refuses.
    init?(shared: HTTP1Shared, number: Int) {
        self.shared = shared
        self.owner = "HTTP/1.1 loop \(number)"
        guard let eventLoop = EventLoop(owner: owner, log: { shared.core.log($0) }) else { return nil }
        self.eventLoop = eventLoop
        self.handover = LoopHandover(name: owner, workers: shared.workers)
        self.context = HTTP1LoopContext(loop: self, eventLoop: eventLoop, shared: shared)
        guard
            handover.start(
                serve: { [self] worker, resuming in context.serve(worker, resuming: resuming) },
                close: { [self] in closeInbox() })
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
        handover.waitUntilStopped()
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

    /// Closes the inbox and the `epoll` set, once the loop has stopped: later posts are refused.
    private func closeInbox() {
        inbox.withLock { inbox in
            inbox.closed = true
            inbox.commands = []
            inbox.head = 0
            eventLoop.close()
        }
    }
}
