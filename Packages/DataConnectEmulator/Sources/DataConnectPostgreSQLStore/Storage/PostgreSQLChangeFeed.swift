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
/// (nor take a pooled connection for it). Changes go in batches: one round trip and one transaction for all the
/// changes queued while the last batch was sent, or during ``coalescingInterval`` after it when changes come
/// faster than that (a single change, or the first after a pause, goes at once). A batch is cut where the same
/// payload comes twice, which PostgreSQL would deliver once in one transaction.
final class PostgreSQLChangeFeed: Sendable {
    /// The channels' prefix.
    static let channelPrefix = "dataconnect_changes"
    /// The notification channel of the schema served from.
    let channel: String
    /// The largest payload sent whole; PostgreSQL refuses payloads of 8,000 bytes and more.
    static let maximumPayload = 7_900
    /// The shortest time from one batch of notifications to the next: each batch is a transaction on the server
    /// and a wake-up of every listening process, so changes arriving faster than this wait for it and go together
    /// (at 3,000 changes a second, about 6 a batch).
    static let coalescingInterval: Duration = .milliseconds(2)

    let connectionString: String
    /// This store's token, so that a process skips its own notifications.
    let origin: String
    private let stopped = Atomic<Bool>(false)
    /// Sends notifications in the order changes were committed.
    private let outbox = DispatchQueue(label: "dataconnect-changes-outbox")
    /// The payloads waiting for ``outbox``, in order; a send is scheduled when the first one arrives.
    private let queued = Mutex<[String]>([])
    /// When the last batch was taken to be sent (`DispatchTime.uptimeNanoseconds`), 0 before the first.
    private let lastBatch = Atomic<UInt64>(0)
    /// The sending connection and its prepared `pg_notify`, touched only on ``outbox``.
    private let sender = Mutex<Sender?>(nil)
    /// How this store's own payloads begin (`{"origin":"<origin>"`), so that the listener skips them unparsed.
    private let ownPrefix: [UInt8]

    /// A connection that sends notifications.
    ///
    /// Its transactions hold notifications only, which no server keeps across a crash, so it commits without
    /// waiting for the WAL flush (`synchronous_commit` off in its session alone): the changes they announce were
    /// committed, durably, by the mutations' own connections.
    private final class Sender: @unchecked Sendable {
        let connection: PGConnection
        let notify: PGStatement

        init(_ connectionString: String) throws(PGError) {
            connection = try PGConnection(connectionString)
            try connection.execute("SET synchronous_commit = off")
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
        ownPrefix = Array(#"{"origin":"#.utf8) + Array(JSONValue.string(origin).jsonString().utf8)
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
    /// (the server is away) is dropped with the batch it went in, and the connection is opened again for the next
    /// batch.
    func send(_ change: DataChange) {
        let payload = payload(change)
        let first = queued.withLock { queue in
            queue.append(payload)
            return queue.count == 1
        }
        guard first else { return }
        let (seconds, attoseconds) = Self.coalescingInterval.components
        let interval = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        let due = lastBatch.load(ordering: .relaxed) + interval
        if due > DispatchTime.now().uptimeNanoseconds {
            outbox.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: due)) { [self] in sendQueued() }
        } else {
            outbox.async { [self] in sendQueued() }
        }
    }

    /// Sends every payload queued so far, on ``outbox``.
    private func sendQueued() {
        let payloads = queued.withLock { queue in
            // Changes queued from now on wait for the interval, counted from this batch.
            lastBatch.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            defer { queue = [] }
            return queue
        }
        sender.withLock { sender in
            for batch in Self.batches(payloads) {
                do {
                    if sender == nil || sender?.connection.isConnected == false {
                        sender = try Sender(connectionString)
                    }
                    guard let sender else { continue }
                    _ = try sender.connection.pipeline(
                        batch.map { (statement: sender.notify, parameters: [.text(channel), .text($0)]) })
                } catch {
                    sender = nil
                }
            }
        }
    }

    /// The payloads in order, cut where one repeats an earlier one of its batch: PostgreSQL delivers the same
    /// payload on the same channel once per transaction.
    static func batches(_ payloads: [String]) -> [[String]] {
        var batches: [[String]] = []
        var current: [String] = []
        var seen = Set<String>()
        for payload in payloads {
            if !seen.insert(payload).inserted {
                batches.append(current)
                current = []
                seen = [payload]
            }
            current.append(payload)
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// The change a payload describes, or `nil` for this store's own payloads and unreadable ones.
    func change(from payload: String) -> DataChange? {
        if payload.utf8.starts(with: ownPrefix) { return nil }
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
