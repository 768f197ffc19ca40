import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PGConnection {
    /// Starts listening on `channel` (`LISTEN "channel"`); notifications sent after this returns arrive.
    ///
    /// Listening ends with ``unlisten(_:)`` or the session (a ``reset()`` forgets it).
    ///
    /// - Throws: ``PGError``.
    public func listen(_ channel: String) throws(PGError) {
        try execute("LISTEN " + PGConnection.quoteIdentifier(channel))
    }

    /// Stops listening on `channel` (`UNLISTEN "channel"`).
    ///
    /// - Throws: ``PGError``.
    public func unlisten(_ channel: String) throws(PGError) {
        try execute("UNLISTEN " + PGConnection.quoteIdentifier(channel))
    }

    /// Sends a notification to every session listening on `channel` (`SELECT pg_notify($1, $2)`).
    ///
    /// Inside a transaction the notification is delivered when the transaction commits, and not at all if it
    /// rolls back.
    ///
    /// - Throws: ``PGError``, e.g. for a payload of 8000 bytes or more.
    public func notify(_ channel: String, payload: String = "") throws(PGError) {
        try query("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// Waits until notifications arrive or `timeout` passes, and returns those received.
    ///
    /// Notifications already received (during an earlier call, for example) return at once. Otherwise the call
    /// blocks in `poll(2)` on the connection's socket and returns as soon as data arrives with at least one
    /// notification. The connection must be idle: not in a transaction waiting on its own results.
    ///
    /// ```swift
    /// try listener.listen("movies_changed")
    /// while running {
    ///     for notification in try listener.waitForNotifications(timeout: .seconds(1)) {
    ///         print(notification.channel, notification.payload)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter timeout: How long to wait at most; `nil` waits without limit, `.zero` only collects what
    ///   has already arrived.
    /// - Returns: The notifications in the order they arrived; empty when `timeout` passed without any.
    /// - Throws: ``PGError`` of kind ``PGError/Kind/connection`` when the connection is broken (the server shut
    ///   down, the session was terminated).
    public func waitForNotifications(timeout: Duration?) throws(PGError) -> [PGNotification] {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: $0) }
        try consumeInput()
        while true {
            let received = drainNotifications()
            if !received.isEmpty { return received }
            var milliseconds: Int32 = -1
            if let deadline {
                let remaining = clock.now.duration(to: deadline)
                guard remaining > .zero else { return [] }
                milliseconds = PGConnection.roundedUpMilliseconds(remaining)
            }
            let socket = PQsocket(handle)
            guard socket >= 0 else {
                throw PGError.connectionFailure(handle, doing: "connection to \(PGError.endpoint(handle)) lost")
            }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 {
                guard errno == EINTR else {
                    throw PGError(kind: .connection, message: "cannot wait for notifications: poll failed (\(errno))")
                }
                continue
            }
            if ready > 0 {
                try consumeInput()
            }
        }
    }

    /// Takes the notifications libpq has parsed (`PQnotifies`), freeing each.
    private func drainNotifications() -> [PGNotification] {
        var received: [PGNotification] = []
        while let notify = PQnotifies(handle) {
            let fields = notify.pointee
            received.append(
                PGNotification(
                    channel: fields.relname.map { String(cString: $0) } ?? "",
                    payload: fields.extra.map { String(cString: $0) } ?? "",
                    pid: Int(fields.be_pid)))
            PQfreemem(notify)
        }
        return received
    }

    /// `duration` in whole milliseconds, rounded up so that a wait never ends before its deadline, capped to
    /// what `poll(2)` takes.
    private static func roundedUpMilliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int32.max }
        let total = milliseconds.partialValue + (attoseconds + perMillisecond - 1) / perMillisecond
        return Int32(clamping: total)
    }
}
