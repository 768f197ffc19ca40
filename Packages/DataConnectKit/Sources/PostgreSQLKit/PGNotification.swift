/// A notification delivered to a listening connection (`NOTIFY channel, 'payload'` or `pg_notify`).
///
/// See ``PGConnection/waitForNotifications(timeout:)``.
public struct PGNotification: Hashable, Sendable {
    /// The channel it was sent on.
    public var channel: String
    /// The payload; empty when none was given.
    public var payload: String
    /// The server process ID of the sending session.
    public var pid: Int

    /// Creates a notification.
    public init(channel: String, payload: String, pid: Int) {
        self.channel = channel
        self.payload = payload
        self.pid = pid
    }
}
