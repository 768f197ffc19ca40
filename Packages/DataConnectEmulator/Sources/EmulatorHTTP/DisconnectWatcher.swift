import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Notices at once when a client closes the connection of a streamed response.
///
/// libmicrohttpd stops watching a suspended (parked) connection, so on its own it would learn of a closed
/// stream only on the next write. This watcher keeps every streamed connection's socket in one `epoll`
/// set, interested only in the peer hanging up (`EPOLLRDHUP`, one-shot), on one thread for all streams;
/// on a hang-up it ends the stream (``HTTPBodyStream/cancel()``), which wakes the connection so
/// libmicrohttpd closes it and the stream's termination handlers run.
final class DisconnectWatcher: Sendable {
    private let epoll: Int32
    private let running = Atomic<Bool>(true)
    private let watched = Mutex(Watched())
    private let log: @Sendable (String) -> Void

    private struct Watched {
        var next: UInt64 = 1
        var streams: [UInt64: HTTPBodyStream] = [:]
    }

    /// Creates the `epoll` set and starts the watching thread.
    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
        epoll = cmhd_hangup_set_create()
        guard epoll >= 0 else {
            log("disconnect watcher: epoll_create1 failed (errno \(errno)); closed streams are noticed on write")
            running.store(false, ordering: .releasing)
            return
        }
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                let watcher = Unmanaged<DisconnectWatcher>.fromOpaque(context).takeRetainedValue()
                watcher.run()
                return nil
            }, context)
        if created != 0 {
            Unmanaged<DisconnectWatcher>.fromOpaque(context).release()
            close(epoll)
            running.store(false, ordering: .releasing)
            log("disconnect watcher: cannot start a thread; closed streams are noticed on write")
        } else {
            pthread_detach(thread)
        }
    }

    /// Watches the socket of a stream's connection until the stream ends.
    func watch(_ stream: HTTPBodyStream, descriptor: Int32) {
        guard descriptor >= 0, running.load(ordering: .acquiring) else { return }
        let token = watched.withLock { watched -> UInt64 in
            let token = watched.next
            watched.next += 1
            watched.streams[token] = stream
            return token
        }
        if cmhd_hangup_set_add(epoll, descriptor, token) != 0 {
            _ = watched.withLock { $0.streams.removeValue(forKey: token) }
            return
        }
        stream.onTermination { [weak self] in
            // The socket leaves the epoll set by itself when libmicrohttpd closes it.
            _ = self?.watched.withLock { $0.streams.removeValue(forKey: token) }
        }
    }

    /// Stops the thread (within a quarter second) and forgets every stream.
    func stop() {
        running.store(false, ordering: .releasing)
        watched.withLock { $0.streams.removeAll() }
    }

    private func run() {
        var tokens = [UInt64](repeating: 0, count: 64)
        while running.load(ordering: .acquiring) {
            let count = tokens.withUnsafeMutableBufferPointer { buffer in
                cmhd_hangup_set_wait(epoll, buffer.baseAddress, Int32(buffer.count), 250)
            }
            guard count > 0 else { continue }
            let ended = watched.withLock { watched in
                tokens[0..<Int(count)].compactMap { watched.streams.removeValue(forKey: $0) }
            }
            for stream in ended {
                stream.cancel()
            }
        }
        close(epoll)
    }
}
