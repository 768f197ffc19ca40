import Foundation
import MoviesTUICore
import Synchronization

/// What the terminal thread reports to the main loop.
enum TerminalEvent: Sendable, Equatable {
    /// A key.
    case key(Key)
    /// The terminal was resized to this size.
    case resized(ScreenSize)
    /// Ctrl-C arrived as a character.
    case interrupt
    /// 50 ms passed without input: time to look at signals and background results.
    case tick
}

/// Runs the ncurses ``Terminal`` on a thread of its own, so the main actor is never blocked.
///
/// Reading a key is a blocking `get_wch` (50 ms timeout). Were it on the main thread, work the SDK runs on the
/// main actor (generated `execute` is `@MainActor`) would wait for the app to quit. The thread reads keys into
/// ``events``, which the main loop awaits, and draws the frames the main loop hands to ``show(_:)``.
///
/// ncurses is not thread-safe, and `get_wch` itself refreshes the screen, so once started only this thread
/// calls ncurses: the main loop never draws, it posts the latest frame, drawn before the next read.
final class TerminalThread: Sendable {
    private let terminal: Terminal
    private let pendingFrame = Mutex<Frame?>(nil)
    private let stopRequested = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)
    /// Every key, resize and tick, in order; finishes after ``stop()``.
    let events: AsyncStream<TerminalEvent>
    private let continuation: AsyncStream<TerminalEvent>.Continuation

    /// Starts the thread over an open terminal.
    ///
    /// - Parameter terminal: The terminal, no longer used by the caller until ``stop()`` returns.
    init(terminal: Terminal) {
        self.terminal = terminal
        (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self, bufferingPolicy: .unbounded)
        let thread = Thread { [self] in run() }
        thread.name = "movies-tui terminal"
        thread.start()
    }

    /// Draws `frame` on the thread, before its next read; a frame not drawn yet is replaced.
    func show(_ frame: Frame) {
        pendingFrame.withLock { $0 = frame }
    }

    /// Stops the thread and waits until it has left ncurses, after drawing a frame still pending.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        stopped.wait()
    }

    private func run() {
        defer {
            continuation.finish()
            stopped.signal()
        }
        while true {
            if let frame = pendingFrame.withLock({ $0.take() }) { terminal.draw(frame) }
            if stopRequested.load(ordering: .acquiring) { return }
            switch terminal.read() {
            case .key(let key): continuation.yield(.key(key))
            case .resize: continuation.yield(.resized(terminal.size))
            case .interrupt: continuation.yield(.interrupt)
            case nil: continuation.yield(.tick)
            }
        }
    }
}
