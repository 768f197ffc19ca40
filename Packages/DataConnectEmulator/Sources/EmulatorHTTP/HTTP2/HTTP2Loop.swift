import CNGHTTP2
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One event loop of the HTTP/2 side: an `epoll` set of connections, each an nghttp2 server session, served by one
/// thread at a time, and an inbox through which other threads hand it sockets, wake streams that have something to
/// send, and ask it to drain.
///
/// Everything nghttp2 does for a connection happens on the thread that owns the loop. **Unary calls run on that
/// thread too**, with no hop to another thread and back: the calls whose request ended while a read was fed to
/// nghttp2 are collected, and run once `nghttp2_session_mem_recv` has returned (never inside its callbacks), for up
/// to ``HTTPServer/Configuration-swift.struct/http2RoundBudget`` per round before the loop reads again; each answer goes into its stream's
/// ``StreamOutbox`` and out with the round's writes. **A long call gives the loop
/// away** (``LoopHandover``): when it moves to the slow lane or runs past
/// ``HTTPServer/Configuration-swift.struct/handOverConnectionsAfter``, a standby thread takes the loop, goes on
/// serving its other connections (their RST_STREAM frames, deadlines and new calls), and runs the calls collected
/// behind the long one; the old thread finishes its call, whose answer reaches the loop through the outbox, and ends.
/// **Idle cores share a round's calls**: when a round starts with several ready calls and fewer threads run requests
/// than the fast lane has workers (``LoopWorkers/idleWorkers``), the last of them go to the request lanes in batches,
/// and their answers come back through the outbox.
///
/// Streaming methods and other threads only reach a stream through its ``StreamOutbox``, whose changes post the
/// stream here.
final class HTTP2Loop: @unchecked Sendable {
    /// What other threads ask of the loop.
    enum Command: Sendable {
        /// A new connection (the client preface is waiting in the socket).
        case adopt(Int32, String?)
        /// A stream's outbox changed.
        case wake(connection: UInt64, stream: Int32)
        /// Begin a graceful stop.
        case drain
    }

    let shared: HTTP2Shared
    /// Who serves the loop, and who takes it over.
    let handover: LoopHandover
    private let eventLoop: EventLoop
    /// The owner's state; set once, right after the loop is made.
    private var context: HTTP2LoopContext!
    private let inbox = Mutex<Inbox>(Inbox())
    private let stopping = Atomic<Bool>(false)

    private struct Inbox {
        var commands: [Command] = []
        var closed = false
    }

    /// Creates the `epoll` set and starts the loop's thread; nil (having logged why) when the system refuses.
    init?(shared: HTTP2Shared, number: Int) {
        self.shared = shared
        let owner = "HTTP/2 loop \(number)"
        guard let eventLoop = EventLoop(owner: owner, log: { shared.core.log($0) }) else { return nil }
        self.eventLoop = eventLoop
        self.handover = LoopHandover(name: owner, workers: shared.workers)
        self.context = HTTP2LoopContext(loop: self, eventLoop: eventLoop)
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
    func adopt(socket: Int32, remoteAddress: String?) {
        if !post(.adopt(socket, remoteAddress)) { close(socket) }
    }

    /// Queues a command and wakes the owner; `false` when the loop has stopped.
    @discardableResult
    func post(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.commands.append(command)
            if inbox.commands.count == 1 { eventLoop.wake() }
            return true
        }
    }

    /// Cancels every call, closes every connection and stops the loop; returns once its owner is done. A call still
    /// running inline keeps its thread, which is no longer the loop's.
    func stop() {
        stopping.store(true, ordering: .releasing)
        inbox.withLock { inbox in
            if !inbox.closed { eventLoop.wake() }
        }
        handover.waitUntilStopped()
    }

    // MARK: The owner's side

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Moves the commands posted into `commands` (empty on entry).
    func takeCommands(into commands: inout [Command]) {
        inbox.withLock { swap(&commands, &$0.commands) }
    }

    /// Closes the inbox and the `epoll` set, once the loop has stopped: later posts are refused.
    private func closeInbox() {
        inbox.withLock { inbox in
            inbox.closed = true
            inbox.commands = []
            eventLoop.close()
        }
    }
}
