import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM handling for long-running servers.
///
/// The signals are read by dispatch signal sources, which on Linux use a signalfd; a signalfd sees only
/// signals that no thread takes directly. So both stay blocked in every thread: call ``block()`` before the
/// server starts its worker threads (threads inherit the mask), then ``wait()`` rather than `dispatchMain()`,
/// which unblocks every signal on the main thread. With unblocked worker threads, a SIGINT was seen to be
/// lost under load.
///
/// ```swift
/// StopSignals.block()
/// try server.start()
/// StopSignals.wait()
/// server.stop()
/// ```
public enum StopSignals {
    /// Blocks SIGINT and SIGTERM in the calling thread and in every thread it starts from now on.
    public static func block() {
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
    }

    /// Waits until SIGINT or SIGTERM arrives (including one that arrived, blocked, before the call).
    ///
    /// - Returns: the signal's number.
    @discardableResult
    public static func wait() -> Int32 {
        let stopRequested = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "StopSignals")
        let received = SignalBox()
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                received.number = number
                stopRequested.signal()
            }
            source.resume()
            return source
        }
        // The sources are not cancelled: they stay registered during the shutdown, so a second signal is absorbed.
        withExtendedLifetime(sources) {
            stopRequested.wait()
        }
        return queue.sync { received.number }
    }
}

/// The received signal, written and read on the signal queue only.
private final class SignalBox: @unchecked Sendable {
    var number: Int32 = 0
}
