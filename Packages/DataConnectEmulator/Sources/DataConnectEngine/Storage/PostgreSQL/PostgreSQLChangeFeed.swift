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

    /// The payload of a change.
    func payload(_ change: DataChange) -> String {
        var object: JSONObject = ["origin": .string(origin)]
        switch change {
        case .tables(let tables):
            object["tables"] = .array(tables.sorted().map(JSONValue.string))
        case .mutation(let effect):
            object["tables"] = .array(effect.tables.sorted().map(JSONValue.string))
            var full = object
            full["connector"] = effect.connector.map(JSONValue.string) ?? .null
            full["operationName"] = .string(effect.operationName)
            full["variables"] = .object(effect.variables)
            if let auth = effect.auth {
                full["auth"] = ["uid": auth.uid.map(JSONValue.string) ?? .null, "claims": .object(auth.claims)]
            }
            let text = JSONValue.object(full).jsonString()
            if text.utf8.count <= Self.maximumPayload { return text }
        }
        return JSONValue.object(object).jsonString()
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
        guard case .object(let object)? = try? JSONValue(parsing: Array(payload.utf8)),
            object["origin"]?.stringValue != origin,
            let tables = object["tables"]?.arrayValue?.compactMap(\.stringValue)
        else { return nil }
        guard let operationName = object["operationName"]?.stringValue else { return .tables(Set(tables)) }
        var auth: AuthContext?
        if case .object(let claims)? = object["auth"]?["claims"] {
            auth = AuthContext(uid: object["auth"]?["uid"]?.stringValue, claims: claims)
        }
        return .mutation(
            MutationEffect(
                connector: object["connector"]?.stringValue, operationName: operationName,
                variables: object["variables"]?.objectValue ?? [:], auth: auth, tables: Set(tables)))
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
