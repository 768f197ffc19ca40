import DataConnectEngine
import DataConnectWire
import Dispatch
import Foundation
import PostgreSQLKit
import Synchronization

/// Changes shared between the emulator processes serving from one PostgreSQL database, over `LISTEN`/`NOTIFY`.
///
/// A process publishes each change it commits on the channel of the schema it serves from (``channel``:
/// `dataconnect_changes.<schema>`, so that services in other schemas of the same database are not woken) as a
/// JSON payload naming its origin
/// (a random token per store), the tables written and, for a mutation, the operation, its variables and the
/// caller, so that `@refresh(onMutationExecuted:)` conditions hold in other processes as they do in the one that
/// ran the mutation. A payload larger than PostgreSQL's limit (8,000 bytes) goes without variables and caller:
/// subscriptions reading the tables still re-run.
///
/// One connection of its own listens on a thread; it reconnects when the server restarts (changes committed
/// while it was away are not replayed: subscribers then see the next change). Another sends this process's
/// changes, in order, from a queue of its own, so that a mutation's answer does not wait for the notification
/// (nor take a pooled connection for it).
final class PostgreSQLChangeFeed: Sendable {
    /// The channels' prefix.
    static let channelPrefix = "dataconnect_changes"
    /// The notification channel of the schema served from.
    let channel: String
    /// The largest payload sent whole; PostgreSQL refuses payloads of 8,000 bytes and more.
    static let maximumPayload = 7_900

    let connectionString: String
    /// This store's token, so that a process skips its own notifications.
    let origin: String
    private let stopped = Atomic<Bool>(false)
    /// Sends notifications in the order changes were committed.
    private let outbox = DispatchQueue(label: "dataconnect-changes-outbox")
    /// The sending connection and its prepared `pg_notify`, touched only on ``outbox``.
    private let sender = Mutex<Sender?>(nil)

    /// A connection that sends notifications.
    private final class Sender: @unchecked Sendable {
        let connection: PGConnection
        let notify: PGStatement

        init(_ connectionString: String) throws(PGError) {
            connection = try PGConnection(connectionString)
            notify = try connection.prepare("SELECT pg_notify($1, $2)")
        }
    }

    /// Creates the feed of the schema `schema` of the database `connectionString` names.
    init(connectionString: String, schema: String) {
        self.connectionString = connectionString
        // A channel name is an identifier: at most 63 bytes.
        channel = String((Self.channelPrefix + "." + schema).utf8.prefix(63)) ?? Self.channelPrefix
        var random = SystemRandomNumberGenerator()
        origin = String(random.next() as UInt64, radix: 16)
    }

    /// The payload of a change (a ``ChangeNotification``): a mutation's operation, variables and caller go too
    /// when the payload stays under PostgreSQL's limit.
    func payload(_ change: DataChange) -> String {
        switch change {
        case .tables(let tables):
            return ChangeNotification(origin: origin, tables: tables.sorted()).toJSON().jsonString()
        case .mutation(let effect):
            var notice = ChangeNotification(origin: origin, tables: effect.tables.sorted())
            let whole = ChangeNotification(
                origin: origin, tables: notice.tables,
                mutation: ChangeNotification.Mutation(
                    connector: effect.connector, operationName: effect.operationName, variables: effect.variables,
                    caller: effect.auth.map { ChangeNotification.Caller(uid: $0.uid, claims: $0.claims) }))
            let text = whole.toJSON().jsonString()
            if text.utf8.count <= Self.maximumPayload { return text }
            notice.mutation = nil
            return notice.toJSON().jsonString()
        }
    }

    /// Sends a change to the other processes, after the changes sent before it; a change that cannot be sent
    /// (the server is away) is dropped, and the connection is opened again for the next one.
    func send(_ change: DataChange) {
        let payload = payload(change)
        outbox.async { [self] in
            sender.withLock { sender in
                do {
                    if sender == nil || sender?.connection.isConnected == false {
                        sender = try Sender(connectionString)
                    }
                    try sender?.notify.execute([.text(channel), .text(payload)])
                } catch {
                    sender = nil
                }
            }
        }
    }

    /// The change a payload describes, or `nil` for this store's own payloads and unreadable ones.
    func change(from payload: String) -> DataChange? {
        guard let json = try? JSONValue(parsing: Array(payload.utf8)),
            let notice = try? ChangeNotification(json: json), notice.origin != origin
        else { return nil }
        guard let mutation = notice.mutation else { return .tables(Set(notice.tables)) }
        return .mutation(
            MutationEffect(
                connector: mutation.connector, operationName: mutation.operationName, variables: mutation.variables,
                auth: mutation.caller.map { AuthContext(uid: $0.uid, claims: $0.claims) }, tables: Set(notice.tables)))
    }

    /// Starts the listening thread, and returns once it listens (or its first attempt failed), so that a
    /// change another process commits after the store has started is not missed.
    ///
    /// The wait is bounded by `startupWait`: a server that stops answering mid-connection does not hold start-up.
    func start(startupWait: Duration = .seconds(30), _ handler: @escaping @Sendable (DataChange) -> Void) {
        let firstAttempt = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in listen(handler, firstAttempt: firstAttempt) }
        thread.name = "dataconnect-changes"
        thread.start()
        let (seconds, attoseconds) = startupWait.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        _ = firstAttempt.wait(timeout: .now() + .nanoseconds(nanoseconds))
    }

    /// Stops the listening thread (it notices within its poll interval).
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func listen(_ handler: @escaping @Sendable (DataChange) -> Void, firstAttempt: DispatchSemaphore) {
        var connection: PGConnection?
        var announced = false
        defer { if !announced { firstAttempt.signal() } }
        while !stopped.load(ordering: .relaxed) {
            do {
                if connection == nil || connection?.isConnected == false {
                    connection = nil
                    let opened = try PGConnection(connectionString)
                    try opened.listen(channel)
                    connection = opened
                }
                if !announced {
                    announced = true
                    firstAttempt.signal()
                }
                guard let connection else { continue }
                for notification in try connection.waitForNotifications(timeout: .milliseconds(250)) {
                    if let change = change(from: notification.payload) { handler(change) }
                }
            } catch {
                // The server is away: try again after the poll interval.
                if !announced {
                    announced = true
                    firstAttempt.signal()
                }
                connection = nil
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
    }
}
