/// What a responder keeps beside one event loop of the native HTTP/1.1 side, to finish requests there without
/// blocking the loop's thread: typically a database connection's pipeline, whose socket the loop waits on together
/// with its clients' sockets (``HTTPResponder/makeLoopCompanion()``).
///
/// A request the responder answers later (``HTTPAnswer/later(_:)``) hands its work to the companion; the loop calls
/// ``flush()`` once per round of events (so that work queued by several requests goes out together), waits on
/// ``watchedSocket``, and calls ``socketReady()`` when it is ready. The companion answers each piece of work once,
/// through the closure the work was started with, on the loop's thread.
///
/// The loop's thread is the only one that uses its companion, one thread at a time: the companion passes from thread
/// to thread with the loop (``LoopHandover``), as the loop's connections do.
public protocol LoopCompanion: AnyObject {
    /// Sends what the requests of the round queued; called before the loop waits.
    func flush()
    /// The socket to wait on, and whether for writing as well as reading; `nil` when nothing is out.
    var watchedSocket: LoopSocket? { get }
    /// ``watchedSocket`` is ready: reads what arrived, answering the work it completes.
    func socketReady()
    /// Finishes every piece of work out now, blocking the calling thread: for a request about to run on the loop's
    /// thread itself that may need what the companion holds (a pooled connection).
    func settle()
    /// The loop stops: every piece of work not yet answered is answered now (with a failure).
    func stop()
}

/// A request's answer that the loop's companion produces later (``HTTPAnswer/later(_:)``).
public protocol LoopWork {
    /// Hands the work to `companion`; the companion calls `answer` once, on the loop's thread.
    ///
    /// - Returns: `false` when the companion cannot do this work (the loop then calls ``runHere()``).
    func start(on companion: any LoopCompanion, answer: @escaping (HTTPResponse) -> Void) -> Bool
    /// Does the work on the calling thread and returns the answer: for a loop that no longer owns the thread, or a
    /// companion that cannot do it.
    func runHere() -> HTTPResponse
}

/// A responder's answer on a loop with a companion (``HTTPResponder/respond(to:companion:)``).
public enum HTTPAnswer {
    /// The response, to send now.
    case now(HTTPResponse)
    /// Work for the loop's companion, which gives the response later.
    case later(any LoopWork)
}

/// A socket a ``LoopCompanion`` waits on.
public struct LoopSocket: Equatable, Sendable {
    /// The socket.
    public var socket: Int32
    /// Whether to wait for it to be writable as well as readable.
    public var writable: Bool
    /// Tells this socket from an earlier one of the same number (closed since): a new number for every socket the
    /// companion opens or borrows.
    public var generation: Int

    /// Creates a socket to wait on.
    public init(socket: Int32, writable: Bool, generation: Int) {
        self.socket = socket
        self.writable = writable
        self.generation = generation
    }
}
