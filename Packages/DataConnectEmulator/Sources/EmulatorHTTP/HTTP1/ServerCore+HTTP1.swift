#if canImport(Glibc)
import Glibc
#endif

/// What the server's own HTTP/1.1 side asks of the shared core.
extension ServerCore {
    /// Counts a request whose head is in, until ``requestEnded()``.
    func requestBegan() {
        requestsInProgress.add(1, ordering: .relaxed)
    }

    /// Counts a request out: answered and written, or its connection closed.
    func requestEnded() {
        requestsInProgress.subtract(1, ordering: .relaxed)
    }

    /// The run's lanes, while the server runs.
    var currentLanes: RequestLanes? {
        lanes.withLock { $0 }
    }

    /// The answer to send instead of a `101` when no WebSocket can be opened now (the server is stopping, or the
    /// WebSocket limit is reached); `nil` when one can.
    func webSocketRefusal() -> HTTPResponse? {
        guard let reactor = webSocketReactor.withLock({ $0 }) else {
            return Self.errorResponse(.serviceUnavailable, "server is stopping", "UNAVAILABLE")
        }
        if limits.webSockets > 0 && reactor.count >= limits.webSockets {
            let message = "too many open WebSockets: the limit is \(limits.webSockets) (connectionLimit)"
            return Self.errorResponse(.serviceUnavailable, message, "UNAVAILABLE")
        }
        return nil
    }

    /// Hands an upgraded socket (its `101` written) and the bytes read after the request to the WebSocket reactor,
    /// which owns the socket from now on; closes it when the server is stopping.
    func adoptWebSocket(socket: Int32, extra: [UInt8], handler: any WebSocketHandler) {
        guard let reactor = webSocketReactor.withLock({ $0 }) else {
            close(socket)
            return
        }
        reactor.adopt(descriptor: socket, extra: extra, handler: handler, maximumMessageSize: limits.webSocketMessage)
    }

    /// Drains a refused connection's socket (its answer written, its sending side shut down) until the client stops
    /// sending, then closes it (``LingeringClose``).
    func linger(socket: Int32) {
        let closer = lingeringClose.withLock { closer in
            if closer == nil { closer = LingeringClose(log: log) }
            return closer
        }
        if let closer {
            closer.adopt(ownedSocket: socket)
        } else {
            close(socket)
        }
    }
}
